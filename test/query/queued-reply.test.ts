// The queued reply's slot over the draft file (query/reply-slot.ts): the
// file ends as the slot is, whatever the order its writes were started in.
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {QueuedReplyDraft} from '../../src/lib/query/reply-slot.js'

describe('QueuedReplyDraft', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'jp-slot-'))))
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('a reply put back (a discarded turn’s) while another is being queued: the draft keeps both (writes one at a time)', async () => {
    const path = join(dir, 'QUERY_MESSAGE.md')
    const slot = await QueuedReplyDraft.open(path, 'q')
    await Promise.all([slot.set('second'), slot.restore('first')])
    expect(readFileSync(path, 'utf8')).to.equal('first\n\nsecond\n')
    await Promise.all([slot.set('third'), slot.restore('again')])
    expect(readFileSync(path, 'utf8')).to.equal('first\n\nagain\n\nthird\n')
  })

  it('a reply taken for a step stays in the draft until it is stored (delivered), what is queued after it stays', async () => {
    const path = join(dir, 'QUERY_MESSAGE.md')
    const slot = await QueuedReplyDraft.open(path, 'q')
    await slot.set('steer')
    expect(slot.takeForStep()).to.equal('steer')
    expect(slot.text).to.equal(undefined)
    expect(readFileSync(path, 'utf8')).to.equal('steer\n')
    const next = slot.set('next')
    await Promise.all([slot.delivered(), next])
    expect(readFileSync(path, 'utf8')).to.equal('next\n')
  })

  it('a reply sent as the next turn, whose turn is then discarded while another is queued: the draft keeps both (found by the pty fuzzer)', async () => {
    const path = join(dir, 'QUERY_MESSAGE.md')
    const slot = await QueuedReplyDraft.open(path, 'q')
    await slot.set('sent')
    expect(slot.take()).to.equal('sent')
    await slot.set('next')
    await slot.restore('sent')
    expect(readFileSync(path, 'utf8')).to.equal('sent\n\nnext\n')
  })
})
