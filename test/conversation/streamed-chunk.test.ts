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
        for (const p of pieces) buffer.add({text: p})
        expect(decode(buffer.view())).to.equal(pieces.join(''))
      }),
    )
  })

  it('a surrogate pair split across two deltas reads back as the one character', () => {
    const buffer = new JsonTextBuffer()
    const [high, low] = ['😀'.charAt(0), '😀'.charAt(1)]
    buffer.add({text: `a "quoted"\\ ${high}`})
    buffer.add({text: `${low}\n\t\u0001 wörld —`})
    expect(decode(buffer.view())).to.equal('a "quoted"\\ 😀\n\t\u0001 wörld —')
  })

  it('grows past its first block only when a piece does not fit, keeps what it held, and starts empty after clear', () => {
    const buffer = new JsonTextBuffer(64 * 1024)
    const piece = 'naïve — '.repeat(1000)
    for (let i = 0; i < 40; i++) buffer.add({text: piece}) // about 400 kB of UTF-8: more than it was made for
    expect(buffer.capacity).to.be.above(64 * 1024)
    expect(decode(buffer.view())).to.equal(piece.repeat(40))
    buffer.clear()
    expect(buffer.view()).to.have.length(0)
    buffer.add({text: 'again'})
    expect(decode(buffer.view())).to.equal('again')
  })

  it('is allocated once at the size it is made for: filling it to that size never reallocates it', () => {
    const buffer = new JsonTextBuffer(1024 * 1024)
    const piece = 'x'.repeat(16 * 1024)
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 64; i++) buffer.add({text: piece}) // exactly 1 MiB
      expect(buffer.view()).to.have.length(1024 * 1024)
      buffer.clear()
    }
    expect(buffer.capacity).to.equal(1024 * 1024)
  })

  it('copies a piece that comes with its JSON body as it is (binary string), without escaping its text again', () => {
    const buffer = new JsonTextBuffer()
    const text = 'caf\u00e9 "q" — 😀\n'
    // The server's own escaping (\u00e9) is kept; the bytes are what it sent.
    const json = Buffer.from('caf\\u00e9 \\"q\\" — 😀\\n', 'utf8').toString('latin1')
    buffer.add({text: 'not read: the body is used', json})
    buffer.add({text: ' tail'})
    expect(Buffer.from(buffer.view()).toString('utf8')).to.equal('caf\\u00e9 \\"q\\" — 😀\\n tail')
    expect(decode(buffer.view())).to.equal(`${text} tail`)
  })

  it('a chunk whose text was not kept is decoded from its bytes', () => {
    const whole = chunkOf('line one\n"two" 😀')
    expect(chunkText(whole)).to.equal('line one\n"two" 😀')
    expect(chunkText({json: whole.json, text: 'line', whole: false})).to.equal('line one\n"two" 😀')
  })
})
