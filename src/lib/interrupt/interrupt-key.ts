// Ctrl+C as a key, not a signal, while jp owns the terminal (SPEC §17).
//
// The terminal turns Ctrl+C into SIGINT for the whole foreground process
// group: in `jp query … | jq` that is jq too, which dies, and the answer to a
// reply then has nowhere to go. So during a query on a terminal jp turns the
// terminal's interrupt character off (`stty intr undef`, and `-icanon` so the
// byte arrives at once), reads Ctrl+C from /dev/tty itself and routes it as
// the signal router's SIGINT. Echo is off too (SPEC §18: no key typed during
// a query is ever echoed into the answer). The terminal's side (stty, its
// restore on every exit path, editors) is terminal/key-mode.ts's.
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
import type tty from 'node:tty'

import {StringDecoder} from 'node:string_decoder'
import {KeyDecoder, type Key} from '../inquire/keys.js'
import {onTerminalBorrow} from '../terminal/borrow.js'
import {holdInterruptKeyMode} from '../terminal/key-mode.js'
import {openTtyReadStream} from '../terminal/tty.js'
import {keepTypeahead, takeTypeahead} from '../terminal/typeahead.js'
import {GapKeys} from './gap-keys.js'

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
  // The terminal's side (stty, its restore, editors) is the terminal layer's.
  const mode = holdInterruptKeyMode()
  if (mode === undefined) return undefined
  const keys = new TerminalKeys(onCtrlC)
  // Two readers of one terminal steal each other's bytes: step aside while a prompt or a child has it.
  const unsubscribe = onTerminalBorrow({borrowed: () => keys.lend(), returned: () => keys.takeBack()})
  keys.listen()

  return {
    onKey: (listener) => keys.onKey(listener),
    stop() {
      if (!keys.stop()) return
      unsubscribe()
      mode.release()
    },
  }
}

/** The reader's state: the terminal stream while it reads, the key listeners and the keys kept for an opening prompt. */
class TerminalKeys {
  private stream: tty.ReadStream | undefined
  private borrowed = 0
  private stopped = false
  private readonly listeners: KeyListener[] = []
  private readonly decoder = new KeyDecoder()
  private readonly text = new StringDecoder('utf8')
  /** Set while keys wait for a prompt that is opening (until it reads the terminal, or CAPTURE_MS). */
  private capture: NodeJS.Timeout | undefined
  private readonly gap = new GapKeys()

  constructor(private readonly onCtrlC: () => void) {}

  onKey(listener: KeyListener): () => void {
    this.listeners.push(listener)
    // Keys typed between two phases: theirs, once the caller has armed it.
    const kept = this.gap.take()
    if (kept !== '') setImmediate(() => this.listeners.includes(listener) && !this.stopped && this.read(kept))
    return () => {
      const i = this.listeners.lastIndexOf(listener)
      if (i >= 0) this.listeners.splice(i, 1)
      if (this.listeners.length === 0) this.gap.listenerGone()
    }
  }

  read(input: string): void {
    if (input === '') return
    if (this.capture) {
      keepTypeahead(input)
      return
    }
    const keys = this.decoder.feed(input)
    for (const [i, key] of keys.entries()) {
      const rest = () => keys.slice(i + 1).map((k) => k.sequence).join('')
      if (isCtrlC(key)) {
        // The menu it opens reads what came after it.
        keepTypeahead(rest())
        this.onCtrlC()
        return
      }
      if (this.listeners.length === 0 && this.gap.keep(key.sequence + rest())) return
      const open = this.listeners.at(-1)?.(key)
      if (open) {
        keepTypeahead(key.sequence + rest())
        this.capture = setTimeout(() => {
          // No prompt read them: they are keys for this reader again.
          this.capture = undefined
          this.read(takeTypeahead())
        }, CAPTURE_MS).unref()
        open()
        return
      }
      // Anything else typed while the answer streams is dropped: it was
      // never meant for jp, and a prompt must not find it queued.
    }
  }

  listen(): void {
    if (this.stream || this.stopped || this.borrowed > 0) return
    const s = openTtyReadStream()
    if (s === undefined) return
    s.on('data', (chunk: Buffer) => {
      this.read(takeTypeahead())
      this.read(this.text.write(chunk))
    })
    // Reading must not keep jp alive once the query is done.
    s.unref()
    this.stream = s
    // What a prompt read past its answer is this reader's, unless the
    // prompt it opened (a menu's reply) takes the terminal first: that one
    // opens in the same tick, so look once the tick is over.
    setImmediate(() => {
      if (this.stream === s) this.read(takeTypeahead())
    })
  }

  /** A prompt or a child borrows the terminal: stop reading; the prompt that was opening reads the kept keys itself. */
  lend(): void {
    this.borrowed++
    this.gap.drop()
    this.unlisten()
    this.endCapture()
  }

  takeBack(): void {
    this.borrowed = Math.max(0, this.borrowed - 1)
    this.listen()
  }

  /** Stops for good; false if it already had. */
  stop(): boolean {
    if (this.stopped) return false
    this.stopped = true
    this.endCapture()
    this.gap.drop()
    this.unlisten()
    return true
  }

  private unlisten(): void {
    this.stream?.destroy()
    this.stream = undefined
  }

  private endCapture(): void {
    clearTimeout(this.capture)
    this.capture = undefined
  }
}
