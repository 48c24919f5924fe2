// The configuration layers above the defaults (SPEC §4): the user and
// workspace files, JP_CFG_* variables and --cfg arguments. Each is read,
// validated and returned as a PartialConfig; ./load.ts merges them in order.
import {readFile} from 'node:fs/promises'
import {homedir} from 'node:os'
import {isAbsolute, join, resolve} from 'node:path'
import {ConfigError} from './errors.js'
import {formatKeyPath, parseKeyPath} from './locate.js'
import {mergeConfig} from './merge.js'
import {parseConfigToml, parseValue} from './parse.js'
import {CONFIG_SCHEMA, isTable, type PartialConfig, type Schema, schemaAt} from './schema.js'
import {changedSettings, CONFIG_SOURCE, restrictedSettings, withoutRestrictedKeys, type TrustSource, type WorkspaceTrust} from './trust.js'
import type {Config} from './types.js'
import {copyLayerOrigin, validatePartial} from './validate.js'

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  let out: unknown = value
  for (let i = path.length - 1; i >= 0; i--) out = {[path[i]]: out}
  return out as Record<string, unknown>
}

/**
 * The layer setting `path` to the text `raw` (from `-c KEY=VALUE`,
 * `JP_CFG_*` or `jp config set KEY VALUE`). Like `git -c`, the text stands as typed where the key takes a
 * string: `-c "editor.cmd='/opt/My Editor/ed'"` keeps the quotes that group
 * the words (a TOML parse would strip them). Where the key is typed, the
 * text is parsed as a TOML value (`2`, `true`, `["a"]`, `{program = "x"}`),
 * falling back to the raw string when that does not fit.
 */
export async function layerAt(path: string[], raw: string, source: string): Promise<PartialConfig> {
  const schema = schemaAt(path)
  if (schema?.kind === 'string') return validatePartial(nest(path, raw), source)
  const parsed = await parseValue(raw)
  // A key that takes a string or something else (editor.cmd: a string or a
  // table): a value that TOML reads as a string is taken as typed instead.
  if (typeof parsed === 'string' && schema?.kind === 'union' && schema.of.some((m) => m.kind === 'string')) {
    return validatePartial(nest(path, raw), source)
  }
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

export async function envLayers(env: NodeJS.ProcessEnv, current: Config): Promise<PartialConfig[]> {
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

export async function cfgArgLayer(arg: string, cwd: string): Promise<PartialConfig> {
  if (arg.trim() === '') throw new ConfigError({source: '--cfg', problem: 'empty argument (expected KEY=VALUE or the path of a TOML file)'})
  const eq = arg.indexOf('=')
  const keyPath = eq > 0 ? parseKeyPath(arg.slice(0, eq).trim()) : undefined
  if (keyPath) return layerAt(keyPath, arg.slice(eq + 1).trim(), '--cfg')
  const file = isAbsolute(arg) ? arg : resolve(cwd, arg)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'is neither KEY=VALUE nor an existing file'
        : code === 'EISDIR'
          ? 'is a directory (expected KEY=VALUE or the path of a TOML file)'
          : `cannot be read (${code ?? String(e)})`
    throw new ConfigError({source: `--cfg ${arg}`, problem: why})
  }
  return parseConfigToml(text, file)
}

export async function fileLayer(path: string): Promise<PartialConfig | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError({source: path, problem: `cannot be read: ${(e as Error).message}`})
  }
  return parseConfigToml(text, path)
}

export interface WorkspaceLayerOptions {
  /** The workspace root (the directory holding `.jp/`), if there is one. */
  root?: string
  /** The conversation's stored config (base config with its deltas folded in). */
  conversationConfig?: unknown
  conversationConfigSource?: string
  /** How the trust file names the conversation's layer (`conversations/ID`). */
  conversationTrustSource?: TrustSource
  /** How far the user trusts the workspace (`jp trust`, ./trust.ts). */
  trust: WorkspaceTrust
}

/** Restricted keys an untrusted or changed workspace layer tried to set (dotted), and why they were ignored. */
export interface IgnoredSettings {
  /** `untrusted`: never trusted; `changed`: not what the trust covers (`pathOnly`: the trust covers no settings). */
  reason: 'untrusted' | 'changed'
  keys: string[]
  /** The layers they came from (`changed` only). */
  sources: TrustSource[]
  pathOnly: boolean
}

/**
 * The layers that come from the workspace: its `.jp/config.toml` and the
 * conversation's stored config (conversations live in `.jp/` too, so a
 * repository can ship one). Both are validated in full — a broken file still
 * stops jp — and lose the keys that redirect requests or run programs
 * (./trust.ts) unless the user's trust covers them as they are now.
 */
export async function workspaceLayers(opts: WorkspaceLayerOptions): Promise<{layers: PartialConfig[]; ignored?: IgnoredSettings}> {
  const layers: PartialConfig[] = []
  const trust = opts.trust
  const ignored: IgnoredSettings = {reason: trust === 'none' ? 'untrusted' : 'changed', keys: [], sources: [], pathOnly: typeof trust === 'object' && trust.pathOnly === true}
  const add = (layer: PartialConfig | undefined, source: TrustSource) => {
    if (layer === undefined) return
    if (trust === 'all') return void layers.push(layer)
    let dropped: string[]
    if (trust === 'none') dropped = withoutRestrictedKeys(layer).ignored.map(formatKeyPath)
    else {
      dropped = changedSettings(restrictedSettings(layer), trust.settings[source])
      if (dropped.length === 0) return void layers.push(layer)
      ignored.sources.push(source)
    }
    for (const key of dropped) if (!ignored.keys.includes(key)) ignored.keys.push(key)
    layers.push(withoutRestrictedKeys(layer).layer)
  }
  if (opts.root) add(await fileLayer(join(opts.root, '.jp', 'config.toml')), CONFIG_SOURCE)
  if (opts.conversationConfig !== undefined) {
    add(validatePartial(opts.conversationConfig, opts.conversationConfigSource ?? 'conversation config'), opts.conversationTrustSource ?? 'conversation')
  }
  return ignored.keys.length > 0 ? {layers, ignored} : {layers}
}

/** `$XDG_CONFIG_HOME/jp/config.toml`, else `~/.config/jp/config.toml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME?.trim()
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), '.config')
  return join(base, 'jp', 'config.toml')
}
