// A renderer may hand the rest of an answer to another one (the printer's
// render worker, printer/hand-off.ts) where it is idle: between blocks,
// everything returned. The new renderer, made with what `idle()` gives, must
// render the rest exactly as the first would have: the answer's bytes are
// the same wherever the hand-off happens.
import {expect} from 'chai'

import {CORPUS} from './corpus.js'
import {DEFAULTS, render, renderThrough} from './render-helpers.js'
import {createRenderer, type RendererOptions} from '../../src/lib/markdown/index.js'
import {textHeavyAnswer} from '../../bench/markdown.js'

/** Renders `text` with one renderer up to `at` (pushed whole) and, if it is idle there, another for the rest; undefined when not idle. */
async function handedOff(text: string, at: number, opts: Partial<RendererOptions>): Promise<string | undefined> {
  const first = createRenderer({...DEFAULTS, ...opts})
  let out = first.push(text.slice(0, at))
  while (first.waiting) {
    await first.waiting
    out += first.take()
  }
  const idle = first.idle()
  if (!idle) return undefined
  const second = createRenderer({...DEFAULTS, ...opts, ...idle})
  return out + (await renderThrough(second, [text.slice(at)]))
}

describe('markdown: handing the rest of an answer to another renderer', function () {
  this.timeout(300_000)

  for (const opts of [{columns: () => 40}, {columns: () => 100, color: false}, {columns: () => 57, hyperlinks: true}]) {
    it(`gives the one-shot bytes at every point where the renderer is idle (${opts.columns()} columns)`, async () => {
      let points = 0
      for (const {name, text} of CORPUS) {
        const whole = await render(text, opts)
        // Only at a line's end can nothing be pending (every other point is checked not idle by a sample).
        for (let at = 0; at <= text.length; at++) {
          if (at > 0 && text[at - 1] !== '\n' && at % 17 !== 0) continue
          const out = await handedOff(text, at, opts)
          if (out === undefined) continue
          points++
          if (out !== whole) expect(out, `${name}, handed off at ${at}`).to.equal(whole)
        }
      }
      // Idle points exist (between paragraphs, after a fence, a table, a heading)...
      expect(points).to.be.greaterThan(CORPUS.length * 3)
    })
  }

  it('is idle after a paragraph\'s blank line, never inside a fence, a list or a paragraph', () => {
    const r = createRenderer({...DEFAULTS, highlight: false})
    const at = (text: string) => (r.push(text), r.idle())
    expect(at('Some text'), 'in a paragraph').to.equal(undefined)
    expect(at(' more.\n'), 'at its end of line (a setext underline may follow)').to.equal(undefined)
    expect(at('\n'), 'after its blank line').to.deep.equal({continues: true, highlighted: false, highlightSpent: 0})
    expect(at('```\ncode\n\n'), 'in a fence, after a blank line').to.equal(undefined)
    expect(at('```\n\n'), 'after the fence').to.deep.equal({continues: true, highlighted: false, highlightSpent: 0})
    expect(at('- an item\n\n'), 'after a list item and a blank line (the list may go on)').to.equal(undefined)
    expect(at('Next'), 'a paragraph ends the list').to.equal(undefined)
    expect(at('\n\n'), 'after that paragraph').to.deep.equal({continues: true, highlighted: false, highlightSpent: 0})
    expect(createRenderer({...DEFAULTS}).idle(), 'before anything').to.deep.equal({continues: false, highlighted: false, highlightSpent: 0})
  })

  it('carries a loaded highlighter over: code in a later list item is highlighted as in one render', async () => {
    const text = 'Intro.\n\n```js\nconst x = 1\n```\n\nMiddle.\n\n- item\n\n  ```js\n  const y = 2\n  ```\n\nEnd.\n'
    const whole = await render(text)
    // The list's fence is highlighted (the first fence loaded the highlighter)...
    expect(whole.split('const y')[0]).to.match(/\u001b\[[0-9;]+mconst/)
    for (let at = text.indexOf('Middle'); at < text.indexOf('- item') + 1; at++) {
      const out = await handedOff(text, at, {})
      if (out !== undefined) expect(out, `handed off at ${at}`).to.equal(whole)
    }
    const first = createRenderer({...DEFAULTS})
    first.push(text.slice(0, text.indexOf('Middle')))
    while (first.waiting) await first.waiting
    first.take()
    expect(first.idle()).to.deep.equal({continues: true, highlighted: true, highlightSpent: 'const x = 1'.length})
  })

  it('gives the one-shot bytes for the bench answer handed off at its paragraph ends', async () => {
    const text = textHeavyAnswer(120_000)
    const whole = await render(text, {columns: () => 100})
    let tried = 0
    for (let at = text.indexOf('\n\n') + 2; at > 1 && tried < 40; at = text.indexOf('\n\n', at + 2987) + 2) {
      const out = await handedOff(text, at, {columns: () => 100})
      if (out === undefined) continue
      tried++
      expect(out, `handed off at ${at}`).to.equal(whole)
    }
    expect(tried).to.be.greaterThan(20)
  })
})
