// Ctrl+C as a key, not a signal, while jp owns the terminal (SPEC §17).
//
// The terminal turns Ctrl+C into SIGINT for the whole foreground process
// group: in `jp query … | jq` that is jq too, which dies, and the answer to a
// reply then has nowhere to go. So during a query on a terminal jp turns the
// terminal's interrupt character off (`stty intr undef`, and `-icanon` so the
// byte arrives at once), reads Ctrl+C from /dev/tty itself and routes it as
// the signal router's SIGINT. Nothing else changes: echo stays on, Ctrl+Z and
// Ctrl+\ keep their signals (the terminal still sends them to the group). The
// settings are put back when the query ends and, through the restore
// registry, on every exit path.
//
// Two readers of one terminal steal each other's bytes, so the reader steps
// aside whenever the terminal is borrowed: a prompt (which reads Ctrl+C as a
// key itself, in raw mode) or a child (an editor, which gets the user's own
// settings back for the time it runs).
//
// Without a terminal (or without stty) this does nothing and SIGINT keeps
// its meaning.
import tty from 'node:tty'

import {onTerminalBorrow, type Borrower} from '../terminal/borrow.js'
import {applyTerminalModes, saveTerminalModes} from '../terminal/modes.js'
import {registerRestore} from '../terminal/restore.js'
import {closeTtyFd, confirmHangup, openTtyFd, withTtyFd} from '../terminal/tty.js'

/** ETX: what the terminal sends for Ctrl+C once it no longer turns it into SIGINT. */
const CTRL_C = 0x03
/** The stty words that make Ctrl+C a byte: no interrupt character, no line buffering. */
export const INTERRUPT_KEY_MODES = ['intr', 'undef', '-icanon', 'min', '1', 'time', '0']

export interface InterruptKeyReader {
  /** Puts the terminal back and stops reading (idempotent). */
  stop(): void
}

/**
 * Starts reading Ctrl+C from the controlling terminal; `onCtrlC` is called for
 * each press. Returns undefined when there is no terminal or its settings
 * cannot be changed (then SIGINT is still how Ctrl+C arrives).
 */
export function readInterruptKey(onCtrlC: () => void): InterruptKeyReader | undefined {
  const fd = openTtyFd('r+')
  if (fd === undefined) return undefined
  const original = saveTerminalModes(fd)
  if (original === undefined || !applyTerminalModes(fd, INTERRUPT_KEY_MODES)) {
    closeTtyFd(fd)
    return undefined
  }
  closeTtyFd(fd)

  const withTty = (fn: (fd: number) => void) => void withTtyFd('r+', fn)

  let stream: tty.ReadStream | undefined
  let borrowed = 0
  let stopped = false

  const listen = () => {
    if (stream || stopped || borrowed > 0) return
    const f = openTtyFd('r')
    if (f === undefined) return
    const s = new tty.ReadStream(f)
    s.on('data', (chunk: Buffer) => {
      // Anything else typed while the answer streams is dropped: it was
      // never meant for jp, and a prompt must not find it queued.
      for (const byte of chunk) if (byte === CTRL_C) onCtrlC()
    })
    // EOF or EIO on the terminal: it was hung up (a closed window); the
    // signal router hears of it (terminal/gone.ts) and shuts down.
    s.on('error', () => confirmHangup())
    s.on('end', () => confirmHangup())
    // Reading must not keep jp alive once the query is done.
    s.unref()
    stream = s
  }
  const unlisten = () => {
    stream?.destroy()
    stream = undefined
  }

  const unregister = registerRestore({name: 'interrupt-key', run: () => withTty((f) => applyTerminalModes(f, original))})
  const unsubscribe = onTerminalBorrow({
    borrowed(by: Borrower) {
      borrowed++
      unlisten()
      // An editor gets the terminal as the user's shell left it.
      if (by === 'child') withTty((f) => applyTerminalModes(f, original))
    },
    returned(by: Borrower) {
      borrowed = Math.max(0, borrowed - 1)
      if (by === 'child' && !stopped) withTty((f) => applyTerminalModes(f, INTERRUPT_KEY_MODES))
      listen()
    },
  })
  listen()

  return {
    stop() {
      if (stopped) return
      stopped = true
      unsubscribe()
      unlisten()
      withTty((f) => applyTerminalModes(f, original))
      unregister()
    },
  }
}
