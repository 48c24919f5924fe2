// Configuration loading (SPEC §4): defaults < user file < workspace file <
// conversation config < JP_CFG_* environment < --cfg. Every layer is checked
// against one schema before it is merged, so an unknown key or a wrong type
// fails with a one-line error naming its source, line, column, key and the
// expected type. smol-toml is imported lazily (start-up cost).
import {readFile} from 'node:fs/promises'
import {homedir} from 'node:os'
import {isAbsolute, join, resolve} from 'node:path'
import {split as shlexSplit} from 'shlex'
import {defaultConfig} from './defaults.js'
import {ConfigError} from './errors.js'
import type {Config, ToolConfig} from './types.js'

// ---------------------------------------------------------------------------
// Schema

type Schema =
  | {kind: 'string'}
  | {kind: 'number'}
  | {kind: 'boolean'}
  | {kind: 'any'}
  | {kind: 'enum'; values: readonly (string | boolean)[]}
  | {kind: 'array'; items: Schema}
  | {kind: 'table'; fields: Record<string, Schema>; required?: string[]}
  | {kind: 'map'; values: Schema}
  | {kind: 'union'; of: Schema[]}

const str: Schema = {kind: 'string'}
const num: Schema = {kind: 'number'}
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
      timeout_secs: num,
    }),
  }),
  editor: table({
    cmd: commandSchema,
    envs: arrayOf(str),
    backend: str,
    inline: table({edit_mode: oneOf('emacs', 'vi')}),
  }),
  interrupt: table({
    escalation_cooldown_secs: num,
    streaming: table({action: oneOf('prompt', 'continue', 'stop', 'abort', 'reply'), compose_in_editor: composeSchema}),
    tool_call: table({action: oneOf('prompt', 'continue', 'restart', 'respond', 'stop'), compose_in_editor: composeSchema}),
  }),
  conversation: table({tools: map(toolSchema)}),
})

/** A configuration layer: any subset of Config. */
export type PartialConfig = DeepPartial<Config>
type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? {[K in keyof T]?: DeepPartial<T[K]>} : T

// ---------------------------------------------------------------------------
// Validation

function isTable(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function describe(s: Schema): string {
  switch (s.kind) {
    case 'enum':
      return s.values.map((v) => JSON.stringify(v)).join(' | ')
    case 'array':
      return `array of ${describe(s.items)}`
    case 'table':
    case 'map':
      return 'table'
    case 'union':
      return s.of.map(describe).join(' | ')
    default:
      return s.kind
  }
}

function describeValue(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (isTable(v)) return 'a table'
  if (typeof v === 'object') return `a date (${String(v)})`
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v)
  return typeof v
}

/** Formats a key path as TOML dotted keys, quoting segments that are not bare keys. */
export function formatKeyPath(path: readonly string[]): string {
  return path.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : `'${k}'`)).join('.')
}

interface Ctx {
  source: string
  text?: string
}

function fail(ctx: Ctx, path: string[], problem: string): never {
  const pos = ctx.text === undefined ? undefined : locateKey(ctx.text, path)
  throw new ConfigError({source: ctx.source, line: pos?.line, column: pos?.column, key: formatKeyPath(path) || undefined, problem})
}

function matches(s: Schema, v: unknown): boolean {
  switch (s.kind) {
    case 'string':
      return typeof v === 'string'
    case 'number':
      return typeof v === 'number' && Number.isFinite(v)
    case 'boolean':
      return typeof v === 'boolean'
    case 'any':
      return v !== null && v !== undefined
    case 'enum':
      return s.values.includes(v as string | boolean)
    case 'array':
      return Array.isArray(v)
    case 'table':
    case 'map':
      return isTable(v)
    case 'union':
      return s.of.some((m) => matches(m, v))
  }
}

