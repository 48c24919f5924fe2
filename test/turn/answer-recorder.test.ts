// The answer recorder's decisions, against a storage seam that records what
// it is handed: the first write stores the event with its text; past the
// in-memory limit, text waiting for a write is handed over as bytes only
// (no copy of it is held as strings); and a disk slower than the stream
// holds the stream once too much is pending behind the write in flight.
import {expect} from 'chai'
import {describe, it} from 'mocha'
import type {ConversationEvent} from '../../src/lib/conversation/events.js'
import {IN_MEMORY_FIELD_CHARS} from '../../src/lib/conversation/journal.js'
import {chunkText, type StreamedChunk} from '../../src/lib/conversation/streamed-chunk.js'
import {AnswerRecorder, RECORDER_BUFFER_BYTES} from '../../src/lib/turn/answer-recorder.js'

interface Gate {
  promise: Promise<void>
  open(): void
}
function gate(): Gate {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return {promise, open}
}

function recorder(opts: {slow?: () => Promise<void>} = {}) {
  const events: ConversationEvent[] = []
  const chunks: StreamedChunk[] = []
  let persists = 0
  const r = new AnswerRecorder({
    events,
    persist: async () => void persists++,
    appendText: async (_index, _key, chunk) => {
      // The bytes are a view of a reused buffer: copy what the test keeps.
      chunks.push({...chunk, json: Buffer.from(chunk.json)})
      await opts.slow?.()
    },
    takeClosedReasoning: () => [],
    everyMs: 60_000,
    onFailure: () => {},
  })
  return {r, events, chunks, persists: () => persists}
}

describe('turn: the answer recorder', () => {
  it('stores the event with the first text, then hands later text over as chunks that read back exactly', async () => {
    const {r, events, chunks, persists} = recorder()
    r.add('Hello, ')
    await r.flush()
    r.add('"wörld" ')
    r.add('😀\n')
    await r.close()
    expect(persists()).to.equal(1)
    expect(events).to.have.length(1)
    expect(events[0]).to.deep.include({type: 'chat_response', message: 'Hello, '})
    expect(chunks.map(chunkText)).to.deep.equal(['"wörld" 😀\n'])
    expect(chunks[0]).to.deep.include({whole: true, text: '"wörld" 😀\n'})
  })

  it('past the in-memory limit, pending text is handed over as bytes only', async () => {
    const {r, chunks} = recorder()
    const piece = 'x'.repeat(64 * 1024)
    const pieces = Math.ceil(IN_MEMORY_FIELD_CHARS / piece.length) + 8
    for (let i = 0; i < pieces; i++) {
      r.add(piece)
      await r.flush()
    }
    await r.close()
    const last = chunks.at(-1)!
    expect(last.whole, 'the last chunk kept no text').to.equal(false)
    expect(last.text).to.equal('')
    expect(chunkText(last)).to.equal(piece)
    const kept = chunks.filter((c) => c.whole).reduce((n, c) => n + c.text.length, piece.length)
    expect(kept, 'text kept as strings stops near the limit').to.be.at.most(IN_MEMORY_FIELD_CHARS + piece.length)
    expect(chunks.map(chunkText).join('').length + piece.length).to.equal(pieces * piece.length)
  })

  it('holds the stream while a slow write has more than a few MB pending behind it, and lets it go when the write ends', async () => {
    const writes: Gate[] = []
    const {r, chunks} = recorder({
      slow: () => {
        const g = gate()
        writes.push(g)
        return g.promise
      },
    })
    r.add('first')
    await r.flush() // the event is stored; later text goes through the slow appendText
    const piece = 'y'.repeat(256 * 1024)
    r.add(piece) // starts a write that does not end until its gate opens
    expect(writes).to.have.length(1)
    let released = false
    for (let i = 0; i < 16; i++) r.add(piece) // 4 MB behind the write in flight
    const waiting = r.writable().then(() => (released = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(released, 'the stream waits for the disk').to.equal(false)
    writes[0].open()
    await waiting
    expect(released).to.equal(true)
    // the next write took everything gathered meanwhile, in one chunk
    await new Promise((resolve) => setImmediate(resolve))
    writes[1].open()
    await r.close()
    expect(chunks.map((c) => chunkText(c).length)).to.deep.equal([piece.length, 16 * piece.length])
  })

  it('a write that fails while the stream waits ends the wait quietly; the failure is reported once, by close', async () => {
    const failures: unknown[] = []
    let fail!: (e: Error) => void
    const events: ConversationEvent[] = []
    const r = new AnswerRecorder({
      events,
      persist: async () => {},
      appendText: () => new Promise<void>((_resolve, reject) => (fail = reject)),
      takeClosedReasoning: () => [],
      everyMs: 60_000,
      onFailure: (e) => failures.push(e),
    })
    r.add('first')
    await r.flush()
    const piece = 'y'.repeat(256 * 1024)
    for (let i = 0; i < 18; i++) r.add(piece)
    const waiting = r.writable()
    fail(new Error('ENOSPC: no space left on device'))
    await waiting // resolves, does not reject
    expect(failures).to.have.length(1)
    let closed: unknown
    await r.close().catch((e: unknown) => (closed = e))
    expect((closed as Error).message).to.match(/ENOSPC/)
  })

  it('pieces of bytes (a template stream) are gathered as sent, and their text is read only while text is kept in memory', async () => {
    const {r, chunks} = recorder()
    let reads = 0
    const piece = (text: string) => ({
      get text() {
        reads++
        return text
      },
      json: Buffer.from(JSON.stringify(text).slice(1, -1), 'utf8').toString('latin1'),
    })
    const big = '"naïve" — 😀\n'.repeat(8 * 1024)
    const count = Math.ceil(IN_MEMORY_FIELD_CHARS / big.length) + 20
    for (let i = 0; i < count; i++) {
      r.add(piece(big))
      await r.flush()
    }
    await r.close()
    expect(chunks.map(chunkText).join('').length + big.length).to.equal(count * big.length)
    expect(reads, 'texts read: only those kept').to.be.at.most(Math.ceil(IN_MEMORY_FIELD_CHARS / big.length) + 2)
  })

  it('streaming 12 MB through a slow disk, its two buffers stay the size they were made at (no growing, no garbage)', async () => {
    const {r, chunks} = recorder({slow: () => new Promise<void>((resolve) => setTimeout(resolve, 1))})
    r.add('first')
    await r.flush()
    const piece = '"y" — '.repeat(5 * 1024)
    for (let i = 0; i < 400; i++) {
      r.add(piece)
      await r.writable() // the stream loop's pause
    }
    await r.close()
    expect(chunks.length, 'the disk was slower than the stream: writes gathered several pieces').to.be.below(200)
    expect(chunks.map(chunkText).join('')).to.equal(piece.repeat(400))
    expect(r.bufferBytes).to.equal(2 * RECORDER_BUFFER_BYTES)
    expect(RECORDER_BUFFER_BYTES, 'the pause mark is well under the old 4 MiB').to.be.at.most(2 * 1024 * 1024)
  })

  it('does not hold the stream when little is pending', async () => {
    const {r} = recorder({slow: () => new Promise(() => {})})
    r.add('first')
    await r.flush()
    r.add('z'.repeat(300 * 1024)) // a write that never ends
    r.add('a little more')
    let released = false
    await r.writable().then(() => (released = true))
    expect(released).to.equal(true)
  })
})
