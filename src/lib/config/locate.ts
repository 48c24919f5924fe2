// Where a key is in TOML text: errors about a syntactically valid file name
// the line and column of the offending key (the parser only knows syntax).

/** Formats a key path as TOML dotted keys, quoting segments that are not bare keys. */
export function formatKeyPath(path: readonly string[]): string {
  return path.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : `'${k}'`)).join('.')
}

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

/** The line and column defining `path` (or, failing that, the nearest key below or above it). */
export function locateKey(text: string, path: readonly string[]): {line: number; column: number} | undefined {
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
