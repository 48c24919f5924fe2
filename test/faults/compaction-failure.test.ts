// Issue 28, finding 13: exit status tells the truth. A full disk while the
// journal is folded into events.json ("compaction") at the end of a command
// used to exit 1, though the turn was saved in events.log and the next
// request sends it: a script that retries on failure asked twice. Saved in
// the journal → exit 0 and a warning; not saved → exit 1 saying what was kept.
// ENOSPC is injected at the fs layer (test/fixtures/faults/enospc.mjs).
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {loadEvents} from '../../src/lib/conversation/journal.js'
import {errLines, FAULT_FIXTURES, onlyConversation, useOpenAI} from './harness.js'

type Message = {role: string; content: string}
const messagesOf = (body: string) => (JSON.parse(body) as {messages: Message[]}).messages.map((m) => [m.role, m.content])
const hook = pathToFileURL(join(FAULT_FIXTURES, 'enospc.mjs')).href
const noWarnings = (stderr: string) => errLines(stderr).filter((l) => !/ExperimentalWarning|--trace-warnings/.test(l))

describe('faults: a full disk during compaction', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer

  beforeEach(async () => {
    sb = makeSandbox()
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['second'])}, {body: openaiText(['third'])}])
  })
  afterEach(async () => {
    await server.close()
    sb.cleanup()
  })

  it('the turn is in events.log but events.json cannot be rewritten: exit 0, one warning, and the next run sends the turn once', async () => {
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const dir = onlyConversation(sb)
    const before = readFileSync(join(dir, 'events.json'), 'utf8')
    // Only the temp file of the events.json rewrite fails: the journal appends succeed.
    const env = {NODE_OPTIONS: `--import=${hook}`, JP_FAULT_ENOSPC: 'events\\.json\\.[0-9a-f]+\\.jp-tmp$'}
    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb, env})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('second\n')
    const lines = noWarnings(r.stderr)
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.match(/^⚠ the turn is saved in .*events\.log, but it could not be folded into events\.json: ENOSPC: no space left on device.*; the next run tries again$/)
    expect(readFileSync(join(dir, 'events.json'), 'utf8')).to.equal(before)
    expect(existsSync(join(dir, 'events.log'))).to.equal(true)
    const {events} = await loadEvents(join(dir, 'events.json'), join(dir, 'events.log'))
    expect(events.filter((e) => e.type === 'chat_request').map((e) => (e as {content: string}).content)).to.deep.equal(['one', 'two'])

    // Disk free again: the next turn carries the saved one exactly once, and compaction catches up.
    const again = await runJp(['query', ...cfg, 'three'], {sandbox: sb})
    expect(again.code, again.stderr).to.equal(0)
    expect(messagesOf(server.requests[2].body)).to.deep.equal([
      ['user', 'one'],
      ['assistant', 'first'],
      ['user', 'two'],
      ['assistant', 'second'],
      ['user', 'three'],
    ])
    expect(existsSync(join(dir, 'events.log'))).to.equal(false)
  })

  it('the turn itself cannot be written: exit 1, the write error, and one line saying what was kept', async () => {
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const id = onlyConversation(sb).split('/').at(-1)!
    const env = {NODE_OPTIONS: `--import=${hook}`, JP_FAULT_ENOSPC: 'events\\.(json|log)'}
    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb, env})
    expect(r.code).to.equal(1)
    const lines = noWarnings(r.stderr)
    expect(lines, r.stderr).to.have.length(2)
    expect(lines[0]).to.match(/^Error: cannot write .*events\.(json|log): ENOSPC.*unchanged/)
    expect(lines[1]).to.equal(`Nothing after the failed write was saved; conversation ${id} keeps what was written before it.`)
  })
})
