// Readings without markdown-it where it has only one. The inline tokens of
// a paragraph segment in the shapes answers use most —
// `**bold words**`, `*em*`, `` `code` ``, `[text](url)`, each with plain
// text around it — without running markdown-it (whose per-call set-up costs
// more than the rest of rendering the segment). Each shape is recognised only
// where the CommonMark rules leave one reading, and the tokens are what
// markdown-it gives for it, with its own link normalisation and validation;
// anything else returns undefined and goes to the parser.
// And a GFM table whose every line starts with `|`: its cells, as
// markdown-it's table rule splits them.
// test/markdown/quick-inline.test.ts compares the two over generated input.
import type {Parser} from './render.js'

type Token = ReturnType<Parser['parse']>[number]

/**
 * Text the inline parser leaves as one text token: no character any inline
 * rule starts at (see INLINE_SYNTAX in render.ts), no whitespace but a plain
 * space, nothing normalisation changes (CR, NUL), and no `//` (linkify's
 * schema-less links).
 */
const TEXT = String.raw`(?:[^\\\x60*_~[\]<&:!\s\x00/]|/(?!/)| )`
const SIDE_CHAR = String.raw`[^\\\x60*_~[\]<&:!\s\x00/]|/(?!/)`
/** Around a construct: plain text (spaces included: a heading's, list item's or table cell's whole text). */
const SIDE = `(?:${TEXT})*`

/** `*x*` / `**x y**`: the inner text starts and ends with an ASCII letter or digit, so both runs flank it. */
const EMPHASIS = new RegExp(String.raw`^(${SIDE})(\*\*?)([A-Za-z0-9](?:${TEXT}*[A-Za-z0-9])?)\2(${SIDE})$`)
/** One backtick each side, the span without one (its content may hold anything else). */
const CODE = new RegExp(String.raw`^(${SIDE})\x60([^\x60\r\x00]+)\x60(${SIDE})$`)
/** `[text](dest)`: a destination without space, parentheses, escapes, entities or `<`; no title. */
const LINK = new RegExp(String.raw`^(${SIDE})\[((?:${SIDE_CHAR})(?:${TEXT}*(?:${SIDE_CHAR}))?)\]\(([A-Za-z0-9\-._~:/?#@!$'+,;=%*]+)\)(${SIDE})$`)
/** Plain text: one text token (markdown-it's, with the same characters). */
const PLAIN_TEXT = new RegExp(`^(?:${TEXT})*$`)

/** Anything but PLAIN_TEXT of printable ASCII with single spaces. */
const NOT_PLAIN_ASCII = /[^ -~]|[\\`*_~[\]<&:!]|\/\/| {2}/

/**
 * `src` is one text token of printable ASCII, its words one space apart:
 * what a LineWrapper's plainSegment takes as it is (once trimmed).
 */
export function isPlainAscii(src: string): boolean {
  return !NOT_PLAIN_ASCII.test(src)
}

/** The part of markdown-it's Token the renderer reads (fields set in the constructor: one shape, no field initialisers). */
class QuickToken {
  declare readonly type: string
  declare readonly content: string
  declare readonly markup: string
  declare readonly children: null
  declare private readonly href: string | undefined

  constructor(type: string, content: string, markup: string, href: string | undefined) {
    this.type = type
    this.content = content
    this.markup = markup
    this.href = href
    this.children = null
  }

  attrGet(name: string): string | null {
    return name === 'href' && this.href !== undefined ? this.href : null
  }
}

function tok(type: string, content = '', markup = '', href?: string): QuickToken {
  return new QuickToken(type, content, markup, href)
}

/** `inner` (one to three tokens) with the text around it. */
function around(head: string, tail: string, a: QuickToken, b?: QuickToken, c?: QuickToken): Token[] {
  const out: QuickToken[] = []
  if (head !== '') out.push(tok('text', head))
  out.push(a)
  if (b) out.push(b)
  if (c) out.push(c)
  if (tail !== '') out.push(tok('text', tail))
  return out as unknown as Token[]
}

/**
 * markdown-it's normalizeLink (URL parsing, punycode, percent-encoding: the
 * costliest step of a link) then validateLink, remembered per parser: both
 * are functions of the URL alone, and an answer links the same pages again.
 * undefined: not a valid link.
 */
const LINKS = new WeakMap<Parser, Map<string, string | undefined>>()
const MAX_LINKS = 512

function normalizedLink(md: Parser, url: string): string | undefined {
  let known = LINKS.get(md)
  if (!known) LINKS.set(md, (known = new Map()))
  if (known.has(url)) return known.get(url)
  const href = md.normalizeLink(url)
  const valid = md.validateLink(href) ? href : undefined
  if (known.size >= MAX_LINKS) known.clear()
  known.set(url, valid)
  return valid
}

/** markdown-it's inline tokens for `src`, when it has one of the shapes above; else undefined. */
export function quickInline(src: string, md: Parser): Token[] | undefined {
  if (PLAIN_TEXT.test(src)) return (src === '' ? [] : [tok('text', src)]) as unknown as Token[]
  const c = src.charCodeAt(0)
  let m: RegExpExecArray | null
  if (src.includes('*') && (m = EMPHASIS.exec(src))) {
    const strong = m[2].length === 2
    return around(m[1], m[4], tok(strong ? 'strong_open' : 'em_open', '', m[2]), tok('text', m[3]), tok(strong ? 'strong_close' : 'em_close', '', m[2]))
  }
  if (src.includes('`') && (m = CODE.exec(src))) {
    let content = m[2].includes('\n') ? m[2].replace(/\n/g, ' ') : m[2]
    if (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content)) content = content.slice(1, -1)
    return around(m[1], m[3], tok('code_inline', content, '`'))
  }
  if ((c === 91 || src.includes('[')) && (m = LINK.exec(src))) {
    const href = normalizedLink(md, m[3])
    if (href === undefined) return undefined
    return around(m[1], m[4], tok('link_open', '', '', href), tok('text', m[2]), tok('link_close'))
  }
  return undefined
}

