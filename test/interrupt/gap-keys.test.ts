// Keys typed between two phases of a turn (interrupt/gap-keys.ts): kept for
// the next listener only right after the last one went, never for a prompt.
import {expect} from 'chai'
import {GAP_MS, GapKeys} from '../../src/lib/interrupt/gap-keys.js'

describe('GapKeys', () => {
  let t = 0
  const clock = () => t
  beforeEach(() => (t = 1000))

  it('keeps keys typed just after the last listener went, for the next one; once', () => {
    const gap = new GapKeys(clock)
    gap.listenerGone()
    t += 5
    expect(gap.keep('k')).to.equal(true)
    expect(gap.keep('1')).to.equal(true)
    expect(gap.take()).to.equal('k1')
    expect(gap.take()).to.equal('')
  })

  it('drops keys when no listener went lately (type to queue off, or long after): as before', () => {
    const gap = new GapKeys(clock)
    expect(gap.keep('k')).to.equal(false)
    gap.listenerGone()
    t += GAP_MS
    expect(gap.keep('k')).to.equal(false)
    expect(gap.take()).to.equal('')
  })

  it('a prompt taking the terminal drops what was kept (keys typed before it must not answer it)', () => {
    const gap = new GapKeys(clock)
    gap.listenerGone()
    gap.keep('y')
    gap.drop()
    expect(gap.take()).to.equal('')
  })
})
