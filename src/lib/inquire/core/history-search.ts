// Reverse incremental history search, as GNU readline's Ctrl+R (pure).
// Checked case by case against bash's own readline
// (test/inquire/core/history-search-parity.test.ts and its fixture), so the
// quirks are readline's too:
// - the search starts in the buffer being edited, at the cursor, then walks
//   the entries older than the one Up/Down stand on (after a search, the
//   match: a second Ctrl+R goes on from there); within an entry it looks
//   right to left, so Ctrl+R again first finds an earlier occurrence in the
//   same entry;
// - an entry equal to the last match is skipped (no repeated matches);
// - Backspace shortens the search text and searches again from the current
//   match (it does not go back to where the shorter text matched first);
//   shortened to nothing, the search shows as failed;
// - a failed search keeps showing the last match; typing more keeps failing;
// - Ctrl+R with no search text reuses the text of the previous search that
//   ended normally (not one that was aborted);
// - Ctrl+W adds the word after the match to the search text, Ctrl+Y the rest
//   of the line.
// Ending: accept() is readline's normal end (the match goes into the buffer,
// the cursor where the search left it), abort() gives back the buffer and
// cursor untouched (Ctrl+G; jp also aborts on Esc and Ctrl+C, see the
// prompt).

/** Process-wide, like readline's: the text of the last search that ended normally. */
export interface SearchMemory {
  last?: string
}

const processMemory: SearchMemory = {}

/** Letters and digits (what readline's yank-word takes). */
const WORD_CHAR = /[\p{L}\p{N}]/u

export class ReverseSearch {
  /** Entries oldest first, then the buffer being edited (the search's starting line). */
  private readonly lines: string[]
  /** Index of the buffer in `lines`. */
  private home: number
  private readonly homePoint: number
  private query = ''
  private isFailed = false
  /** The entry being scanned and where in it. */
  private pos: number
  private scanned: string
  private at: number
  private lastFound: number
  private prevFound: string | undefined
  /** What is shown: the last match (or the buffer) and the cursor in it. */
  private shownLine: string
  private shownPoint: number

  private readonly memory: SearchMemory

  /**
   * `entries` oldest first. `at` is the entry Up/Down stand on (default: none,
   * the draft after the newest); the buffer on show takes its place, and
   * `draft` (what Down comes back to) the place after the newest.
   */
  constructor(entries: readonly string[], buffer: string, cursor: number, opts: {at?: number; draft?: string; memory?: SearchMemory} = {}) {
    this.memory = opts.memory ?? processMemory
    const at = opts.at !== undefined && opts.at >= 0 && opts.at < entries.length ? opts.at : entries.length
    this.lines = [...entries, at === entries.length ? buffer : (opts.draft ?? '')]
    this.lines[at] = buffer
    this.home = at
    this.homePoint = cursor
    this.pos = this.home
    this.lastFound = this.home
    this.scanned = buffer
    this.at = cursor
    this.shownLine = buffer
    this.shownPoint = cursor
  }

  /** The text searched for. */
  get text(): string {
    return this.query
  }

  get failed(): boolean {
    return this.isFailed
  }

  /** The line on show: the current match, or the buffer before anything matched. */
  get line(): string {
    return this.shownLine
  }

  /** The cursor in `line`: where the match starts. */
  get point(): number {
    return this.shownPoint
  }

  /** readline's prompt while searching, without the space before the line: "(reverse-i-search)`TEXT':". */
  get prompt(): string {
    return `(${this.isFailed ? 'failed ' : ''}reverse-i-search)\`${this.query}':`
  }

  /**
   * Older entries that arrived after the search began (the workspace's other
   * conversations load in the background): they go before every entry, and
   * the next Ctrl+R past the oldest reaches them.
   */
  prepend(entries: readonly string[]): void {
    if (entries.length === 0) return
    this.lines.unshift(...entries)
    this.home += entries.length
    this.pos += entries.length
    this.lastFound += entries.length
    // A search that ran out of entries goes on into the new ones, as a
    // Ctrl+R would (the failed place itself matched nothing new).
    if (this.isFailed && this.query !== '') this.older()
  }

