// The segmenter-free path of text/graphemes.ts: every character it treats as
// a grapheme of its own and one cell wide is that, by Intl.Segmenter and by
// string-width (the width the prompts use elsewhere), whatever its neighbours.
import {expect} from 'chai'
import stringWidth from 'string-width'
import {graphemeSegments, isSimpleText} from '../../src/lib/text/graphemes.js'

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'})
const clusters = (text: string) => [...segmenter.segment(text)].map((s) => ({index: s.index, segment: s.segment}))

/** Every BMP character isSimpleText accepts alone. */
function simpleCharacters(): string[] {
  const out: string[] = []
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c)
    if (isSimpleText(ch)) out.push(ch)
  }
  return out
}

describe('text/graphemes: simple text without the segmenter', () => {
  const simple = simpleCharacters()

  it('the set holds printable ASCII and the prompt chrome (the probe works)', () => {
    expect(simple).to.include.members(['a', ' ', '~', '·', '…', '•', '→', 'é'])
    expect(isSimpleText('Enter to send · Alt+Enter for newline')).to.equal(true)
    for (const not of ['\r', '\n', '\t', '\u00ad', '\u0301', '\u200b', '\u200d', '\u2028', '\u2066', '\ufe0f', '世', '⚠', '\ud83d']) expect(isSimpleText(not), JSON.stringify(not)).to.equal(false)
  })

  it('each simple character is one cell wide by string-width', () => {
    const wrong = simple.filter((ch) => stringWidth(ch) !== 1)
    expect(wrong.map((ch) => ch.charCodeAt(0).toString(16))).to.deep.equal([])
  })

  it('no two simple characters join into one cluster (each after each ASCII letter, itself and the ellipsis)', () => {
    const wrong: string[] = []
    for (const ch of simple) {
      for (const next of ['a', ch, '…', '·']) if (clusters(ch + next).length !== 2) wrong.push((ch + next).split('').map((c) => c.charCodeAt(0).toString(16)).join('+'))
    }
    expect(wrong).to.deep.equal([])
  })

  it('graphemeSegments is the segmenter\'s answer, simple text or not', () => {
    for (const text of ['', 'zqj', 'Enter to send · Alt+Enter', 'e\u0301 → 👍🏽 世界', 'a\r\nb', '¿qué…?']) {
      expect([...graphemeSegments(text)].map((s) => ({index: s.index, segment: s.segment})), text).to.deep.equal(clusters(text))
    }
  })
})
