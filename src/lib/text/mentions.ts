// `@PATH` mentions in a prompt's text (SPEC §19 "Mentions"), pure: where
// they are, and the one being typed at the cursor (for completion). A mention
// starts at `@` at the start of the text or after whitespace or an opening
// bracket or quote, so an e-mail address (`me@host`) is not one; `@` followed
// by a space, another `@` or the end is not one either. `@"a b.txt"` quotes a
// path with spaces. Nothing inside a fenced code block or an inline code
// span is a mention: code quotes decorators and handles.

export interface Mention {
  /** The path as written, without `@` or quotes. */
  path: string
  /** Offset of `@`. */
  start: number
  /** Offset just past the mention (and its closing quote). */
  end: number
  quoted: boolean
}

/** Characters that may come right before `@` for it to start a mention. */
const OPENERS = new Set(['(', '[', '{', '"', "'", '<', ','])
/** Punctuation that ends a sentence, not the path: `see @a.ts.` names `a.ts`. */
const TRAILING = /[.,;:!?)\]}'">]+$/

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c)

/** Ranges of the text that are code (fenced blocks, inline spans): no mention there. */
export function codeRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let fence: {char: string; len: number; start: number} | undefined
  let offset = 0
  for (const line of text.split('\n')) {
    const lineEnd = offset + line.length
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (fence) {
      if (m && m[1][0] === fence.char && m[1].length >= fence.len && line.trim() === m[1]) {
        out.push([fence.start, lineEnd])
        fence = undefined
      }
    } else if (m) {
      fence = {char: m[1][0], len: m[1].length, start: offset}
    } else {
      for (const span of line.matchAll(/(`+)[^`]*?\1/g)) out.push([offset + span.index, offset + span.index + span[0].length])
    }
    offset = lineEnd + 1
  }
  // An unclosed fence runs to the end, as markdown reads it.
  if (fence) out.push([fence.start, text.length])
  return out
}

function inCode(ranges: Array<[number, number]>, at: number): boolean {
  return ranges.some(([a, b]) => at >= a && at < b)
}

/** The mention starting at `i` (text[i] is `@`), or undefined. `partial`: the text may stop mid-mention (an unclosed quote is one). */
function mentionAt(text: string, i: number, partial: boolean): Mention | undefined {
  const before = i > 0 ? text[i - 1] : undefined
  if (before !== undefined && !isSpace(before) && !OPENERS.has(before)) return undefined
  const next = text[i + 1]
  if (next === undefined) return partial ? {path: '', start: i, end: i + 1, quoted: false} : undefined
  if (isSpace(next) || next === '@') return undefined
  if (next === '"') {
    const close = text.indexOf('"', i + 2)
    const nl = text.indexOf('\n', i + 2)
    if (close === -1 || (nl !== -1 && nl < close)) {
      if (!partial) return undefined
      const end = nl === -1 ? text.length : nl
      return {path: text.slice(i + 2, end), start: i, end, quoted: true}
    }
    const path = text.slice(i + 2, close)
    return path === '' ? undefined : {path, start: i, end: close + 1, quoted: true}
  }
  let end = i + 1
  while (end < text.length && !isSpace(text[end])) end++
  let path = text.slice(i + 1, end)
  if (!partial) {
    path = path.replace(TRAILING, '')
    if (path === '') return undefined
  }
  return {path, start: i, end: i + 1 + path.length, quoted: false}
}

/** Every mention of the text, in order (none inside code). */
export function findMentions(text: string): Mention[] {
  if (!text.includes('@')) return []
  const code = codeRanges(text)
  const out: Mention[] = []
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    if (inCode(code, i)) continue
    const m = mentionAt(text, i, false)
    if (m) {
      out.push(m)
      i = m.end - 1
    }
  }
  return out
}

/**
 * The mention the cursor is in or just after (what completion replaces), or
 * undefined. `path` is what is typed of it so far, up to the cursor.
 */
export function mentionAtCursor(text: string, cursor: number): Mention | undefined {
  // Only the cursor's line is looked at (a key in a large buffer stays cheap).
  const lineStart = cursor === 0 ? 0 : text.lastIndexOf('\n', cursor - 1) + 1
  const inLine = text.slice(lineStart, cursor).lastIndexOf('@')
  if (inLine === -1) return undefined
  const at = lineStart + inLine
  if (inCode(codeRanges(text), at)) return undefined
  const m = mentionAt(text, at, true)
  if (!m || cursor > m.end + (m.quoted ? 1 : 0)) return undefined
  // Unquoted: a space between `@` and the cursor ends it.
  if (!m.quoted && /\s/.test(text.slice(at + 1, cursor))) return undefined
  return {...m, path: text.slice(at + (m.quoted ? 2 : 1), Math.min(cursor, at + (m.quoted ? 2 : 1) + m.path.length))}
}

/** How an accepted path is written back: quoted when it holds a space or a quote-worthy character. */
export function mentionText(path: string): string {
  return /[\s"]/.test(path) ? `@"${path}"` : `@${path}`
}
