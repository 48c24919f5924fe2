// localeOrder (text/collate.ts): the sign of String#localeCompare, without
// building ICU's collator for timestamps that differ first in a digit.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'
import {localeOrder} from '../../src/lib/text/collate.js'

const sign = (n: number) => Math.sign(n)

describe('localeOrder', () => {
  it('has the sign of localeCompare for ISO timestamps, equal-length or not', () => {
    const iso = fc.date({min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true}).map((d) => d.toISOString())
    fc.assert(fc.property(iso, iso, (a, b) => sign(localeOrder(a, b)) === sign(a.localeCompare(b))), {numRuns: 5000})
  })

  it('has the sign of localeCompare for strings of digits and punctuation, where code-unit order differs', () => {
    // Punctuation, case and letters are ordered otherwise by ICU than by code unit: those pairs must go to the collator.
    const text = fc.string({unit: fc.constantFrom(...'0123456789-:.TZ+_ aAbB'.split('')), maxLength: 12})
    fc.assert(fc.property(text, text, (a, b) => sign(localeOrder(a, b)) === sign(a.localeCompare(b))), {numRuns: 20_000})
    for (const [a, b] of [['a', 'B'], ['2024_1', '2024-1'], ['', '0'], ['10', '9'], ['x1', 'X2']]) expect(sign(localeOrder(a, b)), `${a} ${b}`).to.equal(sign(a.localeCompare(b)))
  })
})
