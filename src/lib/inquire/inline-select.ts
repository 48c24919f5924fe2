// The git-style single-key menu (SPEC §6): `Message [c,r,s,a,?] `. One key
// press answers — no Enter — except Enter itself, which picks the default.
// `?` prints `key - description` lines and asks again; any other key prints
// `Invalid option` and the help. Ctrl+C rejects as 'interrupted' (the
// interrupt menu escalates on it), Esc as 'cancelled' (the menu continues).
//
// Renders only on the terminal it is given (fresh /dev/tty by default) and
// only with CR/LF — no cursor addressing — so it works on TERM=dumb too.
import {runPrompt} from './tty.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {PromptCancelledError, type InlineSelectConfig, type PromptContext} from './types.js'

export function inlineSelect(config: InlineSelectConfig, context?: PromptContext): Promise<string> {
  const keys = config.options.map((o) => o.key)
  if (config.default !== undefined && !keys.includes(config.default)) {
    return Promise.reject(new Error(`inlineSelect: default '${config.default}' is not one of the options [${keys.join(',')}]`))
  }
  // A multi-line message prints its body once, then prompts on its last line.
  // Messages quote tool names and other untrusted text: each line sanitized.
  const lines = config.message.split('\n').map((l) => sanitizeUntrusted(l))
  const promptLine = lines.pop()!
  const body = lines.length > 0 ? lines.join('\r\n') + '\r\n' : ''
  const question = `${promptLine} [${[...keys, '?'].join(',')}] `
  const help = helpText(config)

  return runPrompt<string>(context, (io) => {
    io.write(body + question)
    const answer = (key: string) => io.write(key + '\r\n')
    return {
      onKey(key, settle) {
        if (key.ctrl && key.name === 'c' && !key.meta) {
          io.write('\r\n')
          settle({error: new PromptCancelledError('interrupted')})
          return
        }
        if (key.name === 'escape') {
          io.write('\r\n')
          settle({error: new PromptCancelledError('cancelled')})
          return
        }
        if (key.name === 'enter' && !key.meta && config.default !== undefined) {
          answer(config.default)
          settle({value: config.default})
          return
        }
        const text = key.name === 'char' ? key.text : undefined
        if (text !== undefined && keys.includes(text)) {
          answer(text)
          settle({value: text})
          return
        }
        if (text === '?') {
          io.write('?\r\n' + help + question)
          return
        }
        // Enter without a default just asks again; anything else is wrong.
        if (key.name === 'enter') {
          io.write('\r\n' + question)
          return
        }
        const shown = text !== undefined && text.trim() !== '' ? text : ''
        io.write(shown + '\r\nInvalid option\r\n' + help + question)
      },
      onTerminate(settle) {
        io.write('\r\n')
        settle({error: new PromptCancelledError('interrupted')})
      },
    }
  })
}

function helpText(config: InlineSelectConfig): string {
  let out = ''
  for (const o of config.options) out += `${o.key} - ${o.description}\r\n`
  if (config.default !== undefined) out += `Enter - same as ${config.default}\r\n`
  out += '? - print help\r\n'
  return out
}
