// Pure: ranking workspace paths against what is typed after `@` (SPEC §19).
// A path matches when the query's characters appear in it in order (case
// ignored); matches at the start of a path segment or a word, runs of
// consecutive characters and matches in the file's own name weigh more,
// shorter paths win ties, and a boost (recently mentioned, modified in git)
// lifts a path above the rest. Narrowing (the query grows by a key) filters
// the matches of the longest earlier query it extends instead of the whole
// list, and a query seen before (Backspace) starts from its own matches.

export interface RankedList {
  /** The best paths, best first. */
  paths: string[]
  /** How many paths matched in all. */
  total: number
}

/** A candidate with its lower-cased path (made once per index). */
export interface Candidate {
  path: string
  lower: string
  /** Where the file's name starts (after the last `/`). */
  base: number
  /** Added to the score: recently mentioned, modified (raised in place when a path is taken). */
  boost: number
  /** Which of a–z, 0–9 and a few others the path holds (`charMask`): a quick reject before the walk. */
  mask: number
}

/** One bit per letter, digit group and common punctuation: a query's bits must all be in a path's. */
export function charMask(lower: string): number {
  let m = 0
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i)
    if (c >= 97 && c <= 122) m |= 1 << (c - 97)
    else if (c >= 48 && c <= 57) m |= 1 << 26
    else if (c === 46) m |= 1 << 27
    else if (c === 47) m |= 1 << 28
    else if (c === 95 || c === 45) m |= 1 << 29
  }
  return m
}

export function candidate(path: string, boost = 0): Candidate {
  const lower = path.toLowerCase()
  return {path, lower, base: path.lastIndexOf('/') + 1, boost, mask: charMask(lower)}
}

/** Whether `c` at `i` starts a segment or a word: after a separator (`/._- `), or an upper-case letter after a lower-case one. */
function wordStart(path: string, i: number): boolean {
  if (i === 0) return true
  // Char codes, not strings: this runs for every matched character of tens of thousands of paths per key.
  const prev = path.charCodeAt(i - 1)
  if (prev === 47 || prev === 46 || prev === 95 || prev === 45 || prev === 32) return true
  const c = path.charCodeAt(i)
  return c >= 65 && c <= 90 && prev >= 97 && prev <= 122
}

/** The score of `c` for the lower-cased query `q`, or NO_MATCH when the query is not a subsequence of its path. */
export const NO_MATCH = -Infinity

export function score(c: Candidate, q: string, tail = '/' + q): number {
  if (q === '') return c.boost - c.path.length * 0.01
  const {lower, path} = c
  // Scored from the right: the query's end is anchored as late as it goes,
  // so `@ma` prefers `src/main.ts`'s name to a directory `ma…` earlier. The
  // greedy walk from the right is also the subsequence test (it finds a
  // match whenever there is one), so no walk from the left comes first.
  let s = 0
  let last = lower.length
  let run = 0
  let inBase = true
  for (let k = q.length - 1; k >= 0; k--) {
    const at = lower.lastIndexOf(q[k], last - 1)
    if (at === -1) return NO_MATCH
    s += 1
    if (wordStart(path, at)) s += 8
    if (at === last - 1) {
      run++
      s += 3 + run
    } else run = 0
    if (at < c.base) inBase = false
    last = at
  }
  if (inBase) s += 10
  if (lower.startsWith(q, c.base)) s += 15
  if (lower === q || lower.endsWith(tail)) s += 20
  return s + c.boost - path.length * 0.01
}

/**
 * The most `score` can give `c` for a one-letter query: the letter (1), a
 * word start (8), a run at the path's end (4), in the file name (10), the
 * name's first letter (15), the whole name (20), the boost, the length.
 */
function letterBound(c: Candidate, letter: number): number {
  const first = c.lower.charCodeAt(c.base) === letter
  const whole = first && c.lower.length === c.base + 1
  return 23 + (first ? 15 : 0) + (whole ? 20 : 0) + c.boost - c.path.length * 0.01
}

/** Keeps the `limit` best (score, candidate) pairs, best first. */
class Best {
  readonly items: Array<{s: number; c: Candidate}> = []
  constructor(private readonly limit: number) {}
  /** The score a candidate must beat to get in (NO_MATCH while there is room). */
  get bar(): number {
    return this.items.length === this.limit ? this.items[this.items.length - 1].s : NO_MATCH
  }

  add(s: number, c: Candidate): void {
    const items = this.items
    if (items.length === this.limit && s <= items[items.length - 1].s) return
    let i = items.length
    while (i > 0 && items[i - 1].s < s) i--
    items.splice(i, 0, {s, c})
    if (items.length > this.limit) items.pop()
  }
}

/**
 * A matcher over one list of candidates that remembers its last query:
 * a query that extends it is matched against the last matches only.
 */
export class PathMatcher {
  /** Recent queries' matches: a query starts from the longest one it extends (Backspace finds its own). */
  private readonly memo = new Map<string, Candidate[]>()

  constructor(private readonly candidates: readonly Candidate[]) {}

  get size(): number {
    return this.candidates.length
  }

  /** Raises a path's boost to at least `to` (a path just taken ranks first from now on). */
  lift(path: string, to: number): void {
    const c = this.candidates.find((x) => x.path === path)
    if (c && c.boost < to) c.boost = to
  }

  rank(query: string, limit: number): RankedList {
    const q = query.toLowerCase()
    const known = this.memo.get(q)
    if (known) return this.best(known, q, limit)
    let pool: readonly Candidate[] = this.candidates
    for (let n = q.length - 1; n >= 0; n--) {
      const hit = this.memo.get(q.slice(0, n))
      if (hit) {
        pool = hit
        break
      }
    }
    const matched: Candidate[] = []
    const best = new Best(limit)
    const mask = charMask(q)
    const tail = '/' + q
    // A one-letter query (the first key of a mention, over every file): its
    // mask bit is the match test, and most paths cannot reach the list.
    const letter = q.length === 1 && q >= 'a' && q <= 'z' ? q.charCodeAt(0) : -1
    for (const c of pool) {
      if ((c.mask & mask) !== mask) continue
      if (letter !== -1) {
        matched.push(c)
        if (letterBound(c, letter) > best.bar) best.add(score(c, q, tail), c)
        continue
      }
      const s = score(c, q, tail)
      if (s === NO_MATCH) continue
      matched.push(c)
      best.add(s, c)
    }
    this.remember(q, matched)
    return {paths: best.items.map((x) => x.c.path), total: matched.length}
  }

  /** The best of matches already known (scores again: they are few once narrowed). */
  private best(matched: readonly Candidate[], q: string, limit: number): RankedList {
    const best = new Best(limit)
    const tail = '/' + q
    for (const c of matched) best.add(score(c, q, tail), c)
    return {paths: best.items.map((x) => x.c.path), total: matched.length}
  }

  private remember(q: string, matched: Candidate[]): void {
    if (this.memo.size >= 32) this.memo.delete(this.memo.keys().next().value!)
    this.memo.set(q, matched)
  }
}