function check(s: Schema, v: unknown, path: string[], ctx: Ctx): void {
  if (s.kind === 'union') {
    // A table value is checked inside the table member so errors name the inner key.
    const member = s.of.find((m) => (isTable(v) ? m.kind === 'table' : matches(m, v)))
    if (!member) fail(ctx, path, `expected ${describe(s)}, got ${describeValue(v)}`)
    check(member, v, path, ctx)
    return
  }
  if (!matches(s, v)) fail(ctx, path, `expected ${describe(s)}, got ${describeValue(v)}`)
  if (s.kind === 'array') {
    ;(v as unknown[]).forEach((item, i) => check(s.items, item, [...path, String(i)], ctx))
  } else if (s.kind === 'table') {
    const obj = v as Record<string, unknown>
    for (const [k, child] of Object.entries(obj)) {
      const field = Object.hasOwn(s.fields, k) ? s.fields[k] : undefined
      if (!field) fail(ctx, [...path, k], `unknown key (expected one of: ${Object.keys(s.fields).join(', ')})`)
      check(field, child, [...path, k], ctx)
    }
    for (const k of s.required ?? []) {
      if (!(k in obj)) fail(ctx, [...path, k], `missing (required in the table form)`)
    }
  } else if (s.kind === 'map') {
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) check(s.values, child, [...path, k], ctx)
  }
}

/**
 * Checks one configuration layer against the schema and returns it typed.
 * `text` (the layer's TOML source) lets errors point at the key's line.
 */
export function validatePartial(obj: unknown, source: string, opts: {text?: string; path?: string[]} = {}): PartialConfig {
  const ctx: Ctx = {source, text: opts.text}
  const path = opts.path ?? []
  check(schemaAt(path) ?? CONFIG_SCHEMA, obj, path, ctx)
  checkCommandWords(obj, path, ctx)
  return obj as PartialConfig
}

/**
 * Command strings (`editor.cmd`, a tool's `command`) are split like POSIX sh
 * words when used; unbalanced quoting is caught here, with the file and line,
 * so a broken config stops before any work rather than when an editor opens.
 */
function checkCommandWords(obj: unknown, path: readonly string[], ctx: Ctx): void {
  const at = (keys: string[]): unknown => {
    let v: unknown = obj
    for (const k of keys.slice(path.length)) v = isTable(v) ? v[k] : undefined
    return v
  }
  const candidates: string[][] = [['editor', 'cmd']]
  const tools = at(['conversation', 'tools'])
  if (isTable(tools)) for (const name of Object.keys(tools)) candidates.push(['conversation', 'tools', name, 'command'])
  for (const keys of candidates) {
    if (keys.slice(0, path.length).join('\0') !== path.join('\0')) continue
    const value = at(keys)
    if (typeof value !== 'string') continue
    try {
      shlexSplit(value)
    } catch (error) {
      fail(ctx, keys, `cannot split into words: ${(error as Error).message}`)
    }
  }
}

