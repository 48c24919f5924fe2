// A list filtered as you type (the resume picker of `jp conversation use`
// and `jp query --resume`): stock @inquirer/prompts `search` on fresh
// /dev/tty streams, one key per read as for the plain questions
// (question.ts). Enter chooses, Up/Down move, Esc cancels (search itself
// has no Esc: the key is taken before it and ends the prompt), Ctrl+C is
// 'interrupted'. Row text is the caller's, already sanitized.
import {openTty} from '../terminal/tty.js'
import {oneKeyPerRead, unendable} from './question.js'
import {NoTerminalError} from './prompt-io.js'
import {isPromptTerminated, PromptCancelledError, type PromptContext} from './types.js'

export interface SearchChoice {
  value: string
  name: string
}

export interface SearchListOptions {
  /** Rows drawn at most (the list scrolls within them). */
  pageSize: number
  /** The rows matching what is typed ('' at first). */
  source: (term: string) => SearchChoice[]
}

/** The value chosen; rejects with PromptCancelledError('cancelled') on Esc, ('interrupted') on Ctrl+C. */
export async function searchList(message: string, options: SearchListOptions, context?: PromptContext): Promise<string> {
  const {search} = await import('@inquirer/prompts')
  const given = context?.input && context.output ? {input: context.input, output: context.output} : undefined
  const opened = given ? undefined : openTty()
  const streams = given ?? opened
  if (!streams) throw new NoTerminalError()
  const escape = new AbortController()
  // search ignores Enter (and Up/Down) while it refilters, and it refilters
  // after every typed key: keys that arrive together ("qwen⏎" typed ahead or
  // pasted) are handed over one per turn of the event loop, once the list of
  // the key before is in, so a fast Enter chooses instead of being dropped.
  const paced: string[] = []
  let pacing: NodeJS.Immediate | undefined
  const handOver = () => {
    pacing = undefined
    const sequence = paced.shift()
    if (sequence === undefined || keys.stream.destroyed) return
    keys.stream.write(sequence)
    if (paced.length > 0) pacing = setImmediate(handOver)
  }
  const keys = oneKeyPerRead(streams.input, (sequence) => {
    if (sequence === '\u001b') {
      escape.abort()
    } else {
      paced.push(sequence)
      pacing ??= setImmediate(handOver)
    }
    return true
  })
  const signal = context?.signal ? AbortSignal.any([context.signal, escape.signal]) : escape.signal
  try {
    return await search<string>(
      {
        message,
        pageSize: options.pageSize,
        source: async (term) => options.source(term ?? ''),
        theme: {style: {keysHelpTip: () => '↑↓ move • ⏎ choose • esc cancel'}},
      },
      {input: keys.stream, output: unendable(streams.output), signal, clearPromptOnDone: true},
    )
  } catch (error) {
    if (escape.signal.aborted) throw new PromptCancelledError('cancelled')
    if (isPromptTerminated(error)) throw new PromptCancelledError('interrupted')
    throw error
  } finally {
    if (pacing) clearImmediate(pacing)
    keys.stop()
    opened?.close()
  }
}
