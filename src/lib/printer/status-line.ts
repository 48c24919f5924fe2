// The one ephemeral status line (SPEC §17 "Status line", JP RFD 091): while
// jp waits — for the first token, for a tool, for a conversation's lock — the
// terminal shows `⏱ Waiting… 2.3s`, redrawn in place as the time ticks. It is
// the printer's: it lives only on the terminal (never stdout, never a
// redirected stderr), it is erased before any other write, and it hides
// while a prompt owns the screen or a child (the user's editor) has the
// terminal. It never wraps: a line wider than the terminal would leave a
// copy on every tick. A write ends it; whoever waits again starts a new one.
import {onTerminalBorrow} from '../terminal/borrow.js'
import {onPromptClaim, openPrompt, shownFooter} from '../terminal/owner.js'
import {InPlaceLine} from '../terminal/in-place-line.js'
import {terminalGone} from '../terminal/gone.js'

const TICK_MS = 100

/** `⏱ Waiting… 2.3s` (pure: the label and the elapsed milliseconds). */
export function statusText(label: string, elapsedMs: number, suffix = ''): string {
  return `⏱ ${label}… ${(elapsedMs / 1000).toFixed(1)}s${suffix}`
}

/**
 * The longest start of `text` that fits in `cells` columns. Counted
 * conservatively without a width table: U+1100 and above as two cells
 * (wide and emoji start there), combining marks as one.
 */
export function clipToCells(text: string, cells: number): string {
  let used = 0
  let end = 0
  for (const ch of text) {
    used += ch.codePointAt(0)! >= 0x1100 ? 2 : 1
    if (used > cells) break
    end += ch.length
  }
  return text.slice(0, end)
}

/** A status line's whole text at an elapsed time (a countdown says what it counts down to); the caller's own, trusted text. */
export type StatusText = (elapsedMs: number) => string

export interface StatusLineOptions {
  /** The terminal, written synchronously; undefined: no terminal, no status line. */
  write: ((text: string) => void) | undefined
  /** The terminal's width, when known. */
  columns?: () => number | undefined
  now?: () => number
}

export class StatusLine {
  private label: string | StatusText | undefined
  private suffix: ((elapsedMs: number) => string) | undefined
  private started = 0
  private timer: NodeJS.Timeout | undefined
  private visible = false
  /** Drawn by the footer (the queued reply's line), on the row above it. */
  private inFooter = false
  private unsubscribe: (() => void) | undefined
  /** Children (editors) that have the terminal now. */
  private lent = 0
  private readonly now: () => number
  private readonly line: InPlaceLine | undefined

  constructor(private readonly options: StatusLineOptions) {
    this.now = options.now ?? Date.now
    this.line = options.write && new InPlaceLine(options.write)
  }

  /**
   * Starts (or replaces) the status line: `⏱ LABEL… 1.2s`, `suffix` added
   * (e.g. how long is left), or `label`'s own text. Returns its stop function.
   */
  start(label: string | StatusText, suffix?: (elapsedMs: number) => string): () => void {
    if (this.options.write === undefined) return () => {}
    this.stop()
    this.label = label
    this.suffix = suffix
    this.started = this.now()
    const unclaim = onPromptClaim(() => this.erase())
    const unborrow = onTerminalBorrow({
      borrowed: (by) => {
        if (by !== 'child') return
        this.erase()
        this.lent++
      },
      returned: (by) => {
        if (by === 'child') this.lent = Math.max(0, this.lent - 1)
      },
    })
    this.unsubscribe = () => {
      unclaim()
      unborrow()
    }
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
    // A prompt owns the screen, or an editor has the terminal: the status waits until it is gone.
    if (this.label === undefined || this.lent > 0 || openPrompt() || terminalGone()) return
    const elapsed = this.now() - this.started
    const text = typeof this.label === 'string' ? statusText(this.label, elapsed, this.suffix?.(elapsed) ?? '') : this.label(elapsed)
    const footer = shownFooter()
    if (footer?.setStatus) {
      footer.setStatus(text)
      this.inFooter = true
      return
    }
    const columns = this.options.columns?.()
    this.line!.show(columns ? clipToCells(text, columns - 1) : text)
    this.visible = true
  }

  private erase(): void {
    if (this.inFooter) {
      this.inFooter = false
      shownFooter()?.setStatus?.(undefined)
    }
    if (!this.visible) return
    this.visible = false
    this.line!.erase()
  }
}