/** The schema of a key path, or undefined when no such key exists. */
function schemaAt(path: readonly string[]): Schema | undefined {
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

// ---------------------------------------------------------------------------
// Finding a key's line in TOML text (for type errors in a syntactically valid file)

const KEY_SEGMENT = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`
const KEY_PATH = String.raw`${KEY_SEGMENT}(?:\s*\.\s*${KEY_SEGMENT})*`
const HEADER_RE = new RegExp(String.raw`^(\s*)\[\[?\s*(${KEY_PATH})\s*\]\]?`)
const KEYVAL_RE = new RegExp(String.raw`^(\s*)(${KEY_PATH})\s*=`)

/** Parses a TOML dotted key (`a.'b c'."d"`) into segments; undefined when it is not one. */
export function parseKeyPath(text: string): string[] | undefined {
  const re = new RegExp(String.raw`\s*(${KEY_SEGMENT})\s*(\.|$)`, 'y')
  const out: string[] = []
  let pos = 0
  while (pos < text.length) {
    re.lastIndex = pos
    const m = re.exec(text)
    if (!m) return undefined
    const seg = m[1]
    if (seg.startsWith('"')) {
      try {
        out.push(JSON.parse(seg) as string)
      } catch {
        return undefined
      }
    } else if (seg.startsWith("'")) out.push(seg.slice(1, -1))
    else out.push(seg)
    pos = re.lastIndex
    if (m[2] === '') break
    if (pos >= text.length) return undefined // trailing dot
  }
  return out.length > 0 ? out : undefined
}

function locateKey(text: string, path: readonly string[]): {line: number; column: number} | undefined {
  const lines = text.split(/\r?\n/)
  let current: string[] = []
  let inMultiline = false
  let exact: {line: number; column: number} | undefined
  let inside: {line: number; column: number} | undefined // a line defining a key below `path`
  let outer: {line: number; column: number; depth: number} | undefined // a line defining a parent of `path`
  for (const [i, raw] of lines.entries()) {
    const quotes = (raw.match(/"""|'''/g) ?? []).length
    if (inMultiline) {
      if (quotes % 2 === 1) inMultiline = false
      continue
    }
    if (quotes % 2 === 1) inMultiline = true
    let full: string[] | undefined
    let column = 1
    const header = HEADER_RE.exec(raw)
    if (header) {
      current = parseKeyPath(header[2]) ?? []
      full = current
      column = header[1].length + 1
    } else {
      const kv = KEYVAL_RE.exec(raw)
      if (!kv) continue
      const keys = parseKeyPath(kv[2])
      if (!keys) continue
      full = [...current, ...keys]
      column = kv[1].length + 1
    }
    const common = commonPrefix(full, path)
    const pos = {line: i + 1, column}
    if (common === path.length && full.length === path.length && !header) exact ??= pos
    else if (common === path.length && full.length === path.length) exact ??= pos
    else if (common === path.length) inside ??= pos
    else if (common === full.length && (!outer || common >= outer.depth)) outer = {...pos, depth: common}
  }
  return exact ?? inside ?? (outer ? {line: outer.line, column: outer.column} : undefined)
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

// ---------------------------------------------------------------------------
// Parsing and merging

/** Parses and validates a TOML config document; errors name `source:line:column`. */
export async function parseConfigToml(text: string, source: string): Promise<PartialConfig> {
  const {parse, TomlError} = await import('smol-toml')
  let doc: unknown
  try {
    doc = parse(text)
  } catch (e) {
    if (e instanceof TomlError) {
      const problem = e.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '')
      throw new ConfigError({source, line: e.line, column: e.column, problem: `invalid TOML: ${problem}`})
    }
    throw e
  }
  return validatePartial(doc, source, {text})
}

/** Deep-merges a validated layer over `base` (tables merge key by key; other values, arrays and `cmd` replace). */
export function mergeConfig<T extends object>(base: T, partial: PartialConfig | Record<string, unknown> | undefined): T {
  return mergeAt(CONFIG_SCHEMA, base, partial) as T
}

function mergeAt(s: Schema | undefined, base: unknown, over: unknown): unknown {
  if (over === undefined) return base
  if (s && (s.kind === 'table' || s.kind === 'map') && isTable(base) && isTable(over)) {
    const out: Record<string, unknown> = {...base}
    for (const [k, v] of Object.entries(over)) {
      const child = s.kind === 'map' ? s.values : Object.hasOwn(s.fields, k) ? s.fields[k] : undefined
      out[k] = mergeAt(child, base[k], v)
    }
    return out
  }
  return structuredClone(over)
}

// ---------------------------------------------------------------------------
// Environment and --cfg layers

/** Parses a value as a TOML value (`true`, `2`, `"x"`, `["a"]`, `{...}`), else keeps the bare string. */
async function parseValue(raw: string): Promise<unknown> {
  const {parse} = await import('smol-toml')
  try {
    return parse(`v = ${raw}`).v
  } catch {
    return raw
  }
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  let out: unknown = value
  for (let i = path.length - 1; i >= 0; i--) out = {[path[i]]: out}
  return out as Record<string, unknown>
}

/** Validates `value` at `path`, retrying with the raw string when a typed parse does not fit (`JP_CFG_X=2` for a string key). */
async function layerAt(path: string[], raw: string, source: string): Promise<PartialConfig> {
  const parsed = await parseValue(raw)
  try {
    return validatePartial(nest(path, parsed), source)
  } catch (e) {
    if (typeof parsed === 'string') throw e
    try {
      return validatePartial(nest(path, raw), source)
    } catch {
      throw e
    }
  }
}

const envName = (key: string) => key.toUpperCase().replace(/[.-]/g, '_')

/**
 * Resolves the tokens of a `JP_CFG_*` name against the schema. Key names
 * contain underscores, so this backtracks over the possible splits; map keys
 * (tool names) match an existing key case-insensitively, else lower-case.
 */
function resolveEnvPath(s: Schema | undefined, tokens: string[], current: unknown): string[] | undefined {
  if (!s) return undefined
  if (tokens.length === 0) return []
  if (s.kind === 'union') {
    const t = s.of.find((m) => m.kind === 'table')
    return resolveEnvPath(t, tokens, current)
  }
  const candidates: [string, Schema][] = []
  if (s.kind === 'table') {
    for (const [k, child] of Object.entries(s.fields)) candidates.push([k, child])
  } else if (s.kind === 'map') {
    const existing = isTable(current) ? Object.keys(current) : []
    for (const k of existing) candidates.push([k, s.values])
    for (let n = 1; n <= tokens.length; n++) candidates.push([tokens.slice(0, n).join('_').toLowerCase(), s.values])
  } else return undefined
  for (const [k, child] of candidates) {
    const parts = envName(k).split('_')
    if (parts.length > tokens.length || parts.some((p, i) => p !== tokens[i])) continue
    const rest = resolveEnvPath(child, tokens.slice(parts.length), isTable(current) ? current[k] : undefined)
    if (rest) return [k, ...rest]
  }
  return undefined
}

async function envLayers(env: NodeJS.ProcessEnv, current: Config): Promise<PartialConfig[]> {
  const out: PartialConfig[] = []
  const names = Object.keys(env).filter((k) => k.startsWith('JP_CFG_')).sort()
  for (const name of names) {
    const raw = env[name] ?? ''
    const tokens = name.slice('JP_CFG_'.length).split('_')
    const path = resolveEnvPath(CONFIG_SCHEMA, tokens, current)
    if (!path || path.length === 0) {
      throw new ConfigError({source: name, problem: 'no configuration key matches this variable'})
    }
    const layer = await layerAt(path, raw, name)
    out.push(layer)
    current = mergeConfig(current, layer)
  }
  return out
}

async function cfgArgLayer(arg: string, cwd: string): Promise<PartialConfig> {
  const eq = arg.indexOf('=')
  const keyPath = eq > 0 ? parseKeyPath(arg.slice(0, eq).trim()) : undefined
  if (keyPath) return layerAt(keyPath, arg.slice(eq + 1).trim(), '--cfg')
  const file = isAbsolute(arg) ? arg : resolve(cwd, arg)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'is neither KEY=VALUE nor an existing file' : `cannot be read (${code ?? String(e)})`
    throw new ConfigError({source: `--cfg ${arg}`, problem: why})
  }
  return parseConfigToml(text, file)
}

async function fileLayer(path: string): Promise<PartialConfig | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError({source: path, problem: `cannot be read: ${(e as Error).message}`})
  }
  return parseConfigToml(text, path)
}

/** `$XDG_CONFIG_HOME/jp/config.toml`, else `~/.config/jp/config.toml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME?.trim()
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), '.config')
  return join(base, 'jp', 'config.toml')
}

