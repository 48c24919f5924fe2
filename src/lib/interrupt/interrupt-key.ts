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
import type tty from 'node:tty'

import {onTerminalBorrow} from '../terminal/borrow.js'
import {holdInterruptKeyMode} from '../terminal/key-mode.js'
import {openTtyReadStream} from '../terminal/tty.js'

/** ETX: what the terminal sends for Ctrl+C once it no longer turns it into SIGINT. */
const CTRL_C = 0x03

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
  // The terminal's side (stty, its restore, editors) is the terminal layer's.
  const mode = holdInterruptKeyMode()
  if (mode === undefined) return undefined

  let stream: tty.ReadStream | undefined
  let borrowed = 0
  let stopped = false

  const listen = () => {
    if (stream || stopped || borrowed > 0) return
    const s = openTtyReadStream()
    if (s === undefined) return
    s.on('data', (chunk: Buffer) => {
      // Anything else typed while the answer streams is dropped: it was
      // never meant for jp, and a prompt must not find it queued.
      for (const byte of chunk) if (byte === CTRL_C) onCtrlC()
    })
    // Reading must not keep jp alive once the query is done.
    s.unref()
    stream = s
  }
  const unlisten = () => {
    stream?.destroy()
    stream = undefined
  }

  // Two readers of one terminal steal each other's bytes: step aside while a prompt or a child has it.
  const unsubscribe = onTerminalBorrow({
    borrowed() {
      borrowed++
      unlisten()
    },
    returned() {
      borrowed = Math.max(0, borrowed - 1)
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
      mode.release()
    },
  }
}
