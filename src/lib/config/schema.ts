// The configuration schema (SPEC §4): the one list of keys and their types.
// Validation, merging, the JP_CFG_* name resolution and the generated
// reference (docs/configuration.md) all walk this tree; the defaults are in
// ./defaults.ts and each key's prose in ./key-docs.ts, and a test fails when
// either misses a key named here. ./types.ts is the same shape as TypeScript.
import type {Config} from './types.js'

export type Schema =
  | {kind: 'string'}
  | {kind: 'number'; min?: number; exclusiveMin?: boolean}
  | {kind: 'boolean'}
  | {kind: 'any'}
  | {kind: 'enum'; values: readonly (string | boolean)[]}
  | {kind: 'array'; items: Schema}
  | {kind: 'table'; fields: Record<string, Schema>; required?: string[]}
  | {kind: 'map'; values: Schema}
  | {kind: 'union'; of: Schema[]}

const str: Schema = {kind: 'string'}
const num: Schema = {kind: 'number'}
/** Durations: a negative (or, for a timeout, zero) number of seconds is a mistake to report, not a value to use. */
const nonNegative: Schema = {kind: 'number', min: 0}
const positive: Schema = {kind: 'number', min: 0, exclusiveMin: true}
const bool: Schema = {kind: 'boolean'}
const any: Schema = {kind: 'any'}
const oneOf = (...values: (string | boolean)[]): Schema => ({kind: 'enum', values})
const table = (fields: Record<string, Schema>, required?: string[]): Schema => ({kind: 'table', fields, required})
const map = (values: Schema): Schema => ({kind: 'map', values})
const arrayOf = (items: Schema): Schema => ({kind: 'array', items})
const union = (...of: Schema[]): Schema => ({kind: 'union', of})

const commandSchema = union(str, table({program: str, args: arrayOf(str), shell: bool}, ['program']))
const composeSchema = oneOf(false, true, 'always', 'never')
const providerSchema = table({base_url: str, api_key_env: str})

const toolSchema = table({
  source: str,
  command: commandSchema,
  summary: str,
  run: oneOf('ask', 'unattended', 'edit', 'skip'),
  result: oneOf('unattended', 'ask', 'edit', 'skip'),
  cancellation_response: str,
  enable: bool,
  parameters: map(
    table({type: str, description: str, required: bool, enum: arrayOf(any), items: map(any)}),
  ),
})

/** The schema of every key in SPEC §4 (mirrors ./types.ts). */
export const CONFIG_SCHEMA: Schema = table({
  assistant: table({
    model: table({
      id: str,
      parameters: table({reasoning: union(str, bool), max_tokens: num, temperature: num}),
    }),
    system_prompt: str,
  }),
  providers: table({
    llm: table({
      anthropic: providerSchema,
      openai: providerSchema,
      openrouter: providerSchema,
      ollama: providerSchema,
      llamacpp: providerSchema,
      timeout_secs: positive,
    }),
  }),
  editor: table({
    cmd: commandSchema,
    envs: arrayOf(str),
    backend: str,
    inline: table({edit_mode: oneOf('emacs', 'vi')}),
  }),
  interrupt: table({
    escalation_cooldown_secs: nonNegative,
    streaming: table({action: oneOf('prompt', 'continue', 'stop', 'abort', 'reply'), compose_in_editor: composeSchema}),
    tool_call: table({action: oneOf('prompt', 'continue', 'restart', 'respond', 'stop'), compose_in_editor: composeSchema}),
  }),
  query: table({compose_in_editor: composeSchema}),
  style: table({markdown: bool, hyperlinks: bool, code_theme: oneOf('ansi', 'dark', 'light', 'mono')}),
  conversation: table({tools: map(toolSchema)}),
})

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
