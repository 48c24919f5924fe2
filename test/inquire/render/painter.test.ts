// The painter writes what a frame asks of the terminal beyond its rows — the
// cursor's shape, a cleared screen, the cursor saved before an editor —
// in the same write as the rows, so no prompt spells a sequence itself.
import {expect} from 'chai'
import {Painter} from '../../../src/lib/inquire/render/painter.js'

function painter(): {p: Painter; writes: string[]} {
  const writes: string[] = []
  return {p: new Painter({write: (d: string) => writes.push(d)}, 80), writes}
}

const frame = (text: string, cursorShape?: 'bar' | 'block') => ({rows: [text], widths: [text.length], cursorRow: 0, cursorCol: text.length, cursorShape})

describe('Painter: what a frame asks of the terminal', () => {
  it('writes a frame\'s cursor shape before its rows, once, and again after a reset (someone else drew)', () => {
    const {p, writes} = painter()
    p.paint(frame('Reply: a', 'bar'))
    p.paint(frame('Reply: ab', 'bar'))
    p.paint(frame('Reply: ab', 'block'))
    p.reset()
    p.paint(frame('Reply: ab', 'block'))
    expect(writes).to.deep.equal(['\x1b[6 qReply: a', 'b', '\x1b[2 q', '\x1b[2 qReply: ab'])
  })

  it('a frame without a shape leaves the cursor as it is', () => {
    const {p, writes} = painter()
    p.paint(frame('Menu'))
    expect(writes).to.deep.equal(['Menu'])
  })

  it('clearScreen: the next paint clears the screen and draws the whole frame at the top, in one write', () => {
    const {p, writes} = painter()
    p.paint(frame('Reply: abc'))
    p.clearScreen()
    expect(writes).to.have.length(1)
    p.paint(frame('Reply: abc'))
    expect(writes[1]).to.equal('\x1b[H\x1b[2JReply: abc')
  })

  it('backToSavedCursor returns to the cursor saved before an editor and erases below; the next paint draws everything', () => {
    const {p, writes} = painter()
    p.paint(frame('Reply: x'))
    p.backToSavedCursor()
    p.paint(frame('Reply: x'))
    expect(writes.slice(1)).to.deep.equal(['\x1b8\x1b[J', 'Reply: x'])
  })

  it('eraseLine erases the line the first frame starts on', () => {
    const {p, writes} = painter()
    p.eraseLine()
    p.paint(frame('Q'))
    expect(writes).to.deep.equal(['\r\x1b[2K', 'Q'])
  })
})
