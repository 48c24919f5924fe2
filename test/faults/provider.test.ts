// Fault suite, provider side (SPEC §12, §1.6): real jp processes against real
// local servers that rate-limit, overload, break off, send garbage or stall.
// Every failing case must end with one clear error line, the partial turn
// stored, and a following `jp query` that works.
import {expect} from 'chai'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {anthropicStreamError, anthropicText, errLines, storedEvents, storedText, useAnthropic, useOpenAI} from './harness.js'

const KEY = 'sk-ant-fault-suite-key'

describe('faults: provider errors end to end', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined

  beforeEach(() => {
    sb = makeSandbox()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** The failed run's error line, which must be the first stderr line and start with `Error: `. */
  function expectOneErrorLine(stderr: string, pattern: RegExp): void {
    const errors = errLines(stderr).filter((l) => l.startsWith('Error: '))
    expect(errors, stderr).to.have.length(1)
    expect(errors[0]).to.match(pattern)
  }

  async function expectNextQueryWorks(cfg: string[], answer: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
    const again = await runJp(['query', ...cfg, 'and now?'], {sandbox: sb, env})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stdout).to.equal(`${answer}\n`)
  }

  describe('retried statuses (retry-after: 0) then success', () => {
    for (const status of [429, 503]) {
      it(`OpenAI format: ${status} once, then the answer (2 requests)`, async () => {
        server = await startReplayServer([
          {status, headers: {'content-type': 'application/json', 'retry-after': '0'}, body: '{"error":{"type":"busy","message":"try again"}}'},
          {body: openaiText(['made it'])},
          {body: openaiText(['next one'])},
        ])
        const cfg = useOpenAI(sb, server.url)
        const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
        expect(r.code, r.stderr).to.equal(0)
        expect(r.stdout).to.equal('made it\n')
        expect(server.requests).to.have.length(2)
        expect(server.requests[1].body).to.equal(server.requests[0].body)
        expect(storedText(sb)).to.equal('made it')
        await expectNextQueryWorks(cfg, 'next one')
        expect(server.requests).to.have.length(3)
      })
    }

    it('Anthropic format: 529 overloaded once, then the answer (2 requests, key sent both times)', async () => {
      server = await startReplayServer([
        {
          status: 529,
          headers: {'content-type': 'application/json', 'retry-after': '0'},
          body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        },
        {body: anthropicText(['Claude ', 'answers'])},
        {body: anthropicText(['again'])},
      ])
      const cfg = useAnthropic(sb, server.url)
      const env = {ANTHROPIC_API_KEY: KEY}
      const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, env})
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stdout).to.equal('Claude answers\n')
      expect(server.requests).to.have.length(2)
      expect(server.requests.map((q) => q.path)).to.deep.equal(['/v1/messages', '/v1/messages'])
      expect(server.requests.map((q) => q.headers['x-api-key'])).to.deep.equal([KEY, KEY])
      await expectNextQueryWorks(cfg, 'again', env)
    })
  })

  it('429 forever: gives up after the retries with one clear line, takes the unanswered turn back, and the next query works', async () => {
    const busy = {status: 429, headers: {'content-type': 'application/json', 'retry-after': '0'}, body: '{"error":{"type":"rate_limit","message":"slow down"}}'}
    server = await startReplayServer([busy, busy, busy, {body: openaiText(['finally'])}])
    const cfg = useOpenAI(sb, server.url)
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('')
    // One attempt plus the default two retries.
    expect(server.requests).to.have.length(3)
    expectOneErrorLine(r.stderr, /^Error: llamacpp: 429 rate_limit: slow down \(3 attempts, \d+\.\d s in all\)$/)
    // Nothing was answered: the turn is taken back (the query waits in the draft), so a retry cannot send it twice.
    expect(storedEvents(sb)).to.deep.equal([])
    await expectNextQueryWorks(cfg, 'finally')
  })

  it('an Anthropic `event: error` (overloaded) after some text: partial text kept and stored, one error line', async () => {
    server = await startReplayServer([
      {body: anthropicText(['Partial answer', ' before trouble'], {end: false}) + anthropicStreamError('overloaded_error', 'Overloaded')},
      {body: anthropicText(['recovered'])},
    ])
    const cfg = useAnthropic(sb, server.url)
    const env = {ANTHROPIC_API_KEY: KEY}
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, env})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('Partial answer before trouble\n')
    expectOneErrorLine(r.stderr, /^Error: anthropic: overloaded_error: Overloaded$/)
    // Text had reached the user: the response is not replayed.
    expect(server.requests).to.have.length(1)
    expect(storedText(sb)).to.equal('Partial answer before trouble')
    await expectNextQueryWorks(cfg, 'recovered', env)
  })

  it('a connection dropped mid-stream: partial text stored, one error line, no replay', async () => {
    const full = openaiText(['first half, ', 'second half'])
    const cut = full.indexOf('second half')
    server = await startReplayServer([
      {body: full.slice(0, full.lastIndexOf('data: ', cut)), destroy: true},
      {body: openaiText(['reconnected'])},
    ])
    const cfg = useOpenAI(sb, server.url)
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('first half, \n')
    expectOneErrorLine(r.stderr, /^Error: llamacpp: (connection lost mid-stream|the stream ended before the response was complete)/)
    expect(server.requests).to.have.length(1)
    expect(storedText(sb)).to.equal('first half, ')
    await expectNextQueryWorks(cfg, 'reconnected')
  })

  it('malformed JSON in a data line: partial text stored, the error names the bad chunk', async () => {
    const good = openaiText(['fine so far'])
    const beforeFinish = good.lastIndexOf('data: {', good.indexOf('"finish_reason":"stop"'))
    server = await startReplayServer([
      {body: good.slice(0, beforeFinish) + 'data: {"choices":[{"delta":{"content":"oops"}\n\n'},
      {body: openaiText(['parsed fine'])},
    ])
    const cfg = useOpenAI(sb, server.url)
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('fine so far\n')
    expectOneErrorLine(r.stderr, /^Error: llamacpp: malformed stream chunk: \{"choices":\[\{"delta":\{"content":"oops"\}$/)
    expect(storedText(sb)).to.equal('fine so far')
    await expectNextQueryWorks(cfg, 'parsed fine')
  })

  it('a server that stalls (headers and some text, then nothing): jp gives up after the idle timeout', async () => {
    const stalled = openaiText(['thinking... '])
    server = await startReplayServer([
      {body: stalled.slice(0, stalled.indexOf('data: {', stalled.indexOf('thinking'))), hold: true},
      {body: openaiText(['awake'])},
    ])
    const cfg = useOpenAI(sb, server.url)
    const env = {JP_STREAM_IDLE_TIMEOUT_SECS: '1'}
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, env, timeoutMs: 30_000})
    expect(r.signal, 'jp hung and was killed by the test').to.equal(null)
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('thinking... \n')
    expectOneErrorLine(r.stderr, /^Error: llamacpp: the stream stalled: no data for 1 s$/)
    expect(storedText(sb)).to.equal('thinking... ')
    // jp closed the held connection when it gave up.
    await server.clientGone
    await expectNextQueryWorks(cfg, 'awake', env)
  })
})
