// The key redactor (issue 28, finding 14): whole, in pieces, base64 at any alignment.
import {expect} from 'chai'
import {REDACTED, redactor} from '../../src/lib/llm/redact.js'

const KEY = 'sk-ant-api03-Zq8mT4vX2nL9pR6wK3yH7cJ5bF1dG0aS'
const redact = redactor(KEY)
const b64 = (s: string) => Buffer.from(s).toString('base64')

describe('redactor', () => {
  it('removes the key, any 8+ character run of it, and leaves shorter runs and other text alone', () => {
    expect(redact(`bad key ${KEY}!`)).to.equal(`bad key ${REDACTED}!`)
    expect(redact(`key ${KEY.slice(0, 10)}...${KEY.slice(-8)} rejected`)).to.equal(`key ${REDACTED}...${REDACTED} rejected`)
    expect(redact(`sk-ant-a is a prefix`)).to.equal(`${REDACTED} is a prefix`)
    expect(redact('sk-ant- and api03 are too short to tell')).to.equal('sk-ant- and api03 are too short to tell')
    expect(redact('nothing secret here')).to.equal('nothing secret here')
  })

  it('removes the base64 of the key inside longer encoded values, at every byte alignment, both alphabets', () => {
    for (const wrapped of [`Bearer ${KEY}`, `user:${KEY}`, `x${KEY}`, `xy${KEY}`, KEY]) {
      for (const encoded of [b64(wrapped), Buffer.from(wrapped).toString('base64url')]) {
        const out = redact(`echo: ${encoded}`)
        expect(out, wrapped).to.include(REDACTED)
        // What is left is the encoding of the wrapper (`Bearer `) and a group at each end.
        expect(out.replace(`echo: `, '').replace(REDACTED, '').length, `${wrapped}: ${out}`).to.be.at.most(16)
      }
    }
  })

  it('is the identity without a key, and never grows a clean text', () => {
    expect(redactor(undefined)('Bearer abc')).to.equal('Bearer abc')
    expect(redactor('')('x')).to.equal('x')
  })
})
