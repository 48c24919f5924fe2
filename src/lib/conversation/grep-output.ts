// How `jp conversation grep` prints what it found: `ID  TITLE`, then each
// matching line as `  TURN ROLE: TEXT`, a blank line between conversations;
// with --format json one object per matching line. On a terminal the stored
// text is sanitized piece by piece (so the match ranges still fit) and each
// match is highlighted; a pipe gets the stored text as it is.
import {MATCH_OFF, MATCH_ON} from '../terminal/sequences.js'
import {sanitizeUntrusted, untrustedJson} from '../text/untrusted.js'
import type {GrepHit, GrepLine} from './search.js'

export interface GrepOutputOptions {
  /** stdout is a terminal: sanitize. */
  tty: boolean
  /** Highlight matches (a terminal with colour). */
  color: boolean
}

/** `text` with its match ranges highlighted, every piece sanitized for the terminal. */
export function highlighted(text: string, matches: ReadonlyArray<[number, number]>, opts: GrepOutputOptions): string {
  if (!opts.tty) return text
  let out = ''
  let at = 0
  for (const [start, end] of matches) {
    out += sanitizeUntrusted(text.slice(at, start))
    const hit = sanitizeUntrusted(text.slice(start, end))
    out += opts.color ? MATCH_ON + hit + MATCH_OFF : hit
    at = end
  }
  return out + sanitizeUntrusted(text.slice(at))
}

function lineText(l: GrepLine, opts: GrepOutputOptions): string {
  const where = l.turn === null ? 'title' : `${l.turn} ${l.role}`
  return `  ${where}: ${highlighted(l.text, l.matches, opts)}`
}

/** The text block of one conversation (no trailing newline). */
export function hitText(hit: GrepHit, first: boolean, opts: GrepOutputOptions): string {
  const title = hit.title ?? '(untitled)'
  const head = `${opts.tty ? sanitizeUntrusted(hit.id) : hit.id}  ${opts.tty ? sanitizeUntrusted(title) : title}`
  return [...(first ? [] : ['']), head, ...hit.lines.map((l) => lineText(l, opts))].join('\n')
}

/** NDJSON: one object per matching line. */
export function hitJson(hit: GrepHit): string {
  return hit.lines.map((l) => untrustedJson({id: hit.id, title: hit.title ?? null, turn: l.turn, role: l.role, text: l.text, matches: l.matches})).join('\n')
}
