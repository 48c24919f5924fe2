// Checking a configuration layer against the schema. Every layer (files,
// the conversation's stored config, JP_CFG_*, --cfg) goes through
// validatePartial before it is merged, so a wrong key or type stops jp with
// one line naming the source, line, column, key and the expected type.
import {wordsProblem} from './command-words.js'
import {ConfigError} from './errors.js'
import {locateKey, formatKeyPath} from './locate.js'
import {CONFIG_SCHEMA, isTable, type PartialConfig, type Schema, schemaAt} from './schema.js'

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
    case 'number':
      return numberType(s)
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

/** `number`, `number >= 0`, `number > 0`. */
export function numberType(s: Extract<Schema, {kind: 'number'}>): string {
  return s.min === undefined ? 'number' : `number ${s.exclusiveMin ? '>' : '>='} ${s.min}`
}

export interface Ctx {
  source: string
  text?: string
}

export function fail(ctx: Ctx, path: string[], problem: string): never {
  const pos = ctx.text === undefined ? undefined : locateKey(ctx.text, path)
  throw new ConfigError({source: ctx.source, line: pos?.line, column: pos?.column, key: formatKeyPath(path) || undefined, problem})
}

function matches(s: Schema, v: unknown): boolean {
  switch (s.kind) {
    case 'string':
      return typeof v === 'string'
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) && (s.min === undefined || (s.exclusiveMin ? v > s.min : v >= s.min))
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
    const problem = s.check?.(v as Record<string, unknown>)
    if (problem) fail(ctx, [...path, problem.key], problem.problem)
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
  if (typeof obj === 'object' && obj !== null) origins.set(obj, ctx)
  return obj as PartialConfig
}

/** Where each validated layer came from, for problems only visible once layers are merged. */
const origins = new WeakMap<object, Ctx>()

/** The source (and TOML text) a layer was validated with; a filtered copy of a layer can take its original's. */
export function layerOrigin(layer: object): Ctx | undefined {
  return origins.get(layer)
}

export function copyLayerOrigin(from: object, to: object): void {
  const ctx = origins.get(from)
  if (ctx) origins.set(to, ctx)
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
    const problem = wordsProblem(value)
    if (problem !== undefined) fail(ctx, keys, `cannot split into words: ${problem}`)
  }
}
