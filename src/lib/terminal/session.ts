// One prompt's claim on the terminal's modes: raw mode and every mode a
// prompt switches on (bracketed paste, kitty keyboard flags, cursor shape),
// each recorded with the bytes that switch it off, undone on every way the
// prompt can end. The undo is registered in the one restore registry
// (restore.ts), which runs it on exit, on an uncaught exception and on a
// terminating signal; the session itself listens to no process event.
import {holdRawMode} from './borrow.js'
import {terminalGone} from './gone.js'
import {registerRestore} from './restore.js'
import {TERMINAL_SEQUENCES as seq} from './sequences.js'
import {writeAllSync} from './tty.js'

/**
 * The modes a prompt turns on, each with the bytes that turn it on and off
 * (`on` empty: the prompt only needs the mode put back when it ends).
 */
const PROMPT_MODES = {
  /** Pasted text arrives marked: a pasted newline does not submit. */
  bracketedPaste: {on: seq.bracketedPasteOn, off: seq.bracketedPasteOff},
  /** Kitty keyboard protocol, "disambiguate escape codes": Shift+Enter can be told from Enter. */
  kittyKeyboard: {on: seq.kittyOn, off: seq.kittyOff},
  /** The cursor is visible when the prompt ends, whatever hid it meanwhile (an editor). */
  visibleCursor: {on: '', off: seq.cursorShow},
  /** The prompt's frames set cursor shapes (the painter draws them): the terminal's default shape is back when it ends. */
  cursorShapes: {on: '', off: seq.cursorDefault},
} as const

export type PromptMode = keyof typeof PROMPT_MODES

type RawCapable = NodeJS.ReadableStream & {isTTY?: boolean; isRaw?: boolean; setRawMode?: (mode: boolean) => unknown}

/**
 * One prompt's claim on the terminal. Every mode switched on through it is
 * recorded with the bytes that switch it off; `restore()` undoes them in
 * reverse order, exactly once: from the caller's finally, or from the
 * restore registry (process exit, an uncaught exception, a terminating
 * signal).
 */
export class TerminalSession {
  private readonly undo: string[] = []
  private readonly redo: string[] = []
  private releaseRaw: (() => void) | undefined
  private rawWas: boolean | undefined
  private restored = false
  private readonly unregister: () => void

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    /** Called when a terminating signal arrives while the prompt is open (the prompt ends as cancelled). */
    onTerminate?: () => void,
  ) {
    this.unregister = registerRestore({name: 'prompt', run: () => this.restore(), terminate: onTerminate})
  }

  /** Switches raw mode on when the input is a terminal. */
  rawMode(): void {
    const input = this.input as RawCapable
    if (!input.isTTY || typeof input.setRawMode !== 'function') return
    this.rawWas = Boolean(input.isRaw)
    input.setRawMode(true)
    // If an editor's server cooks the terminal behind our back, the
    // terminal layer (terminal/borrow.ts) puts raw mode back through this.
    this.releaseRaw = holdRawMode(() => this.reapply())
  }

  /** Turns `mode` on now and remembers how to turn it off for restore(). */
  enable(mode: PromptMode): void {
    const {on, off} = PROMPT_MODES[mode]
    if (on) this.write(on)
    this.undo.push(off)
    if (on) this.redo.push(on)
  }

  /**
   * Puts raw mode and every enabled mode back after something changed the
   * terminal behind our back (an editor's server tearing it down late).
   * Raw mode off then on: libuv re-reads the current settings and derives
   * raw mode from them afresh.
   */
  reapply(): void {
    if (this.restored) return
    const input = this.input as RawCapable
    if (this.rawWas !== undefined && typeof input.setRawMode === 'function') {
      try {
        input.setRawMode(false)
        input.setRawMode(true)
      } catch {
        // the terminal went away
      }
    }
    // The kitty flags are a stack: pushing again would leave one behind.
    const on = this.redo.filter((x) => x !== seq.kittyOn).join('')
    if (on) this.write(on)
  }

  /** Undoes every enabled mode (reverse order) and raw mode; idempotent. */
  restore(): void {
    if (this.restored) return
    this.restored = true
    this.unregister()
    this.releaseRaw?.()
    // A terminal that is gone has nothing to put back (and every write or
    // mode change on it fails).
    if (terminalGone()) return
    const off = this.undo.reverse().join('')
    if (off) this.write(off)
    const input = this.input as RawCapable
    if (this.rawWas !== undefined && typeof input.setRawMode === 'function') {
      try {
        input.setRawMode(this.rawWas)
      } catch {
        // the terminal went away
      }
    }
  }

  private write(data: string): void {
    const out = this.output as NodeJS.WritableStream & {fd?: number; destroyed?: boolean}
    if (out.destroyed || terminalGone()) return
    // On 'exit' and on a fatal signal the event loop will not flush a queued
    // stream write, so write synchronously when there is a file descriptor.
    if (typeof out.fd === 'number') {
      try {
        writeAllSync(out.fd, data)
        return
      } catch {
        // fall back to the stream
      }
    }
    out.write(data)
  }
}
