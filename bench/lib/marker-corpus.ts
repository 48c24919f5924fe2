// The code- and table-heavy answer (bench/lib/code-heavy.ts) with a unique
// marker word (`zq00042`) before every Nth word, cut into model-sized
// tokens, for the render-latency bench: the time a marker's token is written
// to the socket and the time its text shows on the pty give one token's
// latency. Markers go only where a word is preceded by one space after a
// non-space (never in a line's indentation, a fence line or a table's
// delimiter row), so the answer keeps its structure: its code stays code,
// its tables tables. Each marker is tagged with the kind of line it sits
// in, since the renderer streams prose word by word, code line by line, lists
// item by item, tables row by row (live, issue 40) and headings when their
// last line is known.
import {codeHeavyAnswer} from './code-heavy.js'

export type LineKind = 'prose' | 'code' | 'table' | 'heading' | 'list'

export interface MarkedAnswer {
  /** The answer cut into tokens; a marker is a token of its own (` zq00042`). */
  tokens: string[]
  /** For each token, the marker id it carries, or -1. */
  markerOf: Int32Array
  /** The kind of line each marker sits in, by marker id. */
  kinds: LineKind[]
  /** For each marker id, the index of the token that ends its line (the first at or after it holding a newline). */
  lineEndOf: Int32Array
}

const MARKER = /zq(\d{5})/g
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/
const FENCE = /^\s*(```|~~~)/

export function markerWord(id: number): string {
  return `zq${String(id).padStart(5, '0')}`
}

/** Every marker id found in `text` (markers are `zq` and five digits). */
export function markerIds(text: string): number[] {
  return [...text.matchAll(MARKER)].map((m) => Number(m[1]))
}

function kindOf(line: string, inFence: boolean): LineKind {
  if (inFence || line.startsWith('    ')) return 'code'
  if (line.trimStart().startsWith('|')) return 'table'
  if (line.startsWith('#')) return 'heading'
  if (/^ {0,3}([-*+]|\d{1,9}[.)])[ \t]/.test(line)) return 'list'
  return 'prose'
}

/** `answer` with a marker before every `every`th eligible word, and the kind of each marker's line. */
export function insertMarkers(answer: string, every: number): {text: string; kinds: LineKind[]} {
  const kinds: LineKind[] = []
  let inFence = false
  let words = 0
  const lines = answer.split('\n').map((line) => {
    if (FENCE.test(line)) {
      inFence = !inFence
      return line
    }
    if (DELIMITER_ROW.test(line) && line.includes('-')) return line
    const kind = kindOf(line, inFence)
    let out = ''
    let from = 0
    for (let j = 2; j < line.length; j++) {
      if (line[j - 1] !== ' ' || /\s/.test(line[j - 2]) || /\s/.test(line[j])) continue
      if (++words % every !== 0) continue
      out += line.slice(from, j) + markerWord(kinds.length) + ' '
      kinds.push(kind)
      from = j
    }
    return out + line.slice(from)
  })
  return {text: lines.join('\n'), kinds}
}

/** Tokens of about four characters, a leading space kept with its word (as a model's tokenizer cuts text); a marker is one token. */
export function tokenize(text: string): string[] {
  return text.match(/ ?zq\d{5}| ?[^\s]{1,4}|\s+/g) ?? []
}

/** The code- and table-heavy answer of about `bytes`, markers every `every` words, cut into tokens. */
export function markedAnswer(bytes: number, every: number): MarkedAnswer {
  const {text, kinds} = insertMarkers(codeHeavyAnswer(bytes), every)
  const tokens = tokenize(text)
  if (tokens.join('') !== text) throw new Error('the tokens do not add up to the answer')
  const markerOf = new Int32Array(tokens.length).fill(-1)
  tokens.forEach((t, i) => {
    const ids = markerIds(t)
    if (ids.length === 1) markerOf[i] = ids[0]
  })
  const lineEndOf = new Int32Array(kinds.length)
  for (let i = tokens.length - 1, end = tokens.length - 1; i >= 0; i--) {
    if (tokens[i].includes('\n')) end = i
    if (markerOf[i] >= 0) lineEndOf[markerOf[i]] = end
  }
  return {tokens, markerOf, kinds, lineEndOf}
}
