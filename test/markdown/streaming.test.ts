// The streaming guarantee (SPEC §18, RFD 089): the bytes rendered for an
// answer are the same whatever the chunking of the stream — every chunk size
// from 1 to 64 and random cut points — as rendering the whole answer at once.
import {expect} from 'chai'
import fc from 'fast-check'

import {CORPUS} from './corpus.js'
import {chunksOf, cutAt, plain, render, renderChunks} from './render-helpers.js'
import {cells} from '../../src/lib/markdown/wrap.js'
import {FORMAT_CHARS, placeholder} from '../../src/lib/markdown/rendered-format-chars.js'
import {createRenderer} from '../../src/lib/markdown/index.js'

describe('markdown: streamed bytes equal a one-shot render', function () {
  this.timeout(300_000)

  it('the corpus has at least 40 answers, covering the block kinds the issue lists', () => {
    expect(CORPUS.length).to.be.at.least(40)
    const all = CORPUS.map((a) => a.text).join('\n')
    for (const needle of ['```python', '|---', '- [ ]', '> ', '  - ', '漢字', '🎉', '======', '    make']) expect(all, needle).to.include(needle)
  })

  for (const width of [40, 100]) {
    it(`at ${width} columns: every chunk size from 1 to 64, for every answer`, async () => {
      for (const {name, text} of CORPUS) {
        const whole = await render(text, {columns: () => width})
        expect(whole, name).to.not.equal('')
        for (let size = 1; size <= 64; size++) {
          const streamed = await renderChunks(chunksOf(text, size), {columns: () => width})
          if (streamed !== whole) expect(streamed, `${name}, chunks of ${size}`).to.equal(whole)
        }
      }
    })
  }

  it('at random cut points (property), colour on and off', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({min: 0, max: CORPUS.length - 1}),
        fc.array(fc.nat(4000), {maxLength: 40}),
        fc.constantFrom(24, 57, 80),
        fc.boolean(),
        async (k, offsets, width, color) => {
          const {text} = CORPUS[k]
          const opts = {columns: () => width, color}
          const whole = await render(text, opts)
          expect(await renderChunks(cutAt(text, offsets), opts)).to.equal(whole)
        },
      ),
      {numRuns: 300},
    )
  })

  it('never writes a line wider than the terminal, but for a code line (the terminal soft-wraps it: test/markdown/copy.test.ts)', async () => {
    for (const width of [20, 40, 100]) {
      for (const {name, text} of CORPUS) {
        const out = plain(await render(text, {columns: () => width}))
        // Code lines as shown: format characters as their placeholders (SPEC §19).
        const source = text.split('\n').map((l) => l.replace(new RegExp(FORMAT_CHARS.source, 'gu'), placeholder))
        for (const line of out.split('\n')) {
          if (cells(line) > width) expect(source.some((l) => l.endsWith(line)), `${name} at ${width}: ${JSON.stringify(line)}`).to.equal(true)
        }
      }
    }
  })

  it('prose appears as it arrives: a one-line paragraph is shown before it ends', () => {
    const r = createRenderer({columns: () => 40, color: false, hyperlinks: false, codeTheme: 'ansi', highlight: false})
    const words = 'streaming prose should appear on the terminal while the model is still writing the very same line '.repeat(4)
    let shown = ''
    for (const w of words.split(/(?<= )/)) shown += r.push(w)
    // Everything but the last word or so is out before the paragraph ends.
    expect(shown.length).to.be.greaterThan(words.length - 20)
    expect(shown).to.include('streaming prose')
    r.end()
  })

  it('fenced code appears line by line, before the fence closes', () => {
    const r = createRenderer({columns: () => 40, color: false, hyperlinks: false, codeTheme: 'ansi', highlight: false})
    let shown = r.push('```\nline one\nline tw')
    expect(plain(shown)).to.include('\nline one\n')
    expect(plain(shown)).to.not.include('line tw')
    shown += r.push('o\n')
    expect(plain(shown)).to.include('\nline two\n')
    r.end()
  })

  it('a table is held until its last row (widths depend on every row), then shown whole', () => {
    const r = createRenderer({columns: () => 60, color: false, hyperlinks: false, codeTheme: 'ansi', highlight: false})
    expect(r.push('| a | b |\n|---|---|\n| 1 | 2 |\n')).to.equal('')
    const out = plain(r.push('| 333 | 4 |\n\n'))
    expect(out).to.include('│ 333 │ 4 │')
    r.end()
  })
})

describe('markdown: the highlighter loads only for code with a language', () => {
  it('an answer without a fenced language never asks for it; one with a fence does, once', async () => {
    const {MarkdownRenderer} = await import('../../src/lib/markdown/render.js')
    const {createParser} = await import('../../src/lib/markdown/index.js')
    const {createHighlighter} = await import('../../src/lib/markdown/highlight.js')
    let loads = 0
    const make = () =>
      new MarkdownRenderer({md: createParser(), columns: () => 60, color: true, hyperlinks: false, codeTheme: 'ansi', loadHighlighter: async () => (loads++, createHighlighter())})
    const prose = make()
    prose.push('# Title\n\nText, a list:\n\n- a\n- b\n\n```\nplain code\n```\n')
    prose.end()
    expect(loads).to.equal(0)
    const code = make()
    code.push('```js\nlet a = 1\n```\n\n```py\nb = 2\n```\n')
    code.end()
    while (code.waiting) await code.waiting
    expect(loads).to.equal(1)
    expect(plain(code.take())).to.include('\nlet a = 1\n').and.include('\nb = 2\n')
  })
})
