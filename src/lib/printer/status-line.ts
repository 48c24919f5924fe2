// The one ephemeral status line (SPEC §17 "Status line", JP RFD 091): while
// jp waits — for the first token, for a tool, for a conversation's lock — the
// terminal shows `⏱ Waiting… 2.3s`, redrawn in place as the time ticks. It is
// the printer's: it lives only on the terminal (never stdout, never a
// redirected stderr), it is erased before any other write, and it hides
// while a prompt owns the screen. A write ends it; whoever waits again starts
// a new one.
import {TERMINAL_SEQUENCES} from './terminal-state.js'
import {onPromptClaim, openPrompt} from './terminal-owner.js'

const TICK_MS = 100
const ERASE = TERMINAL_SEQUENCES.eraseLine

/** `⏱ Waiting… 2.3s` (pure: the label and the elapsed milliseconds). */
export function statusText(label: string, elapsedMs: number, suffix = ''): string {
  return `⏱ ${label}… ${(elapsedMs / 1000).toFixed(1)}s${suffix}`
}

export interface StatusLineOptions {
  /** The terminal, written synchronously; undefined: no terminal, no status line. */
  write: ((text: string) => void) | undefined
  now?: () => number
}

export class StatusLine {
  private label: string | undefined
  private suffix: ((elapsedMs: number) => string) | undefined
  private started = 0
  private timer: NodeJS.Timeout | undefined
  private visible = false
  private unsubscribe: (() => void) | undefined
  private readonly now: () => number

  constructor(private readonly options: StatusLineOptions) {
    this.now = options.now ?? Date.now
  }

  /** Starts (or replaces) the status line; `suffix` adds e.g. a countdown. Returns its stop function. */
  start(label: string, suffix?: (elapsedMs: number) => string): () => void {
    if (this.options.write === undefined) return () => {}
    this.stop()
    this.label = label
    this.suffix = suffix
    this.started = this.now()
    this.unsubscribe = onPromptClaim(() => this.erase())
    this.draw()
    this.timer = setInterval(() => this.draw(), TICK_MS).unref()
    const mine = this.started
    return () => {
      if (this.started === mine) this.stop()
    }
  }

  /** Erases the line and ends it (any other output does this first). */
  stop(): void {
    if (this.label === undefined) return
    clearInterval(this.timer)
    this.timer = undefined
    this.unsubscribe?.()
    this.unsubscribe = undefined
    this.label = undefined
    this.erase()
  }

  get active(): boolean {
    return this.label !== undefined
  }

  private draw(): void {
    // A prompt owns the screen: the status waits until it is gone.
    if (this.label === undefined || openPrompt()) return
    const elapsed = this.now() - this.started
    this.options.write!(ERASE + statusText(this.label, elapsed, this.suffix?.(elapsed) ?? ''))
    this.visible = true
  }

  private erase(): void {
    if (!this.visible) return
    this.visible = false
    this.options.write!(ERASE)
  }
}
