// Rows under the buffer (the `@` completion list, a refused send's reason):
// drawn between the buffer and the help line, cut to the width, never
// taking the cursor's row off the screen (render/frame.ts).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {BufferLayout} from '../../../src/lib/inquire/render/buffer-layout.js'
import {buildFrame, type ReplyView} from '../../../src/lib/inquire/render/frame.js'

const view = (over: Partial<ReplyView>): ReplyView => ({message: 'Q:', text: '@ma', cursor: 3, help: 'help', width: 20, height: 10, color: false, ...over})

describe('below-buffer rows', () => {
  it('sit between the buffer and the help line, the chosen one marked, each cut to the width', () => {
    const frame = buildFrame(view({below: [{text: 'src/main.ts', style: 'selected'}, {text: 'a/very/long/path/that/does/not/fit.ts'}]}), new BufferLayout())
    expect(frame.rows).to.deep.equal(['Q: @ma', '› src/main.ts', '  a/very/long/path…', 'help'])
    expect(frame.widths.every((w) => w <= 19)).to.equal(true)
    expect(frame.cursorRow).to.equal(0)
  })

  it('are styled with colour: inverse for the chosen row, dim for a note', () => {
    const frame = buildFrame(view({color: true, below: [{text: 'a', style: 'selected'}, {text: 'none', style: 'dim'}]}), new BufferLayout())
    expect(frame.rows.slice(1, 3)).to.deep.equal(['\x1b[7m› a\x1b[27m', '\x1b[2m  none\x1b[22m'])
  })

  it('give way on a short screen: the cursor row stays', () => {
    const below = Array.from({length: 8}, (_, i) => ({text: `f${i}`}))
    const frame = buildFrame(view({height: 4, text: 'a\nb\n@c', cursor: 6, below}), new BufferLayout())
    expect(frame.rows).to.have.length(4)
    expect(frame.rows[frame.cursorRow]).to.equal('… @c')
    expect(frame.rows.at(-1)).to.equal('help')
  })
})