type Align = 'left' | 'right' | 'center' | undefined

/** markdown-it's cap on cells a table may add to short rows (past it the table ends). */
const MAX_AUTOCOMPLETED_CELLS = 65_536

/**
 * A table block (the splitter's: no blank line) read as markdown-it's table
 * rule reads it, when every line starts with `|` (so no line is indented,
 * and none can start another block and end the table): the header's and
 * every row's cell contents (trimmed; `\|` unescaped; short rows filled,
 * long ones cut to the header's count) and the columns' alignments. Else
 * undefined: not a table, or not this simple shape.
 */
export function quickTable(source: string): {aligns: Align[]; rows: string[][]} | undefined {
  if (source.includes('\r') || source.includes('\u0000')) return undefined
  const lines = source.split('\n')
  if (lines.length < 2) return undefined
  for (const line of lines) if (line.charCodeAt(0) !== 124) return undefined
  // The delimiter row: `|` then only `|`, `-`, `:`, spaces and tabs.
  const delimiter = lines[1]
  if (delimiter.length < 2) return undefined
  for (let i = 1; i < delimiter.length; i++) {
    const c = delimiter.charCodeAt(i)
    if (c !== 124 && c !== 45 && c !== 58 && c !== 32 && c !== 9) return undefined
  }
  const parts = delimiter.split('|')
  const aligns: Align[] = []
  for (let i = 0; i < parts.length; i++) {
    const t = parts[i].trim()
    if (t === '') {
      if (i === 0 || i === parts.length - 1) continue
      return undefined
    }
    if (!/^:?-+:?$/.test(t)) return undefined
    aligns.push(t.endsWith(':') ? (t.startsWith(':') ? 'center' : 'right') : t.startsWith(':') ? 'left' : undefined)
  }
  const header = rowCells(lines[0].trim())
  if (header.length === 0 || header.length !== aligns.length) return undefined
  const rows = [header]
  let filled = 0
  for (let l = 2; l < lines.length; l++) {
    const cells = rowCells(lines[l].trim())
    filled += header.length - cells.length
    if (filled > MAX_AUTOCOMPLETED_CELLS) return undefined
    const row: string[] = []
    for (let k = 0; k < header.length; k++) row.push(cells[k] ? cells[k].trim() : '')
    rows.push(row)
  }
  rows[0] = header.map((c) => c.trim())
  return {aligns, rows}
}

/** A row's cells as markdown-it splits them: at pipes not after a backslash (`\|` → `|`), outer empty cells dropped. */
function rowCells(line: string): string[] {
  if (!line.includes('\\')) {
    // No escape: every pipe splits.
    const out = line.split('|')
    if (out[0] === '') out.shift()
    if (out.length > 0 && out[out.length - 1] === '') out.pop()
    return out
  }
  const out: string[] = []
  let current = ''
  let last = 0
  let escaped = false
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c === 124) {
      if (!escaped) {
        out.push(current + line.slice(last, i))
        current = ''
        last = i + 1
      } else {
        current += line.slice(last, i - 1)
        last = i
      }
    }
    escaped = c === 92
  }
  out.push(current + line.slice(last))
  if (out.length > 0 && out[0] === '') out.shift()
  if (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out
}
