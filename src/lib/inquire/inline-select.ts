// The git-style single-key menu (SPEC §6): `Message [c,r,s,a,?] `. One key
// press answers — no Enter — except Enter itself, which picks the default.
// `?` prints `key - description` lines and asks again; any other key prints
// `Invalid option` and the help. Ctrl+C rejects as 'interrupted' (the
// interrupt menu escalates on it), Esc as 'cancelled' (the menu continues),
// an end from outside (signal, hang-up, abort) as 'terminated'.
//
// An inquirer prompt on the vendored, patched core (like inlineReply). Its
// view is the transcript of the exchange so far, which only ever grows at
// the end: the painter then writes just the new characters with CR/LF and no
// cursor addressing, so the menu also works on TERM=dumb.
import {PromptCancelledError, isPromptTerminated, type InlineSelectConfig, type PromptContext} from './types.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {createPrompt, useKeypress, useState} from './vendor/inquirer-core/index.js'

type Answer = {key: string} | {cancelled: 'interrupted' | 'cancelled'}

interface SelectPromptConfig {
  keys: string[]
  default?: string
  /** The question line, `Message [c,r,s,a,?] `. */
  question: string
  /** `key - description` lines, each ending in a newline. */
  help: string
}

const selectPrompt = createPrompt<Answer, SelectPromptConfig>((config, done) => {
  const [transcript, setTranscript] = useState(config.question)
  const [answered, setAnswered] = useState(false)

  useKeypress((key) => {
    if (answered) return
    const answer = (chosen: string) => {
      setAnswered(true)
      setTranscript((t) => t + chosen)
      done({key: chosen})
    }
    if (key.ctrl && key.name === 'c' && !key.meta) {
      setAnswered(true)
      done({cancelled: 'interrupted'})
      return
    }
    if (key.name === 'escape') {
      setAnswered(true)
      done({cancelled: 'cancelled'})
      return
    }
    if (key.name === 'enter' && !key.meta && config.default !== undefined) {
      answer(config.default)
      return
    }
    const text = key.name === 'char' ? key.text : undefined
    if (text !== undefined && config.keys.includes(text)) {
      answer(text)
      return
    }
    if (text === '?') {
      setTranscript((t) => t + '?\n' + config.help + config.question)
      return
    }
    // Enter without a default just asks again; anything else is wrong.
    if (key.name === 'enter') {
      setTranscript((t) => t + '\n' + config.question)
      return
    }
    const shown = text !== undefined && text.trim() !== '' ? text : ''
    setTranscript((t) => t + shown + '\nInvalid option\n' + config.help + config.question)
  })

  return transcript
})

export async function inlineSelect(config: InlineSelectConfig, context?: PromptContext): Promise<string> {
  const keys = config.options.map((o) => o.key)
  if (config.default !== undefined && !keys.includes(config.default)) {
    throw new Error(`inlineSelect: default '${config.default}' is not one of the options [${keys.join(',')}]`)
  }
  // A multi-line message prints its body once, then prompts on its last line.
  // Messages quote untrusted text (tool names, parser errors): each line sanitized.
  const lines = config.message.split('\n').map((l) => sanitizeUntrusted(l))
  const promptLine = lines.pop()!
  const preamble = lines.length > 0 ? lines.join('\r\n') + '\r\n' : undefined
  let answer: Answer
  try {
    answer = await selectPrompt({keys, default: config.default, question: `${promptLine} [${[...keys, '?'].join(',')}] `, help: helpText(config)}, {...context, preamble})
  } catch (error) {
    // A terminating signal, a hang-up or an abort: nobody answered (and nobody pressed Ctrl+C).
    if (isPromptTerminated(error)) throw new PromptCancelledError('terminated')
    throw error
  }
  if ('cancelled' in answer) throw new PromptCancelledError(answer.cancelled)
  return answer.key
}

function helpText(config: InlineSelectConfig): string {
  let out = ''
  for (const o of config.options) out += `${o.key} - ${o.description}\n`
  if (config.default !== undefined) out += `Enter - same as ${config.default}\n`
  out += '? - print help\n'
  return out
}
