// Finding 7 of issue 13: the idle timeout covers connecting and waiting for
// the response headers (a server that accepts and then says nothing), as a
// config key with the environment variable as override; a retry-after longer
// than jp will wait fails at once and says when to retry.
import {expect} from 'chai'
import {DEFAULT_STREAM_IDLE_TIMEOUT_MS, streamIdleTimeoutMs} from '../../src/lib/llm/http.js'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {errLines, startGatedServer, type GatedServer, useOpenAI} from './harness.js'

describe('faults: provider timeouts and long retry hints', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | GatedServer | undefined

  beforeEach(() => (sb = makeSandbox()))
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** A server that reads the request and never answers it: no status line, no headers. */
  const silent = () => startGatedServer(() => {})

  it('a server that never sends headers fails after providers.llm.timeout_secs per attempt, not undici’s 300 s', async () => {
    const s = await silent()
    server = s
    const cfg = useOpenAI(sb, s.url, '[providers.llm]\ntimeout_secs = 1\n')
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, timeoutMs: 40_000})
    expect(r.signal, 'jp hung and was killed by the test').to.equal(null)
    expect(r.code).to.equal(1)
    const errors = errLines(r.stderr).filter((l) => l.startsWith('Error: '))
    // Issue 26 finding 10: the line says the limit was per attempt, and how long all of them took.
    expect(errors, r.stderr).to.have.length(1)
    const m = new RegExp(`^Error: llamacpp: no response from ${s.url}/v1/chat/completions within 1 s \\(3 attempts, (\\d+\\.\\d) s in all\\)$`).exec(errors[0])
    expect(m, errors[0]).to.not.equal(null)
    // Three waits of 1 s and two back-offs of about 0.4–0.5 s, then 1 s: at least 3.7 s.
    expect(Number(m![1])).to.be.within(3.5, 30)
    // Nothing arrived, so the attempt was retried like any unreachable server: one try plus two retries.
    expect(s.requests).to.equal(3)
  })

  it('JP_STREAM_IDLE_TIMEOUT_SECS covers the headers too (no config key)', async () => {
    const s = await silent()
    server = s
    const cfg = useOpenAI(sb, s.url)
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, env: {JP_STREAM_IDLE_TIMEOUT_SECS: '1'}, timeoutMs: 40_000})
    expect(r.signal, 'jp hung and was killed by the test').to.equal(null)
    expect(r.code).to.equal(1)
    expect(r.stderr).to.contain('within 1 s')
  })

  it('the variable overrides the config key, which overrides the default', () => {
    expect(streamIdleTimeoutMs({JP_STREAM_IDLE_TIMEOUT_SECS: '2'}, 600)).to.equal(2000)
    expect(streamIdleTimeoutMs({}, 600)).to.equal(600_000)
    expect(streamIdleTimeoutMs({JP_STREAM_IDLE_TIMEOUT_SECS: 'soon'}, undefined)).to.equal(DEFAULT_STREAM_IDLE_TIMEOUT_MS)
  })

  it('a non-positive timeout_secs stops the query before any request, naming the key', async () => {
    const s = await silent()
    server = s
    const cfg = useOpenAI(sb, s.url, '[providers.llm]\ntimeout_secs = 0\n')
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(errLines(r.stderr)).to.have.length(1)
    // The config check (file, line, key) or, for a value that reached it, model resolution.
    expect(r.stderr).to.match(/providers\.llm\.timeout_secs(: expected number > 0, got 0| = 0: expected a positive number of seconds)/)
    expect(s.requests).to.equal(0)
  })

  it('retry-after: 3600 fails at once, saying when to retry (no silent backoff)', async () => {
    const busy = {status: 429, headers: {'content-type': 'application/json', 'retry-after': '3600'}, body: '{"error":{"type":"rate_limit","message":"quota"}}'}
    const r0 = await startReplayServer([busy, busy, busy, {body: openaiText(['too soon'])}])
    server = r0
    const cfg = useOpenAI(sb, r0.url)
    const before = Date.now()
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r0.requests).to.have.length(1)
    const errors = errLines(r.stderr).filter((l) => l.startsWith('Error: '))
    expect(errors, r.stderr).to.have.length(1)
    const m = /^Error: llamacpp: 429 rate_limit: quota \(the server asks to retry in 1 h: try again after (\S+)\)$/.exec(errors[0])
    expect(m, errors[0]).to.not.equal(null)
    const at = Date.parse(m![1])
    expect(at - before).to.be.within(3_599_000, 3_600_000 + (Date.now() - before) + 1000)
  })
})
