// A Ctrl+C cuts the answer where it stands (markdown/render.ts `cut`): what
// the renderer held back (a partial word, a line not yet placed) is shown
// before the menu opens, so the stored partial answer is all on screen. If
// the user goes on (`c`), `goOn` puts the renderer back as it was: the rest
// renders exactly as it would have after the menu broke the line, a word
// shown in part coming again whole below the menu.
import {expect} from 'chai'

import {CORPUS} from './corpus.js'
import {DEFAULTS} from './render-helpers.js'
import {createRenderer, type MarkdownRenderer} from '../../src/lib/markdown/index.js'

async function settle(r: MarkdownRenderer): Promise<string> {
  let out = ''
  while (r.waiting) {
    await r.waiting
    out += r.take()
  }
  return out
}

/** `a` pushed, then (cut and taken back, or not) the line broken, then `b`: what the renderer gives after `a`. */
async function rest(a: string, b: string, cut: boolean): Promise<{cutOut: string; after: string}> {
  const r = createRenderer({...DEFAULTS, columns: () => 40})
  r.push(a)
  await settle(r)
  let cutOut = ''
  if (cut) {
    cutOut = r.cut()
    r.goOn()
  } else r.lineBroken()
  let after = r.push(b) + (await settle(r))
  after += r.end() + (await settle(r))
  return {cutOut, after}
}

describe('markdown: an answer cut by the interrupt menu', function () {
  this.timeout(300_000)

  it('shows the word it held back, as if the text ended there', () => {
    const r = createRenderer({...DEFAULTS, color: false})
    const shown = r.push('Intro line.\n\nHello alpha be')
    expect(shown).not.to.include('be\n')
    expect(shown + r.cut()).to.include('Hello alpha be\n')
  })

  it('goes on after c exactly as a renderer never cut would after the menu broke its line, wherever the cut fell', async () => {
    let points = 0
    for (const {text} of CORPUS.slice(0, 12)) {
      for (let at = 1; at < text.length; at += 13) {
        if (/[\ud800-\udbff]/.test(text[at - 1])) continue
        const [a, b] = [text.slice(0, at), text.slice(at)]
        const cut = await rest(a, b, true)
        const never = await rest(a, b, false)
        expect(cut.after, `cut at ${at} of ${JSON.stringify(text.slice(0, 80))}`).to.equal(never.after)
        points++
      }
    }
    expect(points).to.be.greaterThan(100)
  })
})
