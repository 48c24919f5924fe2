// The configuration schema (SPEC §4): the one list of keys and their types.
// Validation, merging, the JP_CFG_* name resolution and the generated
// reference (docs/configuration.md) all walk this tree; the defaults are in
// ./defaults.ts and each key's prose in ./key-docs.ts, and a test fails when
// either misses a key named here. ./types.ts is the same shape as TypeScript.
import {bindingEntryProblem, duplicateSpec, type KeymapName} from './keymaps.js'
import {PROVIDER_NAMES, type ProviderName} from './providers.js'
import type {Config} from './types.js'

export type Schema =
  | {kind: 'string'}
  | {kind: 'number'; min?: number; exclusiveMin?: boolean}
  | {kind: 'boolean'}
  | {kind: 'any'}
  | {kind: 'enum'; values: readonly (string | boolean)[]}
  | {kind: 'array'; items: Schema}
  | {kind: 'table'; fields: Readonly<Record<string, Schema>>; required?: readonly string[]}
  | {
      kind: 'map'
      values: Schema
      /** How the reference names the type (default: "table of <values>"). */
      typeName?: string
      /** A problem with one entry (after the values' types are checked), named by its key. */
      check?: (table: Record<string, unknown>) => {key: string; problem: string} | undefined
    }
  | {kind: 'union'; of: readonly Schema[]}

// The builders keep their arguments' literal types, so `SchemaValue` below
// can read the TypeScript type of every key off CONFIG_SCHEMA itself.
const str = {kind: 'string'} as const
const num = {kind: 'number'} as const
/** Durations: a negative (or, for a timeout, zero) number of seconds is a mistake to report, not a value to use. */
const nonNegative = {kind: 'number', min: 0} as const
const positive = {kind: 'number', min: 0, exclusiveMin: true} as const
const bool = {kind: 'boolean'} as const
const any = {kind: 'any'} as const
const oneOf = <const V extends readonly (string | boolean)[]>(...values: V): {kind: 'enum'; values: V} => ({kind: 'enum', values})
const table = <const F extends Record<string, Schema>>(fields: F, required?: readonly string[]): {kind: 'table'; fields: F; required?: readonly string[]} =>
  required ? {kind: 'table', fields, required} : {kind: 'table', fields}
const map = <const V extends Schema>(values: V): {kind: 'map'; values: V} => ({kind: 'map', values})
const arrayOf = <const I extends Schema>(items: I): {kind: 'array'; items: I} => ({kind: 'array', items})
const union = <const U extends readonly Schema[]>(...of: U): {kind: 'union'; of: U} => ({kind: 'union', of})

/** `editor.inline.keys.<mode>`: key spec → action (config/keymaps.ts). */
const keyTable = (mode: KeymapName) => ({
  kind: 'map' as const,
  values: str,
  typeName: 'table of key spec → action (see [Key bindings](#key-bindings))',
  check: (table: Record<string, unknown>) => {
    for (const [spec, action] of Object.entries(table)) {
      const problem = bindingEntryProblem(mode, spec, action)
      if (problem) return {key: spec, problem}
    }
    const dup = duplicateSpec(table)
    return dup ? {key: dup.spec, problem: `the same key as "${dup.other}" in this table`} : undefined
  },
})

const commandSchema = union(str, table({program: str, args: arrayOf(str), shell: bool}, ['program']))
const composeSchema = oneOf(false, true, 'always', 'never')
const providerSchema = table({base_url: str, api_key_env: str})

/** `providers.llm`: one table per provider of PROVIDERS (./providers.ts), plus the shared timeout. */
const providersSchema = table({
  ...(Object.fromEntries(PROVIDER_NAMES.map((name) => [name, providerSchema])) as Record<ProviderName, typeof providerSchema>),
  timeout_secs: positive,
})

const toolSchema = table({
  source: str,
  command: commandSchema,
  summary: str,
  run: oneOf('ask', 'unattended', 'edit', 'skip'),
  result: oneOf('unattended', 'ask', 'edit', 'skip'),
  cancellation_response: str,
  enable: bool,
  env: table({inherit: oneOf('all', 'core', 'none'), keep: arrayOf(str), drop: arrayOf(str)}),
  parameters: map(
    table({type: str, description: str, required: bool, enum: arrayOf(any), items: map(any)}),
  ),
})

