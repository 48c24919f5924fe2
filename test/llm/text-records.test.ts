// Text-heavy streams read through record templates (llm/text-records.ts):
// whatever the text (quotes, controls, astral characters, lone surrogates
// split across records, a server's \u escapes), the envelope (constant, with
// a per-record nonce, with a role first) and the network's cut points (inside
// a UTF-8 character), the text is the text the server sent, and the bytes an
// event carries (its JSON body as sent, its UTF-8) decode to exactly that
// text: what is stored and printed from them is what was shown.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'
import {parseAnthropicStream} from '../../src/lib/llm/anthropic.js'
import {parseOpenAIStream} from '../../src/lib/llm/openai.js'
import {JsonTextBuffer} from '../../src/lib/conversation/streamed-chunk.js'
import {decodeBinary} from '../../src/lib/llm/text-records.js'
import type {StreamEvent} from '../../src/lib/llm/types.js'

type Escaping = 'json' | 'ascii' | 'html'

/** A JSON string of `text` as different servers write it: JSON.stringify, Python's ensure_ascii, Go's HTML-safe escaping. */
function literal(text: string, escaping: Escaping): string {
  const json = JSON.stringify(text)
  if (escaping === 'json') return json
  const re = escaping === 'ascii' ? /[^\x00-\x7f]/g : /[<>&]/g
  return json.replace(re, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The body as the network delivers it: UTF-8 bytes cut at `cuts`, each piece a binary string (as readText's latin1 yields it). */
function delivered(body: string | Buffer, cuts: number[]): string[] {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let at = 0
  for (const p of [...points, bytes.length]) {
    if (p > at) out.push(bytes.subarray(at, p).toString('latin1'))
    at = p
  }
  return out
}

async function* feed(chunks: string[]): AsyncGenerator<string> {
  for (const c of chunks) yield c
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = []
  for await (const e of stream) out.push(e)
  return out
}

/** What every text event's bytes say must be its text. */
function expectBytesAgree(events: StreamEvent[]): void {
  for (const e of events) {
    if (e.type !== 'text') continue
    if (e.json !== undefined) expect(JSON.parse(`"${decodeBinary(e.json)}"`), 'its JSON body reads back as its text').to.equal(e.text)
    if (e.utf8 !== undefined) expect(decodeBinary(e.utf8), 'its UTF-8 is its text').to.equal(e.text)
  }
}

const textOf = (events: StreamEvent[], type: 'text' | 'reasoning' = 'text') => events.map((e) => (e.type === type ? e.text : '')).join('')

/** Text pieces with the characters that matter here, and any UTF-16 units at all. */
const piece = fc.oneof(
  fc.string({unit: 'binary', maxLength: 30}),
  fc.constantFrom('plain words ', '"quoted"', 'back\\slash', 'tab\there', 'line\n', 'naïve — ', '😀', '\ud83d', '\ude00', '\u2028', '\ufffd', '<a href="x">&amp;</a>', '\u0000\u001f\u007f'),
)

function openAIRecord(content: string | undefined, escaping: Escaping, opts: {nonce?: number; role?: boolean; finish?: string}): string {
  const delta = content === undefined ? '{}' : `{${opts.role ? '"role":"assistant",' : ''}"content":${literal(content, escaping)}}`
  const nonce = opts.nonce === undefined ? '' : `,"obfuscation":"${'x'.repeat(opts.nonce % 5)}"`
  return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":${delta},"finish_reason":${opts.finish ? `"${opts.finish}"` : 'null'}}]${nonce}}\n\n`
}

describe('llm: text-heavy streams through record templates', () => {
  it('OpenAI format: any text, escaping, envelope and cut points give the text sent, and bytes that agree with it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, {minLength: 1, maxLength: 40}),
        fc.constantFrom<Escaping>('json', 'ascii', 'html'),
        fc.boolean(),
        fc.array(fc.nat(), {maxLength: 12}),
        async (pieces, escaping, withNonce, cuts) => {
          const body =
            openAIRecord('', escaping, {role: true}) +
            pieces.map((p, i) => openAIRecord(p, escaping, {nonce: withNonce ? i : undefined})).join('') +
            openAIRecord(undefined, escaping, {finish: 'stop'}) +
            'data: [DONE]\n\n'
          const events = await drain(parseOpenAIStream('openai', feed(delivered(body, cuts))))
          expect(textOf(events)).to.equal(pieces.join(''))
          expectBytesAgree(events)
          expect(events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop', raw: 'stop'})
        },
      ),
      {numRuns: 300},
    )
  })

  it('Anthropic format: text and thinking deltas, pings between them, any text and cut points', async () => {
    const sse = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`
    await fc.assert(
      fc.asyncProperty(fc.array(piece, {maxLength: 20}), fc.array(piece, {minLength: 1, maxLength: 30}), fc.array(fc.nat(), {maxLength: 12}), async (thinking, text, cuts) => {
        const body =
          sse('message_start', '{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":5,"output_tokens":1}}}') +
          sse('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}') +
          thinking.map((t) => sse('content_block_delta', `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":${JSON.stringify(t)}}}`)).join('') +
          sse('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}') +
          sse('content_block_stop', '{"type":"content_block_stop","index":0}') +
          sse('content_block_start', '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}') +
          text
            .map((t, i) => (i % 7 === 3 ? sse('ping', '{"type":"ping"}') : '') + sse('content_block_delta', `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":${JSON.stringify(t)}}}`))
            .join('') +
          sse('content_block_stop', '{"type":"content_block_stop","index":1}') +
          sse('message_delta', '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}') +
          sse('message_stop', '{"type":"message_stop"}')
        const events = await drain(parseAnthropicStream('anthropic', feed(delivered(body, cuts))))
        expect(textOf(events, 'reasoning')).to.equal(thinking.join(''))
        expect(events.filter((e) => e.type === 'reasoning' && e.signature !== undefined).map((e) => (e as {signature: string}).signature)).to.deep.equal(['sig'])
        expect(textOf(events)).to.equal(text.join(''))
        expectBytesAgree(events)
        expect(events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop', raw: 'end_turn'})
      }),
      {numRuns: 200},
    )
  })

  it('a stream of records that differ only in their text hands its text on as the bytes sent (JSON body and UTF-8), one event per read', async () => {
    const pieces = Array.from({length: 200}, (_, i) => `piece ${i}: "naïve" — 😀\n`)
    const body = openAIRecord('', 'json', {role: true}) + pieces.map((p) => openAIRecord(p, 'json', {})).join('') + openAIRecord(undefined, 'json', {finish: 'stop'}) + 'data: [DONE]\n\n'
    const reads = delivered(body, [body.length >> 1])
    const events = await drain(parseOpenAIStream('openai', feed(reads)))
    const texts = events.filter((e) => e.type === 'text')
    expect(texts.length, 'one text event per network read').to.be.at.most(reads.length)
    // The first read holds the record the template is learned from; the second is all template records.
    const last = texts.at(-1)!
    expect(last.json, 'the JSON body as the server sent it').to.be.a('string')
    expect(last.utf8, 'the UTF-8 as it arrived').to.be.a('string')
    expect(textOf(events)).to.equal(pieces.join(''))
    expectBytesAgree(events)
  })

  it('bytes that are not UTF-8 are shown as U+FFFD and the event then carries no bytes (storage takes the text shown)', async () => {
    const good = openAIRecord('ok ', 'json', {})
    // The same envelope (a template record), with 0xff (never UTF-8) and 0xe2 0x82 (a three-byte character cut short by the end of its string).
    const [head, tail] = good.split('"ok "')
    const bad = Buffer.concat([Buffer.from(`${head}"x`), Buffer.from([0xff, 0x20, 0xe2, 0x82]), Buffer.from(`"${tail}`)])
    const body = Buffer.concat([Buffer.from(good + good), bad, Buffer.from(good + openAIRecord(undefined, 'json', {finish: 'stop'}) + 'data: [DONE]\n\n')])
    const events = await drain(parseOpenAIStream('openai', feed(delivered(body, []))))
    expect(textOf(events)).to.equal('ok ok x\ufffd \ufffdok ')
    expectBytesAgree(events)
    for (const e of events) if (e.type === 'text' && e.text.includes('\ufffd')) expect([e.json, e.utf8]).to.deep.equal([undefined, undefined])
  })

  it('a character cut across two reads: each read shows U+FFFD, and what the log gathers from the events reads back as what was shown', async () => {
    const good = openAIRecord('ok ', 'json', {})
    const [head, tail] = good.split('"ok "')
    // '€' is e2 82 ac: its first two bytes end one record (and read), its last begins the next.
    // The first read teaches the template; the next two are template records only.
    const first = Buffer.concat([Buffer.from(good + `${head}"a`), Buffer.from([0xe2, 0x82]), Buffer.from(`"${tail}`)])
    const second = Buffer.concat([Buffer.from(`${head}"`), Buffer.from([0xac]), Buffer.from(`b"${tail}` + good + openAIRecord(undefined, 'json', {finish: 'stop'}) + 'data: [DONE]\n\n')])
    const events = await drain(parseOpenAIStream('openai', feed([good, first.toString('latin1'), second.toString('latin1')])))
    const shown = textOf(events)
    expect(shown).to.equal('ok ok a\ufffd\ufffdbok ')
    const log = new JsonTextBuffer()
    for (const e of events) if (e.type === 'text') log.add(e)
    expect(JSON.parse(`"${Buffer.from(log.view()).toString('utf8')}"`)).to.equal(shown)
  })

  it('a record with the template around it but no single string inside is read whole (two choices and a finish are not taken as text)', async () => {
    const head = 'data: {"choices":[{"index":0,"delta":{"content":'
    const tail = '},"finish_reason":null}]}\n\n'
    const crafted = `${head}"a"},"finish_reason":"length"},{"index":1,"delta":{"content":"b"${tail}`
    const body = `${head}"one "${tail}${head}"two "${tail}${crafted}data: [DONE]\n\n`
    const events = await drain(parseOpenAIStream('openai', feed(delivered(body, []))))
    expect(textOf(events)).to.equal('one two ab')
    expect(events.at(-1)).to.deep.equal({type: 'finish', reason: 'length', raw: 'length'})
  })

  it('a record that fits the template but is not JSON fails as before, naming it', async () => {
    const head = 'data: {"choices":[{"index":0,"delta":{"content":'
    const tail = '},"finish_reason":null}]}\n\n'
    const body = `${head}"one "${tail}${head}"two "${tail}${head}"bad\u0001"${tail}data: [DONE]\n\n`
    let error: unknown
    try {
      await drain(parseOpenAIStream('openai', feed(delivered(body, []))))
    } catch (e) {
      error = e
    }
    expect(String(error)).to.match(/openai: malformed stream chunk: \{"choices"/)
  })
})
