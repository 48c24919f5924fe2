// The queued reply's line (SPEC §19): its text, cut to the width, and the
// bytes it writes — drawn again only when what it shows changes; the status
// row below it comes, ticks and goes without touching it.
import {expect} from 'chai'
import {QueueLine, queueLineText} from '../../src/lib/printer/queue-line.js'

describe('the queued reply’s line', () => {
  it('shows the first non-blank line, cut with … so that the whole fits the width', () => {
    expect(queueLineText('\nstop, use the other file\nand more', 80)).to.equal('⧗ queued: stop, use the other file · q to edit')
    const cut = queueLineText('x'.repeat(200), 40)
    // ⧗ is counted as two cells (the conservative count of the status line): 39 characters, at most 40 cells.
    expect(cut).to.equal(`⧗ queued: ${'x'.repeat(16)}… · q to edit`)
    // Wide characters count two cells.
    expect(queueLineText('日本語のテキスト'.repeat(10), 30)).to.equal('⧗ queued: 日本語… · q to edit')
  })

  it('is drawn once; the same text again, or the status ticking below it, never redraws it', () => {
    const out: string[] = []
    const line = new QueueLine('first', {write: (d) => out.push(d), columns: () => 80, color: true})
    line.redraw()
    line.update('first')
    line.setStatus('⏱ Running t… 0.1s')
    line.setStatus('⏱ Running t… 0.2s')
    line.setStatus(undefined)
    const all = out.join('')
    expect(all.split('queued:').length - 1).to.equal(1)
    expect(out[0]).to.equal('\u001b[2m⧗ queued: first · q to edit\u001b[22m\r')
    line.update('second')
    expect(out.at(-1)).to.equal('\u001b[2m⧗ queued: second · q to edit\u001b[22m\r')
  })

  it('plain text when colour is off; clear erases every row it drew (the status row too)', () => {
    const out: string[] = []
    const line = new QueueLine('a', {write: (d) => out.push(d), columns: () => 80, color: false})
    line.redraw()
    line.setStatus('⏱ x')
    line.clear()
    expect(out).to.deep.equal(['⧗ queued: a · q to edit\r', '\r\n⏱ x\r', '\r\u001b[1A\u001b[J'])
  })
})
