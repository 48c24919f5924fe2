// The block quick paths of render.ts — a table cell painted once into its
// words and laid out at each width without a LineWrapper, a heading of plain
// words written straight, a plain list item's words given to the wrapper as
// a paragraph's plain segment — must give the bytes of the general path
// (`quick: false`: every cell through a LineWrapper, every heading and item
// through markdown-it). The inputs are mostly what those paths take (plain
// ASCII words, one space apart), with what makes them refuse mixed in.
import {expect} from 'chai'
import fc from 'fast-check'

import {isPlainAscii} from '../../src/lib/markdown/quick-inline.js'
import {render} from './render-helpers.js'

/** Words the quick paths take, words they refuse (width, syntax, spacing), and words of several pieces. */
const PLAIN = ['a', 'the', 'Renderer', 'x', '42', 'a.b', 'end.', '(p)', '"q"', "it's", 'one/two', 'C#', 'x-y', 'supercalifragilistic', 'a-very-long-word-wider-than-narrow-columns-and-then-some']
const OTHER = ['**bold**', '**two words**', '*em*', '`code()`', '`a b`', '[link](https://example.com/x)', 'https://example.com/x', '~~gone~~', 'café', 'naïve', '日本語', '🎉', '—', '\\|', 'a\\|b', '&amp;', '\\*', 'foo//bar', '**a**b', 'a**b**', 'x`y`']
const SPACES = [' ', ' ', ' ', ' ', '  ', '\t']

const words = (other: number) =>
  fc.array(fc.tuple(fc.integer({min: 0, max: 99}), fc.constantFrom(...PLAIN), fc.constantFrom(...OTHER), fc.constantFrom(...SPACES)), {minLength: 0, maxLength: 24}).map((ws) =>
    ws.map(([r, p, o, s], k) => (k > 0 ? s : '') + (r < other ? o : p)).join(''),
  )

const OPTION_SETS = [
  {columns: () => 100},
  {columns: () => 40, color: false},
  {columns: () => 24, hyperlinks: true},
  {columns: () => 12},
  {columns: () => 57, base: {dim: true}},
]

async function same(text: string, set: number): Promise<void> {
  const opts = OPTION_SETS[set]
  expect(await render(text, opts), JSON.stringify(text)).to.equal(await render(text, {...opts, quick: false}))
}

describe('markdown: the block quick paths render the general path’s bytes', () => {
  it('tables of plain, styled, linked and wide cells, at widths that fit, wrap, cut and fall back to records (property)', async () => {
    let plainCells = 0
    const cell = fc.oneof(words(15), words(60), fc.constantFrom('', ' ', 'x'))
    const table = fc.tuple(fc.integer({min: 1, max: 5}), fc.array(cell, {minLength: 30, maxLength: 30}), fc.integer({min: 0, max: 5})).map(([n, cells, body]) => {
      const line = (cs: string[]) => '| ' + cs.join(' | ') + ' |'
      const lines = [line(cells.slice(0, n)), '|' + Array.from({length: n}, (_, k) => ['---', ':---', '---:', ':-:'][k % 4]).join('|') + '|']
      for (let r = 0; r < body; r++) lines.push(line(cells.slice(n + r * n, n + (r + 1) * n)))
      for (const c of cells) if (c !== '' && isPlainAscii(c.trim())) plainCells++
      return lines.join('\n')
    })
    await fc.assert(
      fc.asyncProperty(table, fc.integer({min: 0, max: OPTION_SETS.length - 1}), async (src, set) => same(`${src}\n\nafter\n`, set)),
      {numRuns: 1500},
    )
    expect(plainCells).to.be.greaterThan(5000)
  })

  it('headings of every level, plain or not, that fit their line or wrap (property)', async () => {
    let plain = 0
    const heading = fc.tuple(fc.integer({min: 1, max: 6}), fc.constantFrom(' ', '  ', ' \t'), fc.oneof(words(0), words(20)), fc.constantFrom('', ' ', '\t', ' #')).map(([level, gap, text, tail]) => {
      if (isPlainAscii(text)) plain++
      return '#'.repeat(level) + gap + text + tail
    })
    await fc.assert(
      fc.asyncProperty(fc.array(heading, {minLength: 1, maxLength: 4}), fc.integer({min: 0, max: OPTION_SETS.length - 1}), async (hs, set) => same(hs.join('\n\n') + '\n\nafter\n', set)),
      {numRuns: 1500},
    )
    expect(plain).to.be.greaterThan(1000)
  })

  it('list items, bullet and ordered, plain or not, short or wrapping (property)', async () => {
    const item = fc.tuple(fc.constantFrom('- ', '* ', '+ ', '1. ', '7) ', '-  ', '-    ', '123456789. '), fc.constantFrom('A', 'x', '"', "'", '(', '[ ] ', '`'), fc.oneof(words(0), words(20)), fc.constantFrom('', ' ', '\t'))
    const list = fc.array(item, {minLength: 1, maxLength: 5}).map((items) => items.map(([m, c, t, tail]) => m + c + t + tail).join('\n'))
    await fc.assert(
      fc.asyncProperty(fc.array(list, {minLength: 1, maxLength: 3}), fc.integer({min: 0, max: OPTION_SETS.length - 1}), async (ls, set) => same(ls.join('\n\n') + '\n\nafter\n', set)),
      {numRuns: 1500},
    )
  })
})
