// Rendering never blocks jp (SPEC §19, issue 34): a code line too long to
// highlight in time is shown plain, a delimiter run no one writes is text,
// and a long code line is cut in one pass — each decided by the text alone,
// so the bytes stay the same under any chunking. The pathological
// inputs, at sizes a test can afford (bench/markdown-pathological.ts runs them whole).
import {expect} from 'chai'
import fc from 'fast-check'

import {HIGHLIGHT_ANSWER_MAX, HIGHLIGHT_LINE_MAX} from '../../src/lib/markdown/render.js'
import {createRenderer} from '../../src/lib/markdown/index.js'
import {chunksOf, cutAt, plain, render, renderChunks} from './render-helpers.js'

const INPUTS: Record<string, string> = {
  'perl s/ + 5,000 a': '```perl\ns/' + 'a'.repeat(5_000) + '\nmy $x = 1;\n```\n',
  'R 1e × 3,000': '```r\n' + '1e'.repeat(3_000) + '\nx <- 1\n```\n',
  '200 kB one-line fence, no language': '```\n' + 'x'.repeat(200_000) + '\n```\n',
  '5,000 nested emphases': '*'.repeat(5_000) + 'x' + '*'.repeat(5_000) + '\n\nafter\n',
  'TypeScript-heavy': ('```ts\nconst m: Map<string, number[]> = new Map() // c\nfunction f<T>(a: T): T { return a }\n'.repeat(200) + '```\n\nText.\n\n').repeat(3),
}

describe('markdown: the rendering budget (decided by the text, not the clock)', function () {
  this.timeout(120_000)

  for (const [name, text] of Object.entries(INPUTS)) {
    it(`${name}: finishes, and gives the same bytes at any chunking`, async () => {
      const whole = await render(text, {columns: () => 80})
      expect(plain(whole).length).to.be.greaterThan(0)
      for (const size of [1, 7, 64, 4096]) {
        if (size === 1 && text.length > 20_000) continue
        expect(await renderChunks(chunksOf(text, size), {columns: () => 80}), `chunks of ${size}`).to.equal(whole)
      }
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(text.length), {maxLength: 12}), async (offsets) => {
          expect(await renderChunks(cutAt(text, offsets), {columns: () => 80})).to.equal(whole)
        }),
        {numRuns: 10},
      )
    })
  }

  it('a code line longer than the budget is shown plain; the lines around it are highlighted', async () => {
    const long = 'my $s = "' + 'a'.repeat(HIGHLIGHT_LINE_MAX) + '";'
    const out = await render('```perl\nmy $x = 1;\n' + long + '\nmy $y = 2;\n```\n', {columns: () => 5000})
    const lines = out.split('\n')
    const first = lines.findIndex((l) => l.includes('aaaa'))
    const last = lines.findLastIndex((l) => l.includes('aaaa'))
    // Its text has no colour.
    for (let k = first; k <= last; k++) expect(lines[k], JSON.stringify(lines[k].slice(0, 60))).to.not.include('\u001b[')
    expect(lines[first - 1]).to.include('\u001b[35mmy') // keyword colour: highlighted
    expect(lines[last + 1]).to.include('\u001b[35mmy')
  })

  it('code past the answer\'s highlighting budget is plain, wherever the answer was chunked or handed to another renderer', async () => {
    const block = '```ts\n' + 'const m: Map<string, number[]> = new Map() // c\n'.repeat(500) + '```\n\n'
    const text = block.repeat(Math.ceil(HIGHLIGHT_ANSWER_MAX / (block.length - 20)) + 2)
    const whole = await render(text, {columns: () => 100})
    const rows = whole.split('\n').filter((l) => l.includes('const'))
    expect(rows[0]).to.include('\u001b[')
    expect(rows.at(-1)).to.not.include('\u001b[')
    const firstPlain = rows.findIndex((l) => !l.includes('\u001b['))
    const line = 'const m: Map<string, number[]> = new Map() // c'.length
    expect(firstPlain).to.equal(Math.ceil(HIGHLIGHT_ANSWER_MAX / line))
    expect(await renderChunks(chunksOf(text, 4096), {columns: () => 100})).to.equal(whole)
    // Handed to another renderer between two blocks past the first (as to the render worker): it counts on.
    const at = 3 * block.length
    const first = createRenderer({columns: () => 100, color: true, hyperlinks: false, codeTheme: 'ansi'})
    let out = first.push(text.slice(0, at))
    while (first.waiting) {
      await first.waiting
      out += first.take()
    }
    const idle = first.idle()
    expect(idle?.highlightSpent).to.be.greaterThan(0)
    expect(out + (await renderChunks([text.slice(at)], {columns: () => 100, ...idle}))).to.equal(whole)
  })

  it('a run of more than 64 emphasis delimiters is text, not 25,000 nested emphases', async () => {
    const out = await render('*'.repeat(100) + 'x' + '*'.repeat(100) + '\n', {columns: () => 400})
    expect(plain(out).trim()).to.equal('*'.repeat(100) + 'x' + '*'.repeat(100))
  })
})
