// `jp config set`: one key changed in a TOML file's text, everything else —
// comments, blank lines, key order, quoting, the other values — kept as it
// was. toml-eslint-parser gives each key and value with its offsets; the
// new value's text replaces the old one's, or a new `key = value` line goes
// into the key's table (a new `[table]` at the end when there is none).
// The caller loads the result back as a config layer before writing it.
import type {AST} from 'toml-eslint-parser'
import {ConfigError} from './errors.js'
import {tomlKeyPath} from './toml-text.js'

type KeyValue = AST.TOMLKeyValue

const keyPath = (key: AST.TOMLKey): string[] => key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : String(k.value)))
const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.length <= path.length && prefix.every((p, i) => path[i] === p)
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && startsWith(a, b)

/** `text` with `path` set to the TOML value `valueText`. `source` names the file in errors. */
export async function setTomlKey(text: string, path: readonly string[], valueText: string, source: string): Promise<string> {
  const {parseTOML} = await import('toml-eslint-parser')
  let program: AST.TOMLProgram
  try {
    program = parseTOML(text)
  } catch (e) {
    const err = e as {lineNumber?: number; column?: number; message?: string}
    throw new ConfigError({source, line: err.lineNumber, column: err.column, problem: `not valid TOML: ${err.message ?? String(e)}`})
  }
  const top = program.body[0]
  const tables: Array<{path: string[]; node: AST.TOMLTopLevelTable | AST.TOMLTable; body: KeyValue[]}> = [
    {path: [], node: top, body: top.body.filter((n): n is KeyValue => n.type === 'TOMLKeyValue')},
    ...top.body.filter((n): n is AST.TOMLTable => n.type === 'TOMLTable').map((t) => ({path: t.resolvedKey.map(String), node: t, body: t.body})),
  ]
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length

  // The key is there (in a table, as a dotted key, or inside an inline table): replace its value.
  const find = (body: readonly KeyValue[], base: string[]): KeyValue | undefined => {
    for (const kv of body) {
      const full = [...base, ...keyPath(kv.key)]
      if (same(full, path)) return kv
      if (startsWith(path, full) && kv.value.type === 'TOMLInlineTable') return find(kv.value.body, full)
      if (startsWith(full, path) || (startsWith(path, full) && kv.value.type !== 'TOMLInlineTable')) {
        throw new ConfigError({source, line: lineOf(kv.range[0]), column: 1, problem: `${tomlKeyPath(full)} is in the way of ${tomlKeyPath(path)}; edit the file by hand`})
      }
    }
    return undefined
  }
  for (const table of tables) {
    if (!startsWith(path, table.path) || table.path.length === path.length) continue
    const kv = find(table.body, table.path)
    if (kv) return text.slice(0, kv.value.range[0]) + valueText + text.slice(kv.value.range[1])
  }
  for (const table of tables.slice(1)) {
    if (startsWith(table.path, path)) {
      throw new ConfigError({source, line: lineOf(table.node.range[0]), column: 1, problem: `${tomlKeyPath(path)} is a table here; edit the file by hand`})
    }
  }

  // A new line in the key's own table, after its last value.
  const parent = path.slice(0, -1)
  const home = tables.find((t) => same(t.path, parent) && (t.node.type === 'TOMLTopLevelTable' || t.node.kind === 'standard'))
  const line = `${tomlKeyPath(path.slice(-1))} = ${valueText}`
  if (home) {
    const last = home.body.at(-1)
    if (home.node.type === 'TOMLTopLevelTable') {
      const firstTable = tables[1]?.node
      const at = last ? endOfLine(text, last.range[1]) : firstTable ? startOfLine(text, firstTable.range[0]) : text.length
      return insertLine(text, at, line, !last && firstTable !== undefined)
    }
    const at = endOfLine(text, last ? last.range[1] : (home.node as AST.TOMLTable).key.range[1])
    return insertLine(text, at, line, false)
  }
  // No such table yet: a new one at the end.
  const ending = text === '' || text.endsWith('\n') ? '' : '\n'
  const gap = text.trim() === '' ? '' : '\n'
  return `${text}${ending}${gap}[${tomlKeyPath(parent)}]\n${line}\n`
}

function endOfLine(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset)
  return nl === -1 ? text.length : nl
}

function startOfLine(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1
}

/** `line` inserted at `at` (an end of line, or with `before` the start of one). */
function insertLine(text: string, at: number, line: string, before: boolean): string {
  if (before) return `${text.slice(0, at)}${line}\n\n${text.slice(at)}`
  if (at === text.length) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`
  return `${text.slice(0, at)}\n${line}${text.slice(at)}`
}
