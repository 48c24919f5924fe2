// The reply prompt's frame: the incremental layout (lines following the
// editor's changes, layouts extended in place, a line-anchored viewport) must
// draw exactly what a layout made from scratch draws, whatever was typed.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'

import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import {createEditMode} from '../../../src/lib/inquire/edit-mode/index.js'
import {KeyDecoder} from '../../../src/lib/inquire/keys.js'
import {BufferLayout} from '../../../src/lib/inquire/render/buffer-layout.js'
import {buildFrame, TOP, type ReplyView, type ScrollTop} from '../../../src/lib/inquire/render/frame.js'
import {cursorIn, extendLine, rowCount, wrapLine} from '../../../src/lib/inquire/render/layout.js'

const E = '\x1b'
const KEYS = ['a', 'b', ' ', 'é', '世', '👍', 'e\u0301', '\t', '\r', E + '\r', '\x7f', E + '[D', E + '[C', E + '[A', E + '[B', '\x01', '\x05', '\x0b', '\x15', '\x17', '\x19', '\x1f', E + '<', E + '>', E + '[200~pasted\nlines\n' + E + '[201~', 'xxxxxxxxxxxxxxxxxxxxxx']

function view(editor: LineEditor, width: number, height: number, source = true): ReplyView {
  return {message: 'R:', text: editor.text, cursor: editor.cursor, source: source ? editor : undefined, help: 'help', width, height, color: false}
}

describe('reply frame layout', () => {
  it('incremental frames equal frames laid out from scratch, viewport and all', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...KEYS), {maxLength: 80}), fc.integer({min: 8, max: 40}), fc.integer({min: 3, max: 12}), (keys, width, height) => {
        const editor = new LineEditor('start\nof the buffer')
        const mode = createEditMode('emacs')
        const layout = new BufferLayout()
        let top: ScrollTop = TOP
        let freshTop: ScrollTop = TOP
        for (const bytes of keys) {
          const d = new KeyDecoder()
          for (const k of [...d.feed(bytes), ...d.flush()]) mode.handle(k, editor)
          const frame = buildFrame(view(editor, width, height), layout, top)
          const fresh = buildFrame(view(editor, width, height, false), new BufferLayout(), freshTop)
          expect(frame).to.deep.equal(fresh)
          top = frame.scrollTop
          freshTop = fresh.scrollTop
          // The cursor is always on screen, above the help row.
          expect(frame.cursorRow).to.be.within(0, Math.max(0, frame.rows.length - 2))
          expect(frame.rows.length).to.be.at.most(height)
          const all = buildFrame(view(editor, width, height), layout, TOP, false)
          expect(all).to.deep.equal(buildFrame(view(editor, width, height, false), new BufferLayout(), TOP, false))
        }
      }),
      {numRuns: 150},
    )
  })

  it('extending a line in place equals wrapping it whole, ASCII or not', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('a', 'bc', 'é', '世界', '\u0301', '\u200d👩', '👨', '\t', ' '), fc.string({maxLength: 5})), {maxLength: 30}), fc.integer({min: 1, max: 12}), fc.integer({min: 1, max: 12}), (parts, first, rest) => {
        const l = wrapLine('', first, rest)
        for (const p of parts) extendLine(l, p)
        const whole = wrapLine(parts.join(''), first, rest)
        expect(l).to.deep.equal(whole)
        for (let at = 0; at <= whole.text.length; at++) expect(cursorIn(l, at)).to.deep.equal(cursorIn(whole, at))
      }),
    )
  })

  it('a row exactly full is followed by an empty row for the cursor', () => {
    const l = wrapLine('abcd', 4, 4)
    expect(rowCount(l)).to.equal(2)
    expect(cursorIn(l, 4)).to.deep.equal({row: 1, col: 0})
    expect(cursorIn(l, 3)).to.deep.equal({row: 0, col: 3})
  })

  it('the viewport stays put while the cursor moves inside it, and follows it out', () => {
    const text = Array.from({length: 30}, (_, i) => `line ${i}`).join('\n')
    const editor = new LineEditor(text)
    const layout = new BufferLayout()
    let frame = buildFrame(view(editor, 40, 6), layout)
    // 5 buffer rows + help; the cursor (end) on the last of them.
    expect(frame.rows.slice(0, 5)).to.deep.equal(['… line 25', '… line 26', '… line 27', '… line 28', '… line 29'])
    editor.moveUp()
    editor.moveUp()
    frame = buildFrame(view(editor, 40, 6), layout, frame.scrollTop)
    expect(frame.rows[0]).to.equal('… line 25')
    expect(frame.cursorRow).to.equal(2)
    for (let i = 0; i < 5; i++) editor.moveUp()
    frame = buildFrame(view(editor, 40, 6), layout, frame.scrollTop)
    expect(frame.rows[0]).to.equal('… line 22')
    expect(frame.cursorRow).to.equal(0)
  })
})
