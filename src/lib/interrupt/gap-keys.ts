// Keys typed in the instant between two phases of a turn (a stream's end and
// its tool's run), when no key listener is armed: before, the key reader
// dropped them, and a reply typed right then reached `Queue:` cut (`k1`
// became `1`; found by the pty steer fuzzer). They wait for the next
// listener — only within GAP_MS of the last one going (with type to queue
// off there is none, and keys are dropped as before), and never for a
// prompt: one that takes the terminal drops them (keys typed before it was
// there must not answer it).

/** How long keys typed between two phases wait for the next phase's listener. */
export const GAP_MS = 500

export class GapKeys {
  private kept = ''
  private timer: NodeJS.Timeout | undefined
  private lastGone = -Infinity

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The last listener went: a gap begins. */
  listenerGone(): void {
    this.lastGone = this.now()
  }

  /** Keeps `keys` read with no listener if a gap is on (true), else they are to be dropped (false). */
  keep(keys: string): boolean {
    if (this.now() - this.lastGone >= GAP_MS) return false
    this.kept += keys
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.drop(), GAP_MS).unref()
    return true
  }

  /** What was kept, for the listener that came; nothing is kept after. */
  take(): string {
    const kept = this.kept
    this.drop()
    return kept
  }

  drop(): void {
    clearTimeout(this.timer)
    this.kept = ''
  }
}