  /** A typed (or pasted) character: search for the longer text. */
  type(text: string): void {
    this.query += text
    this.search()
  }

  /** Ctrl+R again: the next older match (or, with no text yet, the last search's text). */
  older(): void {
    if (this.query === '') {
      if (this.memory.last === undefined || this.memory.last === '') return
      this.query = this.memory.last
    } else if (this.at >= 0) {
      this.at--
    }
    this.search()
  }

  /** Backspace: one character less, searched again from the current match. */
  backspace(): void {
    if (this.query !== '') this.query = this.query.slice(0, this.query.length - lastCodePointLength(this.query))
    this.search()
  }

  /** Ctrl+W: the word after the match joins the search text. */
  yankWord(): void {
    const start = this.shownPoint + this.query.length
    const line = this.shownLine
    if (start < line.length && WORD_CHAR.test(codePointAt(line, start))) {
      let end = start
      while (end < line.length && WORD_CHAR.test(codePointAt(line, end))) end += codePointAt(line, end).length
      this.query += line.slice(start, end)
    }
    this.search()
  }

  /** Ctrl+Y: the rest of the line after the match joins the search text. */
  yankLine(): void {
    const start = this.shownPoint + this.query.length
    if (start < this.shownLine.length) this.query += this.shownLine.slice(start)
    this.search()
  }

  /**
   * The normal end (any key that is not part of the search): the last match
   * and the cursor where the search left it. Remembered for the next Ctrl+R.
   */
  accept(): {text: string; cursor: number} {
    this.memory.last = this.query
    const text = this.lines[this.lastFound]
    let cursor = this.at
    if (cursor < 0) cursor = this.lastFound === this.home ? this.homePoint : text.length
    return {text, cursor: Math.max(0, Math.min(cursor, text.length))}
  }

  /** Ctrl+G: the buffer and cursor as they were before the search. */
  abort(): {text: string; cursor: number} {
    return {text: this.lines[this.home], cursor: this.homePoint}
  }

  /** Index in the entries (oldest first) of the last match; undefined when it is the buffer itself. */
  get matchIndex(): number | undefined {
    return this.lastFound === this.home ? undefined : this.lastFound
  }

  private search(): void {
    this.isFailed = false
    let found = false
    const q = this.query
    for (;;) {
      if (q === '') {
        this.isFailed = true
        break
      }
      // Right to left through the entry being scanned.
      while (this.at >= 0) {
        if (this.scanned.startsWith(q, this.at)) {
          found = true
          break
        }
        this.at--
        if (this.at < 0) {
          this.at = 0
          break
        }
      }
      if (found) break
      // Then older entries, skipping the last match and entries too short to hold the text.
      do {
        this.pos--
        if (this.pos < 0) {
          this.isFailed = true
          break
        }
        this.scanned = this.lines[this.pos]
      } while ((this.prevFound !== undefined && this.scanned === this.prevFound) || q.length > this.scanned.length)
      if (this.isFailed) {
        if (this.at < 0) this.at = 0
        break
      }
      this.at = this.scanned.length - q.length
    }
    if (this.isFailed) {
      this.pos = this.lastFound
      return
    }
    this.prevFound = this.lines[this.pos]
    this.shownLine = this.lines[this.pos]
    this.shownPoint = this.at
    this.lastFound = this.pos
  }
}

function codePointAt(s: string, i: number): string {
  return String.fromCodePoint(s.codePointAt(i)!)
}

function lastCodePointLength(s: string): number {
  const code = s.charCodeAt(s.length - 1)
  return code >= 0xdc00 && code <= 0xdfff && s.length >= 2 ? 2 : 1
}
