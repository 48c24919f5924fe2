// The baseline every streaming target is measured against (SPEC §15): bare
// fetch + eventsource-parser feed() + JSON.parse, summing the text it carries.
import {createParser} from 'eventsource-parser'

export interface BareStreamResult {
  textChars: number
  events: number
}

export async function bareOpenAIStream(baseUrl: string): Promise<BareStreamResult> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({model: 'bench', messages: [{role: 'user', content: 'go'}], stream: true}),
  })
  let textChars = 0
  let events = 0
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return
      const chunk = JSON.parse(event.data) as {choices: {delta?: {content?: string | null}}[]}
      events++
      const content = chunk.choices[0]?.delta?.content
      if (typeof content === 'string') textChars += content.length
    },
  })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const {done, value} = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, {stream: true}))
  }
  return {textChars, events}
}

/**
 * The same loop as a plain JavaScript module (`node --input-type=module -e`),
 * so a baseline process loads no TypeScript loader: argv[1] is the base URL;
 * it prints the number of text characters it saw.
 */
export const BARE_STREAM_SCRIPT = `
import {createParser} from 'eventsource-parser'
const res = await fetch(process.argv[1] + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({model: 'bench', messages: [{role: 'user', content: 'go'}], stream: true})})
let textChars = 0
const parser = createParser({onEvent(event) {
  if (event.data === '[DONE]') return
  const content = JSON.parse(event.data).choices[0]?.delta?.content
  if (typeof content === 'string') textChars += content.length
}})
const reader = res.body.getReader()
const decoder = new TextDecoder()
for (;;) { const {done, value} = await reader.read(); if (done) break; parser.feed(decoder.decode(value, {stream: true})) }
process.stdout.write(String(textChars))
`

/**
 * The tail of a bare client (an ES module with createParser imported and
 * \`messages\` defined): POST them with fetch, read the SSE answer with
 * eventsource-parser and JSON.parse, print its text. argv[1] is the base URL.
 */
export const BARE_CHAT_STREAM = `
const res = await fetch(process.argv[1] + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({model: 'bench', messages, stream: true})})
let text = ''
const parser = createParser({onEvent(event) {
  if (event.data === '[DONE]') return
  const content = JSON.parse(event.data).choices[0]?.delta?.content
  if (typeof content === 'string') text += content
}})
const reader = res.body.getReader()
const decoder = new TextDecoder()
for (;;) { const {done, value} = await reader.read(); if (done) break; parser.feed(decoder.decode(value, {stream: true})) }
process.stdout.write(text)
`

/**
 * The bare client for a piped query (plain JavaScript, as above): reads all
 * of stdin, sends it as the user message with fetch, reads the SSE answer
 * and prints it. argv[1] is the base URL.
 */
export const BARE_STDIN_SCRIPT = `
import {createParser} from 'eventsource-parser'
const chunks = []
for await (const c of process.stdin) chunks.push(c)
const query = Buffer.concat(chunks).toString('utf8')
const messages = [{role: 'user', content: query}]
${BARE_CHAT_STREAM}`
