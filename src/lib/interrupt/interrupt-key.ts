// Ctrl+C as a key, not a signal, while jp owns the terminal (SPEC §17).
//
// The terminal turns Ctrl+C into SIGINT for the whole foreground process
// group: in `jp query … | jq` that is jq too, which dies, and the answer to a
// reply then has nowhere to go. So during a query on a terminal jp turns the
// terminal's interrupt character off (`stty intr undef`, and `-icanon` so the
// byte arrives at once), reads Ctrl+C from /dev/tty itself and routes it as
// the signal router's SIGINT. Echo is off too (`-echo`, SPEC §18: no key
// typed during a query is ever echoed into the answer), and Enter stays a
// carriage return (`-icrnl`), as a prompt in raw mode reads it. Ctrl+Z and
// Ctrl+\ keep their signals (the terminal still sends them to the group).
// The settings are put back when the query ends and, through the restore
// registry, on every exit path.
//
// Other keys go to the newest key listener (type to queue, the queued
// reply's countdown), or nowhere. A listener that opens a prompt for a key
// (`Queue:`) gets that key and everything typed after it until the prompt
// reads the terminal itself: they are kept as typeahead
// (terminal/typeahead.ts), which the prompt reads first. Keys after a
// Ctrl+C in the same read are kept so too, for the menu it opens.
//
// Two readers of one terminal steal each other's bytes, so the reader steps
// aside whenever the terminal is borrowed: a prompt (which reads Ctrl+C as a
// key itself, in raw mode) or a child (an editor, which gets the user's own
// settings back for the time it runs).
//
// Without a terminal (or without stty) this does nothing and SIGINT keeps
// its meaning.
import tty from 'node:tty'

import {StringDecoder} from 'node:string_decoder'
import {KeyDecoder, type Key} from '../inquire/keys.js'
import {onTerminalBorrow, type Borrower} from '../terminal/borrow.js'
import {applyTerminalModes, saveTerminalModes} from '../terminal/modes.js'
import {registerRestore} from '../terminal/restore.js'
import {closeTtyFd, confirmHangup, openTtyFd, withTtyFd} from '../terminal/tty.js'
import {keepTypeahead, takeTypeahead} from '../terminal/typeahead.js'

/**
 * The stty words that make Ctrl+C a byte: no interrupt character, no line
 * buffering, no echo, Enter read as CR.
 */
export const INTERRUPT_KEY_MODES = ['intr', 'undef', '-icanon', '-echo', '-icrnl', 'min', '1', 'time', '0']

/** How long keys wait as typeahead for a prompt that said it opens; then they are read here again. */
const CAPTURE_MS = 1000

/**
 * A key read while jp works (Ctrl+C excepted). Returns a function that opens
 * a prompt for it (the key and what follows are kept for that prompt), or
 * undefined: the key is used up (or ignored).
 */
export type KeyListener = (key: Key) => (() => void) | undefined

export interface InterruptKeyReader {
  /** Puts the terminal back and stops reading (idempotent). */
  stop(): void
  /** Sends the keys read from now on to `listener` (the newest listener has them); returns the unsubscribe. */
  onKey(listener: KeyListener): () => void
}

/** Ctrl+C as the key decoder reads it without the kitty protocol. */
function isCtrlC(key: Key): boolean {
  return key.ctrl && !key.meta && key.name === 'c'
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
  const listeners: KeyListener[] = []
  const decoder = new KeyDecoder()
  const text = new StringDecoder('utf8')
  /** Set while keys wait for a prompt that is opening (until it reads the terminal, or CAPTURE_MS). */
  let capture: NodeJS.Timeout | undefined

  const endCapture = () => {
    clearTimeout(capture)
    capture = undefined
  }
  const read = (input: string) => {
    if (input === '') return
    if (capture) {
      keepTypeahead(input)
      return
    }
    const keys = decoder.feed(input)
    for (const [i, key] of keys.entries()) {
      const rest = () => keys.slice(i + 1).map((k) => k.sequence).join('')
      if (isCtrlC(key)) {
        // The menu it opens reads what came after it.
        keepTypeahead(rest())
        onCtrlC()
        return
      }
      const open = listeners.at(-1)?.(key)
      if (open) {
        keepTypeahead(key.sequence + rest())
        capture = setTimeout(() => {
          // No prompt read them: they are keys for this reader again.
          capture = undefined
          read(takeTypeahead())
        }, CAPTURE_MS).unref()
        open()
        return
      }
      // Anything else typed while the answer streams is dropped: it was
      // never meant for jp, and a prompt must not find it queued.
    }
  }

  const listen = () => {
    if (stream || stopped || borrowed > 0) return
    const f = openTtyFd('r')
    if (f === undefined) return
    const s = new tty.ReadStream(f)
    s.on('data', (chunk: Buffer) => {
      read(takeTypeahead())
      read(text.write(chunk))
    })
    // EOF or EIO on the terminal: it was hung up (a closed window); the
    // signal router hears of it (terminal/gone.ts) and shuts down.
    s.on('error', () => confirmHangup())
    s.on('end', () => confirmHangup())
    // Reading must not keep jp alive once the query is done.
    s.unref()
    stream = s
    // What a prompt read past its answer is this reader's, unless the
    // prompt it opened (a menu's reply) takes the terminal first: that one
    // opens in the same tick, so look once the tick is over.
    setImmediate(() => {
      if (stream === s) read(takeTypeahead())
    })
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
      // The prompt that was opening reads the kept keys itself.
      endCapture()
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
    onKey(listener) {
      listeners.push(listener)
      return () => {
        const i = listeners.lastIndexOf(listener)
        if (i >= 0) listeners.splice(i, 1)
      }
    },
    stop() {
      if (stopped) return
      stopped = true
      endCapture()
      unsubscribe()
      unlisten()
      withTty((f) => applyTerminalModes(f, original))
      unregister()
    },
  }
}
