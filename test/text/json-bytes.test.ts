// JSON as UTF-8 parts (text/json-bytes.ts): whatever the value (strings of
// any UTF-16 units, lone surrogates, controls; nesting; indentation), the
// parts joined are JSON.stringify's text as UTF-8, byte for byte, and a large
// string serialized twice (the query: its log record, then the request body)
// is escaped and encoded once.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'
import {jsonParts, partsLength, utf8Parts} from '../../src/lib/text/json-bytes.js'

const joined = (parts: Buffer[]) => Buffer.concat(parts)

describe('text: JSON as UTF-8 parts', () => {
  it('the parts are JSON.stringify as UTF-8, large strings spliced in or not, indented or not', () => {
    const text = fc.string({unit: 'binary', maxLength: 60})
    const value = fc.letrec((tie) => ({
      node: fc.oneof({depthSize: 'small'}, text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('node'), {maxLength: 4}), fc.dictionary(text, tie('node'), {maxKeys: 4})),
    })).node
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), fc.integer({min: 1, max: 20}), (v, space, largeChars) => {
        const parts = jsonParts(v, space, largeChars)
        expect(joined(parts).equals(Buffer.from(JSON.stringify(v, null, space), 'utf8'))).to.equal(true)
        expect(partsLength(parts)).to.equal(Buffer.byteLength(JSON.stringify(v, null, space)))
      }),
      {numRuns: 400},
    )
  })

  it('text longer than one part is encoded in pieces that join to its UTF-8 (astral characters never split)', () => {
    const text = 'naïve — 😀 "q"\n'.repeat(40 * 1024) // well over one inline part, three- and four-byte characters throughout
    const parts = utf8Parts(text)
    expect(joined(parts).toString('utf8')).to.equal(text)
    expect(joined(parts).equals(Buffer.from(text, 'utf8'))).to.equal(true)
  })

  it('a large string serialized again (its log record, then the request body) reuses the bytes of the first escape', () => {
    const query = 'a 200 MB query, in small: "quoted", tab\there, naïve —\n'.repeat(32 * 1024)
    const record = jsonParts({at: 1, event: {type: 'chat_request', content: query}})
    const body = jsonParts({model: 'm', messages: [{role: 'user', content: query}], stream: true})
    expect(JSON.parse(joined(record).toString('utf8')).event.content).to.equal(query)
    expect(JSON.parse(joined(body).toString('utf8')).messages[0].content).to.equal(query)
    const shared = record.filter((p) => body.includes(p))
    expect(partsLength(shared), 'the escaped query is the same Buffer in both').to.be.at.least(query.length)
  })
})