export interface LoadConfigOptions {
  cwd: string
  /** The workspace root (the directory holding `.jp/`); its `.jp/config.toml` is a layer. */
  workspaceRoot?: string
  /** The conversation's stored config (base config with its deltas folded in). */
  conversationConfig?: unknown
  /** Label for errors in `conversationConfig`, e.g. the path of base_config.json. */
  conversationConfigSource?: string
  /** `--cfg` arguments in command-line order. */
  cfgArgs?: readonly string[]
  env?: NodeJS.ProcessEnv
}

/** Loads and merges every layer. Throws ConfigError (one line) on any bad layer. */
export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  const env = opts.env ?? process.env
  let config = defaultConfig(env)
  const user = await fileLayer(userConfigPath(env))
  config = mergeConfig(config, user)
  if (opts.workspaceRoot) config = mergeConfig(config, await fileLayer(join(opts.workspaceRoot, '.jp', 'config.toml')))
  if (opts.conversationConfig !== undefined) {
    const layer = validatePartial(opts.conversationConfig, opts.conversationConfigSource ?? 'conversation config')
    config = mergeConfig(config, layer)
  }
  for (const layer of await envLayers(env, config)) config = mergeConfig(config, layer)
  for (const arg of opts.cfgArgs ?? []) config = mergeConfig(config, await cfgArgLayer(arg, opts.cwd))
  return normalize(config)
}

/** Fills the optional parts of `{program, args, shell}` tables so readers see the full CommandConfig. */
function normalize(config: Config): Config {
  const fill = (c: unknown) => (isTable(c) ? {args: [], shell: false, ...c} : c)
  if (config.editor.cmd !== undefined) config.editor.cmd = fill(config.editor.cmd) as Config['editor']['cmd']
  for (const tool of Object.values(config.conversation.tools)) {
    if (tool.command !== undefined) tool.command = fill(tool.command) as ToolConfig['command']
  }
  return config
}
