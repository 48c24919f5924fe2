// The events journal (events.log next to events.json): turns write what
// changed, a torn last line is ignored, a log that does not continue
// events.json is reported, and a compaction cut short loses nothing.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {event, type ConversationEvent} from '../../src/lib/conversation/events.js'
import {IN_MEMORY_FIELD_CHARS} from '../../src/lib/conversation/journal.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {initWorkspace} from '../../src/lib/conversation/workspace.js'

describe('conversation events journal (events.log)', () => {
  let dir: string
  let store: ConversationStore
  let id: string
  /** A store as the next jp command would open it. */
  const next = () => new ConversationStore(store.workspace)
  const big = (n: number) => 'history '.repeat(n / 8)

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-journal-'))
    store = new ConversationStore(await initWorkspace(dir))
    id = await store.create()
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  /** A conversation whose events.json holds `bytes` of history. */
  async function withHistory(bytes: number): Promise<ConversationEvent[]> {
    const events = [event.turnStart(), event.chatRequest('first'), event.message(big(bytes))]
    const s = next()
    const conv = await s.load(id)
    conv.events.push(...events)
    await s.saveEvents(id, conv.events)
    await s.closeEvents(id, conv.events)
    await s.compactEvents(id)
    return events
  }

  it('a large first query of a new conversation is written once, to the log (not folded into events.json in the same command)', async () => {
    const p = store.paths(id)
    const query = '"a piped file", naïve — \n'.repeat(200 * 1024) // 5 MB: over the log size that is worth folding
    const s = next()
    const conv = await s.load(id)
    conv.events.push(event.turnStart(), event.chatRequest(query))
    await s.saveEvents(id, conv.events)
    expect(statSync(p.events).size, 'events.json is still the empty conversation').to.be.below(16)
    expect(statSync(p.eventsLog).size).to.be.above(query.length)
    const reread = await next().load(id)
    expect((reread.events[1] as {content: string}).content === query, 'the query reads back exactly').to.equal(true)
  })

  it('a turn on a large history appends only its own events; events.json is not rewritten', async () => {
    await withHistory(2 * 1024 * 1024)
    const p = store.paths(id)
    const jsonBefore = statSync(p.events)
    expect(existsSync(p.eventsLog)).to.equal(false)
    const s = next()
    const conv = await s.load(id)
    expect(await s.load(id), 'parsed once: the same object for the whole command').to.equal(conv)
    conv.events.push(event.turnStart(), event.chatRequest('a small question'))
    await s.saveEvents(id, conv.events)
    conv.events.push(event.message(''))
    const at = conv.events.length - 1
    await s.saveEvents(id, conv.events)
    for (const chunk of ['stream', 'ed ', 'answer']) await s.appendText(id, conv.events, at, 'message', chunk)
    await s.closeEvents(id, conv.events)
    const jsonAfter = statSync(p.events)
    expect([jsonAfter.ino, jsonAfter.mtimeMs, jsonAfter.size]).to.deep.equal([jsonBefore.ino, jsonBefore.mtimeMs, jsonBefore.size])
    const log = readFileSync(p.eventsLog, 'utf8')
    expect(log.length, log).to.be.below(1024)
    expect(log.split('\n').filter((l) => l.includes('"append"'))).to.have.length(3)
    const reread = (await next().load(id)).events
    expect(reread.at(-1)).to.include({type: 'chat_response', message: 'streamed answer'})
    expect(reread).to.have.length(6)
  })

  it('a last line cut short by a crash is ignored, and the next write cuts it off', async () => {
    const s = next()
    const conv = await s.load(id)
    conv.events.push(event.chatRequest('kept'))
    await s.saveEvents(id, conv.events)
    const log = store.paths(id).eventsLog
    appendFileSync(log, '{"at":1,"event":{"timestamp":"t","type":"chat_req')
    const t = next()
    const again = await t.load(id)
    expect(again.events.map((e) => (e as {content?: string}).content)).to.deep.equal(['kept'])
    again.events.push(event.chatRequest('after'))
    await t.saveEvents(id, again.events)
    expect(readFileSync(log, 'utf8')).to.not.include('chat_req"')
    expect((await next().load(id)).events.map((e) => (e as {content?: string}).content)).to.deep.equal(['kept', 'after'])
  })

  it('a log that does not continue events.json (edited behind jp) is reported by path and left alone', async () => {
    const s = next()
    const conv = await s.load(id)
    conv.events.push(event.chatRequest('in the log'))
    await s.saveEvents(id, conv.events)
    const p = store.paths(id)
    writeFileSync(p.events, JSON.stringify([event.chatRequest('hand edit')]))
    const log = readFileSync(p.eventsLog, 'utf8')
    const e = await next().load(id).catch((error: Error) => error)
    expect((e as Error).message).to.match(new RegExp(`^${p.eventsLog.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: continues an events.json of \\d+ bytes and 0 events, but events.json has`))
    expect(readFileSync(p.eventsLog, 'utf8')).to.equal(log)
  })

  it('a compaction that died before removing the log loses nothing and does not replay the log twice', async () => {
    const s = next()
    const conv = await s.load(id)
    conv.events.push(event.chatRequest('one'), event.message('two'))
    await s.saveEvents(id, conv.events)
    const p = store.paths(id)
    const log = readFileSync(p.eventsLog, 'utf8')
    // What compaction does up to its crash: mark the log, then write events.json whole.
    const text = JSON.stringify(conv.events, null, 2) + '\n'
    appendFileSync(p.eventsLog, JSON.stringify({compacted_to: {base_bytes: Buffer.byteLength(text), base_events: 2}}) + '\n')
    writeFileSync(p.events, text)
    expect(log).to.include('"one"')
    const t = next()
    const again = await t.load(id)
    expect(again.events.map((e) => e.type)).to.deep.equal(['chat_request', 'chat_response'])
    again.events.push(event.chatRequest('three'))
    await t.saveEvents(id, again.events)
    expect(readFileSync(p.eventsLog, 'utf8')).to.not.include('"one"')
    expect((await next().load(id)).events.map((e) => e.type)).to.deep.equal(['chat_request', 'chat_response', 'chat_request'])
  })

  it('an aborted turn is a truncation; a signature set after streaming is one small record', async () => {
    await withHistory(300 * 1024)
    const s = next()
    const conv = await s.load(id)
    const start = conv.events.length
    conv.events.push(event.turnStart(), event.chatRequest('discard me'))
    await s.saveEvents(id, conv.events)
    conv.events.splice(start)
    await s.saveEvents(id, conv.events)
    conv.events.push(event.reasoning('thinking'))
    await s.saveEvents(id, conv.events)
    ;(conv.events.at(-1) as {signature?: string}).signature = 'sig'
    await s.saveEvents(id, conv.events)
    const log = readFileSync(store.paths(id).eventsLog, 'utf8')
    expect(log).to.include(`{"truncate":${start}}`)
    expect(log).to.include(`{"at":${start},"set":{"signature":"sig"}}`)
    const reread = (await next().load(id)).events
    expect(reread).to.have.length(start + 1)
    expect(reread.at(-1)).to.deep.include({type: 'chat_response', reasoning: 'thinking', signature: 'sig'})
  })

  it('an answer too large to keep in memory stays whole on disk, and the events are made whole again when needed', async () => {
    const s = next()
    const conv = await s.load(id)
    conv.events.push(event.chatRequest('q'), event.message(''))
    await s.saveEvents(id, conv.events)
    const piece = 'x'.repeat(256 * 1024)
    const pieces = Math.ceil((IN_MEMORY_FIELD_CHARS * 1.5) / piece.length)
    for (let i = 0; i < pieces; i++) await s.appendText(id, conv.events, 1, 'message', piece)
    const whole = pieces * piece.length
    expect(((conv.events[1] as {message?: string}).message as string).length, 'memory holds only the start').to.be.below(whole)
    expect((((await next().load(id)).events[1] as {message?: string}).message as string).length, 'disk holds it all').to.equal(whole)
    await s.completeEvents(id, conv.events)
    expect(((conv.events[1] as {message?: string}).message as string).length).to.equal(whole)
    // Folding the journal never writes a shortened answer.
    await s.appendText(id, conv.events, 1, 'message', 'end')
    await s.compactEvents(id)
    const folded = JSON.parse(readFileSync(store.paths(id).events, 'utf8')) as ConversationEvent[]
    expect(((folded[1] as {message?: string}).message as string).length).to.equal(whole + 3)
  })
})
