// The controlling terminal for one prompt, and the promise that whatever a
// prompt turns on is turned off again on every exit path (SPEC §1 inv. 3, 7).
//
// Prompts never touch stdin/stdout/stderr: they open `/dev/tty` afresh for
// each prompt and close it after. Reusing one pair across prompts breaks the
// second one (a closed MuteStream, a paused handle), and a fresh pair also
// means `jp … | jq` and `2> err.txt` leave the prompt on the screen.
import {writeSync} from 'node:fs'
import {StringDecoder} from 'node:string_decoder'
import tty from 'node:tty'
import {closeTtyFd, openTtyFd} from '../process/tty.js'
import {holdRawMode, TERMINAL_SEQUENCES} from '../printer/terminal-state.js'
import {ESC_TIMEOUT_MS, KeyDecoder, type Key} from './keys.js'
import {PromptCancelledError, type PromptContext} from './types.js'

export interface TtyStreams {
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  /** Closes both streams (idempotent). */
  close(): void
}

/**
 * Opens fresh read/write streams on the controlling terminal, or returns
 * undefined when there is none (CI, cron, a detached process): the caller
 * then falls back (no prompt, a documented default).
 */
export function openTty(): TtyStreams | undefined {
  let readFd: number | undefined
  let writeFd: number | undefined
  try {
    readFd = openTtyFd('r')
    writeFd = openTtyFd('w')
    if (readFd === undefined || writeFd === undefined || !tty.isatty(readFd) || !tty.isatty(writeFd)) throw new Error('not a terminal')
    const input = new tty.ReadStream(readFd)
    const output = new tty.WriteStream(writeFd)
    let closed = false
    return {
      input,
      output,
      close() {
        if (closed) return
        closed = true
        try {
          if (input.isRaw) input.setRawMode(false)
        } catch {
          // the terminal went away; nothing left to restore
        }
        input.destroy()
        output.destroy()
      },
    }
  } catch {
    if (readFd !== undefined) closeTtyFd(readFd)
    if (writeFd !== undefined) closeTtyFd(writeFd)
    return undefined
  }
}

/** True when a controlling terminal can be opened (without keeping it open). */
export function hasTty(): boolean {
  const streams = openTty()
  streams?.close()
  return streams !== undefined
}

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
    // terminal-state module puts raw mode back through this.
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

/** The terminal sequences a prompt turns on and off (spelled in printer/terminal-state.ts). */
export const seq = TERMINAL_SEQUENCES

/** No controlling terminal could be opened, and the caller gave no streams. */
export class NoTerminalError extends Error {
  constructor() {
    super('no terminal to prompt on (/dev/tty could not be opened)')
    this.name = 'NoTerminalError'
  }
}

export interface PromptIO {
  /** Runs `fn` when the prompt ends, however it ends (after the terminal is restored). */
  onClose(fn: () => void): void
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  session: TerminalSession
  /** True when the output is a terminal (not an in-memory stream). */
  isTerminal: boolean
  columns(): number
  rows(): number
  write(data: string): void
}

export interface PromptHandlers<T> {
  /** Called for each decoded key until the prompt settles. */
  onKey(key: Key, settle: Settle<T>): void
  /** The terminal was resized (SIGWINCH, or 'resize' on the output). */
  onResize?(): void
  /** How a terminating signal or an abort ends the prompt. */
  onTerminate(settle: Settle<T>): void
}

export type Settle<T> = (result: {value: T} | {error: unknown}) => void

type PromptOutput = NodeJS.WritableStream & {columns?: number; rows?: number; isTTY?: boolean; _refreshSize?: () => void}

/**
 * Runs one prompt: claims the terminal (fresh /dev/tty unless `context`
 * gives streams), raw mode, decodes keys (flushing a lone ESC after
 * ESC_TIMEOUT_MS), forwards resizes, and on settle — or an exception in a
 * handler, an abort, SIGTERM/SIGHUP — restores the terminal, detaches every
 * listener and closes streams it opened.
 */