/** `mcp.servers.NAME`: a server run over stdio (`command`) or reached over Streamable HTTP (`url`). */
const mcpServerSchema = table({
  command: str,
  args: arrayOf(str),
  env: map(str),
  cwd: str,
  url: str,
  headers: map(str),
  enable: bool,
  timeout_secs: positive,
})

/** A server's name is the first half of its tools' names (`NAME.TOOL`): no dot, nothing a provider's tool name cannot carry. */
const mcpServersSchema = {
  kind: 'map' as const,
  values: mcpServerSchema,
  check: (servers: Record<string, unknown>) => {
    for (const [name, server] of Object.entries(servers)) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) return {key: name, problem: 'a server name is 1 to 32 letters, digits, `_` or `-`'}
      // `command` xor `url` is checked where the server starts: a layer may change one key of a server another layer defines.
      const url = (server as {url?: unknown}).url
      if (typeof url === 'string' && !/^https?:\/\//i.test(url)) return {key: name, problem: '`url` must start with http:// or https://'}
    }
    return undefined
  },
}

/** The schema of every key in SPEC §4 (./types.ts `Config` is its TypeScript shape; test/config/config-type.test.ts ties the two). */
export const CONFIG_SCHEMA = table({
  assistant: table({
    model: table({
      id: str,
      parameters: table({reasoning: union(str, bool), max_tokens: num, temperature: num}),
    }),
    system_prompt: str,
  }),
  providers: table({llm: providersSchema}),
  editor: table({
    cmd: commandSchema,
    envs: arrayOf(str),
    backend: str,
    inline: table({
      edit_mode: oneOf('emacs', 'vi'),
      complete_mentions: oneOf('tab', 'auto'),
      keys: table({emacs: keyTable('emacs'), vi_insert: keyTable('vi_insert'), vi_normal: keyTable('vi_normal')}),
    }),
  }),
  interrupt: table({
    escalation_cooldown_secs: nonNegative,
    queue_countdown_secs: nonNegative,
    queue_delivery: oneOf('next_step', 'turn_end'),
    type_to_queue: bool,
    streaming: table({action: oneOf('prompt', 'continue', 'stop', 'abort', 'reply'), compose_in_editor: composeSchema}),
    tool_call: table({action: oneOf('prompt', 'continue', 'restart', 'respond', 'stop'), compose_in_editor: composeSchema}),
  }),
  query: table({compose_in_editor: composeSchema, attach_max_bytes: positive}),
  style: table({markdown: bool, hyperlinks: bool, code_theme: oneOf('ansi', 'dark', 'light', 'mono')}),
  conversation: table({tools: map(toolSchema)}),
  mcp: table({servers: mcpServersSchema}),
}) satisfies Schema

/**
 * The value a schema accepts, as a TypeScript type: every table key optional
 * (a layer may set any subset), a union its members' values, a map a table of
 * any keys. `SchemaValue<typeof CONFIG_SCHEMA>` is what one layer may hold.
 */
export type SchemaValue<S> = S extends {kind: 'string'}
  ? string
  : S extends {kind: 'number'}
    ? number
    : S extends {kind: 'boolean'}
      ? boolean
      : S extends {kind: 'any'}
        ? unknown
        : S extends {kind: 'enum'; values: readonly (infer V)[]}
          ? V
          : S extends {kind: 'array'; items: infer I}
            ? SchemaValue<I>[]
            : S extends {kind: 'table'; fields: infer F}
              ? {-readonly [K in keyof F]?: SchemaValue<F[K]>}
              : S extends {kind: 'map'; values: infer V}
                ? {[K in string]?: SchemaValue<V>}
                : S extends {kind: 'union'; of: readonly (infer U)[]}
                  ? SchemaValue<U>
                  : never

/** A configuration layer: any subset of Config. */
export type PartialConfig = DeepPartial<Config>
type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? {[K in keyof T]?: DeepPartial<T[K]>} : T


export function isTable(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** The schema of a key path, or undefined when no such key exists. */
export function schemaAt(path: readonly string[]): Schema | undefined {
  let s: Schema | undefined = CONFIG_SCHEMA
  for (const k of path) {
    if (!s) return undefined
    if (s.kind === 'union') s = s.of.find((m) => m.kind === 'table')
    if (s?.kind === 'table') s = Object.hasOwn(s.fields, k) ? s.fields[k] : undefined
    else if (s?.kind === 'map') s = s.values
    else return undefined
  }
  return s
}
