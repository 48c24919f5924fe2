// The queued reply's slot on disk (SPEC §18, JP D46 "The draft file is the
// slot"): the conversation's draft, QUERY_MESSAGE.md, holds the queued text
// from the moment it is queued, so a crash, `s`, `a`, a provider error or a
// shutdown leave it there and the next bare `jp query` starts with it. The
// in-memory text is a cache over the file.
//
// The draft may hold other things than the slot, and none is lost: its TOML
// block stays as it is; text the user left there from an earlier run (not
// this run's query) is kept above the queued reply; and a query this run
// could not get answered goes back in front of it.
import {rm} from 'node:fs/promises'
import {dirname} from 'node:path'
import {ensurePrivateDir, writeFileDurably} from '../conversation/files.js'
import type {ReplySlot} from '../interrupt/queue-prompt.js'
import {readQueryDraft} from './draft.js'
import {buildQueryDocument} from './document.js'

export class QueuedReplyDraft implements ReplySlot {
  private queued: string | undefined
  /** The queued reply being sent as the run's current turn (the draft keeps it until that turn ends well). */
  private sending: string | undefined
  /** Told what is queued whenever that changes (undefined: nothing): the queued reply's line follows it. */
  onChange: ((text: string | undefined) => void) | undefined

  /**
   * `kept`: query text already in the draft that is not this run's query (a
   * draft an earlier run left): it stays in front of whatever is queued.
   */
  private constructor(
    readonly path: string,
    private kept: string | undefined,
  ) {}

  /** The slot over the draft at `path`; `query` is the run's first query (a draft holding it is this run's own). */
  static async open(path: string, query: string): Promise<QueuedReplyDraft> {
    const draft = await readQueryDraft(path).catch(() => undefined)
    const other = draft !== undefined && draft.query !== '' && draft.query !== query.trim() ? draft.query : undefined
    return new QueuedReplyDraft(path, other)
  }

  get text(): string | undefined {
    return this.queued
  }

  set(text: string): Promise<void> {
    return this.replace(text)
  }

  clear(): Promise<void> {
    return this.replace(undefined)
  }

  /** Holds `text` (or nothing) and writes it through; a failed write puts back what was held, unless another change came since. */
  private async replace(text: string | undefined): Promise<void> {
    const before = this.queued
    this.queued = text
    try {
      await this.write(() => this.queued)
    } catch (error) {
      if (this.queued === text) this.queued = before
      throw error
    }
    this.onChange?.(text)
  }

  /** The queued reply is sent as the next turn: the slot is empty again, the draft keeps the text until that turn ends well. */
  take(): string {
    const text = this.queued
    if (text === undefined) throw new Error('no queued reply to send')
    this.queued = undefined
    this.sending = text
    this.onChange?.(undefined)
    return text
  }

  /**
   * Next-step delivery (SPEC §19): the queued reply leaves the slot at once
   * (so nothing sends it twice); the draft keeps it until `delivered`.
   */
  takeForStep(): string | undefined {
    const text = this.queued
    this.queued = undefined
    if (text !== undefined) this.onChange?.(undefined)
    return text
  }

  /** The reply taken for a step is stored in the conversation: the draft keeps only what is still queued (or being sent). */
  async delivered(): Promise<void> {
    await this.write(() => this.queued ?? this.sending)
  }

  /** A reply delivered at a step whose turn was discarded (`a`): kept in the draft, in front of what is queued. */
  async restore(text: string): Promise<void> {
    await this.keepUnsent(text)
  }

  /** The run is over and the last turn, a sent queued reply, ended well: the draft no longer holds it. */
  async sent(): Promise<void> {
    if (this.sending === undefined || this.queued !== undefined) return
    this.sending = undefined
    await this.write(() => this.queued)
  }

  /** Whether the run's last turn was a queued reply (its draft is this slot's). */
  get sendingQueued(): boolean {
    return this.sending !== undefined
  }

  /**
   * A query of this run got no answer (the turn was taken back): it goes
   * into the draft in front of what is queued, so neither is lost.
   */
  async keepUnsent(text: string): Promise<void> {
    const unsent = text.trim()
    if (unsent === '') return
    // The reply being sent is in the draft only while nothing newer is queued (the file holds `queued ?? sending`): kept now in its own right.
    if (unsent === this.sending?.trim()) this.sending = undefined
    this.kept = join(this.kept, unsent)
    await this.write(() => this.queued ?? this.sending)
  }

  /** The writes, one at a time: two at once could leave the older state on disk last. */
  private writing: Promise<void> = Promise.resolve()

  /**
   * Writes the draft, atomically: what is kept, then the text (`text()`,
   * read when this write's turn comes, so the file ends as the slot is), the
   * TOML block as it was; removed when there is no text.
   */
  private write(text: () => string | undefined): Promise<void> {
    const run = this.writing.then(() => this.writeNow(text()))
    this.writing = run.catch(() => {})
    return run
  }

  private async writeNow(text: string | undefined): Promise<void> {
    const query = join(this.kept, text)
    if (query === undefined) {
      await rm(this.path, {force: true})
      return
    }
    const prior = await readQueryDraft(this.path).catch(() => undefined)
    const doc = prior?.configToml === undefined ? `${query}\n` : buildQueryDocument({query, configToml: prior.configToml})
    await ensurePrivateDir(dirname(this.path))
    await writeFileDurably(this.path, doc)
  }
}

function join(a: string | undefined, b: string | undefined): string | undefined {
  const parts = [a, b].filter((p): p is string => p !== undefined && p.trim() !== '')
  return parts.length === 0 ? undefined : parts.join('\n\n')
}
