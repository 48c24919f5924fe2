// The emacs kill ring with readline's rules: consecutive kills grow one entry
// (forward kills append, backward kills prepend); yank takes the current
// entry; yank-pop rotates to older entries and wraps. The ring keeps the
// index yank-pop left it at, as readline does, so a later Ctrl+Y yanks it.
const MAX_KILLS = 10

export class KillRing {
  private readonly entries: string[] = []
  private index = -1

  /** Records killed text; `extend` merges it into the current entry. */
  add(text: string, direction: 'forward' | 'backward', extend: boolean): void {
    if (extend && this.index >= 0) {
      const current = this.entries[this.index]
      this.entries[this.index] = direction === 'forward' ? current + text : text + current
      return
    }
    if (text === '') return
    if (this.entries.length >= MAX_KILLS) this.entries.shift()
    this.entries.push(text)
    this.index = this.entries.length - 1
  }

  /** The entry Ctrl+Y inserts, or undefined when nothing was killed yet. */
  current(): string | undefined {
    return this.index >= 0 ? this.entries[this.index] : undefined
  }

  /** Moves to the next older entry (wrapping) and returns it. */
  rotate(): string | undefined {
    if (this.entries.length === 0) return undefined
    this.index = (this.index - 1 + this.entries.length) % this.entries.length
    return this.entries[this.index]
  }

  get size(): number {
    return this.entries.length
  }
}
