// TOML text that jp writes itself: a value (`jp config set`, `jp init
// --model`), and the merged configuration (`jp config show`), with an
// optional comment after each value (`--origin`).
//
// Strings are TOML basic strings whose every control character is an escape
// (JSON.stringify leaves DEL raw, which TOML forbids in a string, and a
// terminal shown the file would act on it).
import {sanitizeUntrusted} from '../text/untrusted.js'
import {isTable} from './schema.js'

const BARE_KEY = /^[A-Za-z0-9_-]+$/

/** A TOML basic string. */
export function tomlString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** One key segment: bare when it can be, else a basic string. */
export function tomlKey(segment: string): string {
  return BARE_KEY.test(segment) ? segment : tomlString(segment)
}

/** A dotted key. */
export function tomlKeyPath(path: readonly string[]): string {
  return path.map(tomlKey).join('.')
}

/** A value on one line: strings, numbers, booleans, arrays, and tables as inline tables. */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan'
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`
  if (isTable(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`).join(', ')} }`
  }
  throw new Error(`no TOML form for ${String(value)}`)
}

/**
 * A configuration tree as a TOML document: the scalars and arrays of each
 * table under its `[header]`, tables in their order. `comment(path)` adds
 * `# text` after a value (the layer it came from).
 */
export function configToml(tree: Record<string, unknown>, comment?: (path: string[]) => string | undefined): string {
  const out: string[] = []
  const emit = (table: Record<string, unknown>, path: string[]) => {
    const leaves = Object.entries(table).filter(([, v]) => v !== undefined && !isTable(v))
    const tables = Object.entries(table).filter(([, v]) => isTable(v)) as Array<[string, Record<string, unknown>]>
    if (path.length > 0 && (leaves.length > 0 || tables.length === 0)) {
      if (out.length > 0) out.push('')
      out.push(`[${tomlKeyPath(path)}]`)
    }
    for (const [k, v] of leaves) {
      const note = comment?.([...path, k])
      out.push(`${tomlKey(k)} = ${tomlValue(v)}${note ? `   # ${sanitizeUntrusted(note)}` : ''}`)
    }
    for (const [k, v] of tables) emit(v, [...path, k])
  }
  emit(tree, [])
  return out.join('\n') + '\n'
}
