// Plain one-line questions (jp init's, PromptBackend.text) are stock
// @inquirer/prompts `input`, given the tty context: fresh /dev/tty streams
// for its input and output (never stdin/stdout), closed after each question. They need neither
// seam jp patches for the reply widget (no multi-line editing, no long
// buffers), so they run on the installed @inquirer/core as published.
// They also stay outside the query's terminal ownership (no raw-mode hold
// for the Ctrl+C key reader, no prompt-area claim for the printer): ask
// them only where no query owns the terminal, as `jp init` does.
//
// One adaptation: Node's readline, under @inquirer/input, garbles text that
// arrives in one read in the middle of the line (Ctrl+A then "abc" typed
// fast, or a paste, comes out scrambled). The input handed to inquirer
// therefore delivers one key per read, cut at the boundaries our KeyDecoder
// finds (an escape sequence stays whole).
import {PassThrough, Writable} from 'node:stream'
import {registerRestore} from '../terminal/restore.js'
import {openTty} from '../terminal/tty.js'
import {keyFeed, NoTerminalError} from './prompt-io.js'
import {isPromptTerminated, PromptCancelledError, type PromptContext} from './types.js'

export interface QuestionOptions {
  /** Pre-filled and editable. */
  default?: string
  /** true, or the one-line problem shown under the answer (the text stays to be fixed). */
  validate?: (answer: string) => true | string
}

/** Asks on the terminal; rejects with PromptCancelledError('interrupted') on Ctrl+C, NoTerminalError without one. */
export async function askQuestion(message: string, options: QuestionOptions = {}, context?: PromptContext): Promise<string> {
  const {input} = await import('@inquirer/prompts')
  const given = context?.input && context.output ? {input: context.input, output: context.output} : undefined
  const opened = given ? undefined : openTty()
  const streams = given ?? opened
  if (!streams) throw new NoTerminalError()
  const keys = oneKeyPerRead(streams.input)
  try {
    return await input(
      {message, default: options.default, prefill: 'editable', validate: options.validate},
      {input: keys.stream, output: unendable(streams.output), signal: context?.signal},
    )
  } catch (error) {
    if (isPromptTerminated(error)) throw new PromptCancelledError('interrupted')
    throw error
  } finally {
    keys.stop()
    opened?.close()
  }
}

/** Inquirer ends the output it is given when done; the caller's stream must outlive one question. */
export function unendable(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.write(chunk, () => done())
    },
  })
}

type RawCapable = NodeJS.ReadableStream & {isRaw?: boolean; setRawMode?: (mode: boolean) => unknown}

/**
 * A stream that re-delivers `source` one key per chunk. Raw mode requests
 * pass through to the source (readline turns it on and off), with the undo
 * in the restore registry while it is on; it does not claim to be a TTY, so
 * inquirer keeps keys typed ahead of the question.
 */
export function oneKeyPerRead(source: NodeJS.ReadableStream, intercept?: (sequence: string) => boolean): {stream: PassThrough; stop(): void} {
  const raw = source as RawCapable
  let unregisterRaw: (() => void) | undefined
  const stream = Object.assign(new PassThrough(), {
    get isRaw() {
      return Boolean(raw.isRaw)
    },
    setRawMode(mode: boolean) {
      raw.setRawMode?.(mode)
      unregisterRaw?.()
      unregisterRaw = mode ? registerRestore({name: 'question', run: () => raw.setRawMode?.(false)}) : undefined
      return stream
    },
  })
  const keys = keyFeed((decoded) => {
    for (const {sequence} of decoded) if (sequence !== '' && !stream.destroyed && !intercept?.(sequence)) stream.write(sequence)
  })
  const onData = (chunk: Buffer | string) => keys.feed(chunk)
  const onEnd = () => stream.end()
  source.on('data', onData)
  source.on('end', onEnd)
  source.resume()
  return {
    stream,
    stop() {
      keys.stop()
      source.removeListener('data', onData)
      source.removeListener('end', onEnd)
      // Keys typed after this question wait for the next reader instead of being dropped.
      source.pause()
      stream.destroy()
      // The caller closes or reuses the source; raw mode is its business now.
      unregisterRaw?.()
      unregisterRaw = undefined
    },
  }
}
