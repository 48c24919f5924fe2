// One prompt's claim on the terminal's modes: raw mode and every mode a
// prompt switches on (bracketed paste, kitty keyboard flags, cursor shape),
// each recorded with the bytes that switch it off, undone on every way the
// prompt can end.
import {writeSync} from 'node:fs'

import {holdRawMode} from './borrow.js'
import {TERMINAL_SEQUENCES as seq} from './sequences.js'

type RawCapable = NodeJS.ReadableStream & {isTTY?: boolean; isRaw?: boolean; setRawMode?: (mode: boolean) => unknown}

/**
 * One prompt's claim on the terminal. Every mode switched on through it is
 * recorded with the bytes that switch it off; `restore()` undoes them in
 * reverse order, exactly once, and is wired to every way the prompt can end:
 * the caller's finally, process 'exit', SIGTERM/SIGHUP and an AbortSignal.
 */
export class TerminalSession {
  private readonly undo: string[] = []
  private readonly redo: string[] = []
  private releaseRaw: (() => void) | undefined
  private rawWas: boolean | undefined
  private restored = false
  private readonly onExit = () => this.restore()
  private readonly onSignal: (signal: NodeJS.Signals) => void
  private readonly signals: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP']

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    /** Called after a terminating signal restored the terminal while other code also listens for it. */
    onTerminate?: (signal: NodeJS.Signals) => void,
  ) {
    this.onSignal = (signal) => {
      this.restore()
      // We were the only listener: behave as if we had never listened, so
      // the default action (die by that signal) still happens.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
      else onTerminate?.(signal)
    }
    process.once('exit', this.onExit)
    for (const s of this.signals) process.once(s, this.onSignal)
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

  /** Writes `on` now and remembers `off` for restore(). */
  enable(on: string, off: string): void {
    this.write(on)
    this.undo.push(off)
    this.redo.push(on)
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
    process.removeListener('exit', this.onExit)
    for (const s of this.signals) process.removeListener(s, this.onSignal)
    this.releaseRaw?.()
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
    if (out.destroyed) return
    // On 'exit' and on a fatal signal the event loop will not flush a queued
    // stream write, so write synchronously when there is a file descriptor.
    if (typeof out.fd === 'number') {
      try {
        writeSyncAll(out.fd, data)
        return
      } catch {
        // fall back to the stream
      }
    }
    out.write(data)
  }
}

function writeSyncAll(fd: number, data: string): void {
  const buf = Buffer.from(data, 'utf8')
  let off = 0
  while (off < buf.length) off += writeSync(fd, buf, off)
}
