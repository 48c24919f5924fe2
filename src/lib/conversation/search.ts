// `jp conversation grep`: every line of every conversation of a workspace
// that matches a pattern — queries and attached files (user), answers and
// reasoning (assistant), tool calls and their results (tool), and titles —
// newest conversation first. No conversation is written and no lock is
// taken (a conversation being written is read as it stands; its journal,
// events.log, is replayed as `load` would); only the listing's summary
// index beside them may be refreshed (summary-index.ts).
import {lstatSync} from 'node:fs'
import type {ConversationEvent} from './events.js'
import {readBytesSync} from './files.js'
import {loadEventsSync} from './journal.js'
import type {ConversationStore, ConversationSummary} from './store.js'
import {turnNumbers} from './turns.js'
import {localeOrder} from '../text/collate.js'

export type GrepRole = 'user' | 'assistant' | 'tool'

export interface GrepQuery {
  pattern: string
  /** PATTERN is a JavaScript regular expression (else a literal string). */
  regex?: boolean
  ignoreCase?: boolean
  /** Only lines of this role (titles are then not searched). */
  role?: GrepRole
}

/** One matching line: where it is and which parts of it match ([start, end) in `text`). */
export interface GrepLine {
  /** null for the title. */
  turn: number | null
  role: GrepRole | 'title'
  text: string
  matches: Array<[number, number]>
}

export interface GrepHit {
  id: string
  title?: string
  lines: GrepLine[]
}

/** A PATTERN that is not a valid regular expression. */
export class PatternError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PatternError'
  }
}

export function isPatternError(e: unknown): e is PatternError {
  return e instanceof Error && e.name === 'PatternError'
}

export type LineMatcher = (line: string) => Array<[number, number]> | undefined

/** The matcher of a query: a line's match ranges, or undefined when it does not match. */
export function compileMatcher(q: GrepQuery): LineMatcher {
  const source = q.regex ? q.pattern : q.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  let re: RegExp
  try {
    re = new RegExp(source, q.ignoreCase ? 'gi' : 'g')
  } catch (e) {
    throw new PatternError(`PATTERN is not a valid regular expression: ${(e as Error).message}`)
  }
  return (line) => {
    re.lastIndex = 0
    if (!re.test(line)) return undefined
    re.lastIndex = 0
    const out: Array<[number, number]> = []
    for (let m = re.exec(line); m; m = re.exec(line)) {
      if (m[0].length === 0) {
        re.lastIndex++ // an empty match (`^`, `x*`) matches the line but highlights nothing
        if (re.lastIndex > line.length) break
        continue
      }
      out.push([m.index, m.index + m[0].length])
    }
    return out
  }
}

/**
 * A test on a conversation's raw files that no match can pass unseen, so
 * most files are never parsed: for a literal ASCII pattern free of what JSON
 * escapes or puts between values (quotes, backslashes, brackets, colons,
 * commas, control characters, an outer space), every match lies inside one
 * stored string and so appears as is in the file jp wrote. Undefined: every
 * file is parsed (a regex, other characters).
 */