export function runPrompt<T>(
  context: PromptContext | undefined,
  start: (io: PromptIO, settle: Settle<T>) => PromptHandlers<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (context?.signal?.aborted) {
      reject(new PromptCancelledError('cancelled', 'Prompt aborted'))
      return
    }
    const streams = promptStreams(context)
    if (!streams) {
      reject(new NoTerminalError())
      return
    }
    const {input, output, opened} = streams
    let settled = false
    let handlers: PromptHandlers<T> | undefined
    const session = new TerminalSession(input, output, () => handlers?.onTerminate(settle))
    const closers: Array<() => void> = []
    const io = promptIO(input, output, session, closers)
    let detach = () => {}

    function settle(result: {value: T} | {error: unknown}): void {
      if (settled) return
      settled = true
      try {
        detach()
        session.restore()
        if (opened) opened.close()
        else input.pause()
        runClosers(closers)
      } finally {
        if ('error' in result) reject(result.error)
        else resolve(result.value)
      }
    }
    // A handler that throws settles the prompt with its error.
    const guarded = (fn: () => void) => {
      try {
        fn()
      } catch (error) {
        settle({error})
      }
    }

    try {
      session.rawMode()
      handlers = start(io, settle)
    } catch (error) {
      settled = true
      session.restore()
      opened?.close()
      for (const fn of closers.splice(0)) fn()
      reject(error)
      return
    }
    // Settled while starting (an answer known at once): nothing to listen to.
    if (settled) return
    detach = listen(context, input, output, io, {
      settled: () => settled,
      keys: (keys) => {
        for (const key of keys) {
          if (settled) return
          guarded(() => handlers!.onKey(key, settle))
        }
      },
      resize: () => guarded(() => handlers?.onResize?.()),
      terminate: () => {
        if (!settled) handlers?.onTerminate(settle)
      },
    })
  })
}

/** The prompt's streams: the context's, else a fresh /dev/tty pair (undefined: no terminal). */
function promptStreams(context: PromptContext | undefined): {input: NodeJS.ReadableStream; output: PromptOutput; opened?: TtyStreams} | undefined {
  let input = context?.input
  let output = context?.output
  let opened: TtyStreams | undefined
  if (!input || !output) {
    opened = openTty()
    if (!opened) return undefined
    input = input ?? opened.input
    output = output ?? opened.output
  }
  return {input, output: output as PromptOutput, opened}
}

function promptIO(input: NodeJS.ReadableStream, out: PromptOutput, session: TerminalSession, closers: Array<() => void>): PromptIO {
  return {
    onClose: (fn) => {
      closers.push(fn)
    },
    input,
    output: out,
    session,
    isTerminal: Boolean(out.isTTY),
    columns: () => out.columns || 80,
    rows: () => out.rows || 24,
    write: (data) => {
      out.write(data)
    },
  }
}

function runClosers(closers: Array<() => void>): void {
  for (const fn of closers.splice(0)) {
    try {
      fn()
    } catch {
      // a closer must not keep the prompt from settling
    }
  }
}

/**
 * Wires the prompt to its input (decoded keys, a lone ESC flushed after
 * ESC_TIMEOUT_MS, the terminal going away), resizes and the abort signal;
 * returns the function that detaches all of it.
 */
/**
 * The key side of reading a terminal: raw chunks (bytes or text) in, keys
 * out — sequences split across reads joined, a lone Esc handed over once
 * ESC_TIMEOUT_MS pass without more. `waiting()` false: no timer is armed.
 */
export function keyFeed(onKeys: (keys: Key[]) => void, waiting: () => boolean = () => true): {feed(chunk: Buffer | string): void; stop(): void} {
  const decoder = new KeyDecoder()
  const text = new StringDecoder('utf8')
  let escTimer: NodeJS.Timeout | undefined
  return {
    feed(chunk) {
      clearTimeout(escTimer)
      onKeys(decoder.feed(typeof chunk === 'string' ? chunk : text.write(chunk)))
      if (waiting() && decoder.pending) escTimer = setTimeout(() => onKeys(decoder.flush()), ESC_TIMEOUT_MS)
    },
    stop: () => clearTimeout(escTimer),
  }
}

function listen(
  context: PromptContext | undefined,
  input: NodeJS.ReadableStream,
  out: PromptOutput,
  io: PromptIO,
  on: {settled(): boolean; keys(keys: Key[]): void; resize(): void; terminate(): void},
): () => void {
  const keys = keyFeed(on.keys, () => !on.settled())
  const onData = (chunk: Buffer | string) => keys.feed(chunk)
  // The terminal went away (hangup), or the prompt was aborted: nobody can answer.
  const onEnd = () => on.terminate()
  let lastSize = `${io.columns()}x${io.rows()}`
  function onResizeEvent(): void {
    const size = `${io.columns()}x${io.rows()}`
    if (size === lastSize || on.settled()) return
    lastSize = size
    on.resize()
  }
  // Node refreshes columns/rows only for process.stdout/stderr; a
  // /dev/tty stream of our own must be told.
  function onWinch(): void {
    out._refreshSize?.()
    onResizeEvent()
  }
  input.on('data', onData)
  input.on('end', onEnd)
  process.on('SIGWINCH', onWinch)
  out.on?.('resize', onResizeEvent)
  context?.signal?.addEventListener('abort', onEnd, {once: true})
  input.resume()
  return () => {
    keys.stop()
    input.removeListener('data', onData)
    input.removeListener('end', onEnd)
    process.removeListener('SIGWINCH', onWinch)
    out.removeListener?.('resize', onResizeEvent)
    context?.signal?.removeEventListener('abort', onEnd)
  }
}
