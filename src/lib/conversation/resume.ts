// The rows of the resume picker (`jp conversation use` with no ID on a
// terminal, `jp query --resume`): every conversation, most recent first,
// filtered by a fuzzy match on its title and id. A row reads
// `TITLE · AGE · N turns · FIRST LINE OF THE LAST QUERY`; the turns and the
// last query need the events, so they are read only for the rows a filter
// puts on screen (cached), never for all of them up front.
import {sanitizeUntrusted} from '../text/untrusted.js'
import {userQueries} from './events.js'
import {loadEventsSync} from './journal.js'
import type {ConversationStore, ConversationSummary} from './store.js'
import {turnCount} from './turns.js'
import {localeOrder} from '../text/collate.js'

/** A subsequence match of `term` in `text` (case-insensitive): a score, lower is better; undefined when no match. */
export function fuzzyScore(term: string, text: string): number | undefined {
  if (term === '') return 0
  const t = text.toLowerCase()
  const q = term.toLowerCase()
  let at = 0
  let gaps = 0
  let first = -1
  for (const ch of q) {
    const found = t.indexOf(ch, at)
    if (found === -1) return undefined
    if (first === -1) first = found
    else gaps += found - at
    at = found + 1
  }
  return gaps * 2 + first
}

/** "5m", "3h", "2d" since `iso`. */
export function age(iso: string | undefined, now = Date.now()): string {
  const t = iso ? Date.parse(iso) : NaN
  if (Number.isNaN(t)) return '-'
  const s = Math.max(0, (now - t) / 1000)
  if (s < 60) return 'now'
  if (s < 3600) return `${Math.floor(s / 60)}m`
  if (s < 86400) return `${Math.floor(s / 3600)}h`
  return `${Math.floor(s / 86400)}d`
}

export interface ResumeRows {
  /** The rows matching `term`, best first: value = id, name = the row's text. */
  source(term: string): Array<{value: string; name: string}>
}

/** How many of a filter's rows get their details read (the page and a little scrolling): each is a conversation's events parsed. */
const DETAILED = 12

/**
 * How many rows a filter offers at most, best first: the list draws 7, and
 * the prompt wraps and lays out every row it is given, so 5,000 would cost
 * the picker its opening time. Further conversations are found by typing.
 */
export const MAX_ROWS = 100

export async function resumeRows(store: ConversationStore, width: number): Promise<ResumeRows> {
  const list = (await store.listIndexed()).filter((c) => !c.error)
  const recency = (s: ConversationSummary) => s.last_activated_at ?? s.created_at ?? ''
  // The listing puts pinned conversations first, then by recency: without one pinned, it is already this order.
  if (list.some((c) => c.pinned_at)) list.sort((a, b) => localeOrder(recency(b), recency(a)))
  const details = new Map<string, string>()
  const detail = (c: ConversationSummary): string => {
    let d = details.get(c.id)
    if (d === undefined) {
      try {
        const p = store.paths(c.id)
        const {events} = loadEventsSync(p.events, p.eventsLog)
        const last = userQueries(events).at(-1)?.split('\n').find((l) => l.trim() !== '') ?? ''
        const turns = turnCount(events)
        d = ` · ${turns} turn${turns === 1 ? '' : 's'}${last ? ` · ${last.trim()}` : ''}`
      } catch {
        d = ' · (unreadable)'
      }
      details.set(c.id, d)
    }
    return d
  }
  const row = (c: ConversationSummary, withDetail: boolean) => {
    const text = sanitizeUntrusted(`${c.title ?? '(untitled)'} · ${age(recency(c))}${withDetail ? detail(c) : ''}`)
    // One terminal row each: the list never wraps.
    return text.length > width ? text.slice(0, Math.max(1, width - 1)) + '…' : text
  }
  return {
    source(term) {
      // Nothing typed: every row scores 0, so the order is the list's (the opening list, without scoring 5,000 rows).
      const best = term === '' ? list.slice(0, MAX_ROWS) : bestMatches(list, term)
      return best.map((c, i) => ({value: c.id, name: row(c, i < DETAILED)}))
    },
  }
}

/** The MAX_ROWS best fuzzy matches of `term` in `list`, best first, ties in list order. */
function bestMatches(list: readonly ConversationSummary[], term: string): ConversationSummary[] {
  const scored: Array<[number, number, ConversationSummary]> = []
  for (const [i, c] of list.entries()) {
    const score = fuzzyScore(term, `${c.title ?? ''} ${c.id}`)
    if (score !== undefined) scored.push([score, i, c])
  }
  scored.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  return scored.slice(0, MAX_ROWS).map(([, , c]) => c)
}
