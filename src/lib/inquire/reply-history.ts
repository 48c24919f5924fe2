// Reply history (SPEC §6): Up on the first line walks earlier replies of the
// conversation, newest first; a reply cancelled with Ctrl+C is kept as the
// newest entry, so a cancelled draft is one keystroke away.

/**
 * The entries one conversation's reply prompts walk. `base` comes from the
 * conversation (earlier replies, oldest first); `record` adds what happened
 * in this process (submitted replies and cancelled drafts). Hold one per
 * conversation and pass it to every inline reply.
 */
export class ReplyHistory {
  private base: string[]
  private readonly recent: string[] = []

  constructor(base: readonly string[] = []) {
    this.base = [...base]
  }

  /** Replaces the conversation's entries (e.g. after reloading it); recorded ones stay. */
  setBase(base: readonly string[]): void {
    this.base = [...base]
  }

  /** Oldest first; blank entries and repeats of the entry before are dropped. */
  entries(): string[] {
    const out: string[] = []
    for (const e of [...this.base, ...this.recent.filter((r) => !this.base.includes(r))]) {
      if (e.trim() === '' || out.at(-1) === e) continue
      out.push(e)
    }
    // A recorded entry that was recorded again moves to the newest place.
    return out
  }

  /** Keeps `text` as the newest entry (blank text is not kept). */
  record(text: string): void {
    if (text.trim() === '') return
    const at = this.recent.indexOf(text)
    if (at !== -1) this.recent.splice(at, 1)
    this.recent.push(text)
  }
}

/**
 * One prompt's walk through history: index `entries.length` is the draft
 * being typed, kept aside while older entries are shown.
 */
export class HistoryWalk {
  private index: number
  private draft = ''

  constructor(private readonly items: readonly string[]) {
    this.index = items.length
  }

  /** The next older entry, or undefined at the oldest. */
  prev(current: string): string | undefined {
    if (this.index === 0) return undefined
    if (this.index === this.items.length) this.draft = current
    this.index--
    return this.items[this.index]
  }

  /** The entry shown now (entries.length: the draft). */
  get position(): number {
    return this.index
  }

  /** What Down comes back to after the newest entry (kept while older entries are shown). */
  get savedDraft(): string {
    return this.draft
  }

  /** Stands on entry `index` (a history search took it); `draft` is what Down comes back to. */
  jumpTo(index: number, draft: string): void {
    if (index < 0 || index >= this.items.length) return
    if (this.index === this.items.length) this.draft = draft
    this.index = index
  }

  /** The next newer entry (the draft after the newest), or undefined at the draft. */
  next(): string | undefined {
    if (this.index >= this.items.length) return undefined
    this.index++
    return this.index === this.items.length ? this.draft : this.items[this.index]
  }
}
