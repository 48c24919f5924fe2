// The controlling terminal for one prompt, and the promise that whatever a
// prompt turns on is turned off again on every exit path (SPEC §1 inv. 3, 7).
//
// Prompts never touch stdin/stdout/stderr: they open `/dev/tty` afresh for
// each prompt (terminal/tty.ts `openTty`) and close it after.
import {StringDecoder} from 'node:string_decoder'
import {TerminalSession} from '../terminal/session.js'
import {confirmHangup, openTty, type TtyStreams} from '../terminal/tty.js'
import {onTerminalResize} from '../terminal/resize.js'
import {keepTypeahead, takeTypeahead} from '../terminal/typeahead.js'
import {CTRL_C_READS, ESC_TIMEOUT_MS, KeyDecoder, PASTE_QUIET_MS, type Key} from './keys.js'
import {PromptCancelledError, type PromptContext} from './types.js'

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
  /**
   * True once the prompt has its answer (it may settle a moment later):
   * keys read after it are kept for the next reader (terminal/typeahead.ts).
   */
  ended?(): boolean
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
        for (const [i, key] of keys.entries()) {
          if (settled || handlers!.ended?.()) {
            // Read in the same go as the answer (`rhello⏎` typed at a menu): the next prompt's.
            keepTypeahead(keys.slice(i).map((k) => k.sequence).join(''))
            return
          }
          // Ctrl+\ is SIGQUIT outside a prompt (raw mode only stopped the
          // terminal from sending it): it is handed to whoever handles
          // SIGQUIT (the signal router, which restores the terminal and
          // decides the exit), as the terminal would have. The prompt itself
          // never ends the process; with nobody listening the key is ignored.
          if (key.ctrl && !key.meta && key.name === '\\' && process.listenerCount('SIGQUIT') > 0) {
            process.emit('SIGQUIT', 'SIGQUIT')
            continue
          }
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
 * ESC_TIMEOUT_MS pass without more. A paste whose end marker never comes is
 * ended after PASTE_QUIET_MS of silence, or by a Ctrl+C read on its own (the
 * user's key, not pasted bytes), keeping its text; that Ctrl+C only ends the
 * paste, the next one works as usual. `waiting()` false: no timer is armed.
 */
export function keyFeed(onKeys: (keys: Key[]) => void, waiting: () => boolean = () => true): {feed(chunk: Buffer | string): void; stop(): void} {
  const decoder = new KeyDecoder()
  const text = new StringDecoder('utf8')
  let escTimer: NodeJS.Timeout | undefined
  let pasteTimer: NodeJS.Timeout | undefined
  return {
    feed(chunk) {
      clearTimeout(escTimer)
      clearTimeout(pasteTimer)
      const data = typeof chunk === 'string' ? chunk : text.write(chunk)
      if (decoder.inPaste && CTRL_C_READS.has(data)) {
        onKeys(decoder.endPaste())
        return
      }
      onKeys(decoder.feed(data))
      if (!waiting()) return
      if (decoder.pending) escTimer = setTimeout(() => onKeys(decoder.flush()), ESC_TIMEOUT_MS)
      if (decoder.inPaste) pasteTimer = setTimeout(() => onKeys(decoder.endPaste()), PASTE_QUIET_MS)
    },
    stop: () => {
      clearTimeout(escTimer)
      clearTimeout(pasteTimer)
    },
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
  // What an earlier reader read past its answer comes first, as the terminal
  // would have kept it: once the prompt is set up, before any new input.
  const ahead = takeTypeahead()
  if (ahead !== '') queueMicrotask(() => (on.settled() ? keepTypeahead(ahead) : keys.feed(ahead)))
  // The terminal went away (hangup), or the prompt was aborted: nobody can answer.
  const onEnd = () => on.terminate()
  // EOF (or EIO) on a terminal: it was hung up. Said first, so the shutdown
  // that follows is the hang-up's (129), then the prompt ends.
  const onHangup = () => {
    if ((input as {isTTY?: boolean}).isTTY) confirmHangup()
    on.terminate()
  }
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
  input.on('end', onHangup)
  input.on('error', onHangup)
  const stopResize = onTerminalResize(onWinch)
  out.on?.('resize', onResizeEvent)
  context?.signal?.addEventListener('abort', onEnd, {once: true})
  input.resume()
  return () => {
    keys.stop()
    input.removeListener('data', onData)
    input.removeListener('end', onHangup)
    input.removeListener('error', onHangup)
    stopResize()
    out.removeListener?.('resize', onResizeEvent)
    context?.signal?.removeEventListener('abort', onEnd)
  }
}
