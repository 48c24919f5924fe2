// Streamed text held as the log's bytes: whatever the pieces (quotes,
// control characters, astral characters, a surrogate pair split across two
// deltas), the bytes gathered are the JSON-string body of their
// concatenation, so the log record written around them reads back exactly.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'
import {chunkOf, chunkText, JsonTextBuffer} from '../../src/lib/conversation/streamed-chunk.js'

const decode = (bytes: Uint8Array) => JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as string

describe('conversation: streamed text as log bytes (JsonTextBuffer)', () => {
  it('gathers any pieces into the JSON body of their concatenation', () => {
    fc.assert(
      fc.property(fc.array(fc.string({unit: 'binary', maxLength: 40}), {maxLength: 30}), (pieces) => {
        const buffer = new JsonTextBuffer()
        for (const p of pieces) buffer.add(p)
        expect(decode(buffer.view())).to.equal(pieces.join(''))
      }),
    )
  })

  it('a surrogate pair split across two deltas reads back as the one character', () => {
    const buffer = new JsonTextBuffer()
    const [high, low] = ['😀'.charAt(0), '😀'.charAt(1)]
    buffer.add(`a "quoted"\\ ${high}`)
    buffer.add(`${low}\n\t\u0001 wörld —`)
    expect(decode(buffer.view())).to.equal('a "quoted"\\ 😀\n\t\u0001 wörld —')
  })

  it('grows past its first block, keeps what it held, and starts empty after clear', () => {
    const buffer = new JsonTextBuffer()
    const piece = 'naïve — '.repeat(1000)
    for (let i = 0; i < 40; i++) buffer.add(piece) // about 400 kB of UTF-8: several growths
    expect(decode(buffer.view())).to.equal(piece.repeat(40))
    buffer.clear()
    expect(buffer.view()).to.have.length(0)
    buffer.add('again')
    expect(decode(buffer.view())).to.equal('again')
  })

  it('a chunk whose text was not kept is decoded from its bytes', () => {
    const whole = chunkOf('line one\n"two" 😀')
    expect(chunkText(whole)).to.equal('line one\n"two" 😀')
    expect(chunkText({json: whole.json, text: 'line', whole: false})).to.equal('line one\n"two" 😀')
  })
})
