// The preview of a table being read (markdown/render.ts `preview`, issue 40):
// what the table would show if the answer ended now, for the printer's
// live region. It is the bytes of the table (its blank line before it
// included) that a renderer fed the text so far and ended would write; ''
// outside a table; and it never changes what `push` returns.
import {expect} from 'chai'

import {CODE_HEAVY_ANSWERS} from '../../bench/lib/code-heavy.js'
import {createRenderer} from '../../src/lib/markdown/index.js'
import {DEFAULTS, render} from './render-helpers.js'

const TABLE = 'Intro.\n\n| Name | Size |\n|---|---:|\n| alpha | 1 |\n| beta with more words | 22 |\n| gamma | 333 |\n\nAfter.\n'

describe('markdown: the preview of a table being read', () => {
  it('is what the table so far renders as when the text ends there, at every point inside the table', async () => {
    const start = TABLE.indexOf('| Name')
    const end = TABLE.indexOf('\n\nAfter')
    const intro = await render(TABLE.slice(0, start))
    for (let at = TABLE.indexOf('\n', TABLE.indexOf('|---')) + 1; at <= end; at++) {
      const r = createRenderer({...DEFAULTS, highlight: false})
      const out = r.push(TABLE.slice(0, at))
      // Whatever it previews, the table itself is not written before its end.
      expect(out, `at ${at}`).to.not.include('Name')
      // The unfinished line counts once it starts as a row does.
      const source = TABLE.slice(0, at).replace(/\n[^\n|][^\n]*$/, '\n')
      const whole = await render(source)
      expect(r.preview(), `at ${at}`).to.equal(whole.slice(intro.length))
    }
  })

  it('is empty outside a table, and when the table has ended', () => {
    const r = createRenderer({...DEFAULTS, highlight: false})
    r.push('Some prose and a line\n\n| Name | Size |\n')
    // A header without its delimiter row is not yet a table.
    expect(r.preview()).to.equal('')
    r.push('|---|---|\n| a | b |\n')
    expect(r.preview()).to.include('Name')
    r.push('\nAfter.\n')
    expect(r.preview()).to.equal('')
  })

  it('leaves what push returns as it was: asking for a preview after every chunk gives the bytes of a renderer never asked', async () => {
    for (const answer of CODE_HEAVY_ANSWERS) {
      const asked = createRenderer({...DEFAULTS, highlight: false})
      let out = ''
      for (let i = 0; i < answer.length; i += 5) {
        out += asked.push(answer.slice(i, i + 5))
        asked.preview()
      }
      out += asked.end()
      expect(out).to.equal(await render(answer, {highlight: false}))
    }
  })
})