export function rawPrefilter(q: GrepQuery): ((raw: Buffer) => boolean) | undefined {
  if (q.regex || q.pattern === '' || !/^[\x20-\x7e]+$/.test(q.pattern) || /["\\{}[\]:,]/.test(q.pattern) || q.pattern.trim() !== q.pattern) return undefined
  // On the bytes, never decoded: an ASCII pattern's bytes appear in UTF-8 text only as those characters.
  if (!q.ignoreCase) {
    const bytes = Buffer.from(q.pattern, 'latin1')
    return (raw) => raw.indexOf(bytes) !== -1
  }
  // Latin-1 decoding is one char per byte and lowercasing never turns a byte
  // of 0x80 or more into ASCII, so an ASCII pattern is found exactly where a
  // case-insensitive (non-unicode) regex finds it in the decoded text.
  const lower = q.pattern.toLowerCase()
  return (raw) => raw.toString('latin1').toLowerCase().includes(lower)
}

/** The searchable texts of one event and their role; other events (usage, config) hold nothing to find. */
function eventTexts(e: ConversationEvent): Array<[GrepRole, string]> {
  const ev = e as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' ? [v] : [])
  switch (e.type) {
    case 'chat_request':
      return str(ev.content).map((t) => ['user', t])
    case 'attachment':
      return [...str(ev.path), ...str(ev.content)].map((t) => ['user', t])
    case 'chat_response':
      return [...str(ev.message), ...str(ev.reasoning)].map((t) => ['assistant', t])
    case 'tool_call_request':
      return [['tool', `${String(ev.name)} ${JSON.stringify(ev.arguments)}`]]
    case 'tool_call_response':
      return str(ev.content).map((t) => ['tool', t])
    default:
      return []
  }
}

/** The matching lines of a conversation's events, in order. */
export function grepEvents(events: readonly ConversationEvent[], match: LineMatcher, role?: GrepRole): GrepLine[] {
  const turns = turnNumbers(events)
  const out: GrepLine[] = []
  for (const [i, e] of events.entries()) {
    for (const [r, text] of eventTexts(e)) {
      if (role && r !== role) continue
      for (const line of text.split('\n')) {
        const matches = match(line)
        if (matches) out.push({turn: turns[i], role: r, text: line, matches})
      }
    }
  }
  return out
}

/** Most recently active first; pins do not matter to a search. */
function byRecency(list: ConversationSummary[]): ConversationSummary[] {
  const recency = (s: ConversationSummary) => s.last_activated_at ?? s.created_at ?? ''
  return [...list].sort((a, b) => localeOrder(recency(b), recency(a)) || b.id.localeCompare(a.id, undefined, {numeric: true}))
}

/** How many conversations are read at once. */
const PARALLEL = 32

/**
 * Searches every conversation of the store's workspace, newest first, and
 * calls `onHit` for each that matches, in that order. A conversation that
 * cannot be read is reported to `onError` (one line, naming its file) and
 * skipped. Returns how many conversations matched.
 */
export async function grepConversations(
  store: ConversationStore,
  q: GrepQuery,
  onHit: (hit: GrepHit) => void,
  onError: (message: string) => void,
): Promise<number> {
  const match = compileMatcher(q)
  const scan: Scan = {match, role: q.role, prefilter: rawPrefilter(q)}
  // The summary index, checked against each metadata.json's lstat: a hand edit is seen, at a fraction of reading them all.
  const list = byRecency(await store.listIndexed({verify: true}))
  let hits = 0
  for (let at = 0; at < list.length; at += PARALLEL) {
    const batch = list.slice(at, at + PARALLEL)
    const results = await Promise.all(batch.map((c) => grepOne(store, c, scan).catch((e: Error) => e)))
    for (const r of results) {
      if (r instanceof Error) onError(r.message)
      else if (r) {
        hits++
        onHit(r)
      }
    }
  }
  return hits
}

interface Scan {
  match: LineMatcher
  role?: GrepRole
  prefilter?: (raw: Buffer) => boolean
}

async function grepOne(store: ConversationStore, c: ConversationSummary, {match, role, prefilter}: Scan): Promise<GrepHit | undefined> {
  if (c.error) throw new Error(c.error)
  const p = store.paths(c.id)
  const titleHit = !role && c.title !== undefined && match(c.title) !== undefined
  if (prefilter && !titleHit && !rawMayMatch(p.events, p.eventsLog, prefilter)) return undefined
  const {events} = loadEventsSync(p.events, p.eventsLog)
  const lines = grepEvents(events, match, role)
  const titleMatches = !role && c.title !== undefined ? match(c.title) : undefined
  if (titleMatches) lines.unshift({turn: null, role: 'title', text: c.title!, matches: titleMatches})
  return lines.length > 0 ? {id: c.id, title: c.title, lines} : undefined
}

/** Whether the events' files (events.json and its journal) may hold a match. */
function rawMayMatch(events: string, log: string, prefilter: (raw: Buffer) => boolean): boolean {
  const raw = readBytesSync(events)
  if (raw && prefilter(raw)) return true
  // Most conversations have no journal: asked without opening it (a failed open throws, and 5,000 throws cost).
  if (!lstatSync(log, {throwIfNoEntry: false})) return false
  const journal = readBytesSync(log)
  return journal !== undefined && prefilter(journal)
}
