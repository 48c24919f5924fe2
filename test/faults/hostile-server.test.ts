// Issue 28, the hostile server (built CLI against local servers; build first):
//   4. a slowloris provider trickles a byte every few hundred milliseconds,
//      never completing an event: the idle timeout never fires, so a
//      minimum-progress rule must end the stream (the usual error, partial kept);
//  11. a `data:` line that never ends grows jp's memory until Node aborts:
//      a line or event over 16 MiB ends the stream with one error line,
//      the partial answer kept and the terminal restored;
//  14. an error body that echoes the key base64-encoded (the Authorization
//      value) or in pieces is redacted like the key itself;
//  10. a key about to go over plain http to a host that is not this machine
//      gets a one-line warning first.
import {expect} from 'chai'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {shQuote, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {errLines, startGatedServer, storedText, type GatedServer, useOpenAI} from './harness.js'

/** One OpenAI-format chunk carrying `content`. */
const textChunk = (content: string) => `data: ${JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{index: 0, delta: {content}, finish_reason: null}]})}\n\n`

/** Writes `piece` `times` times, as fast as the client reads, until it goes away. */
async function flood(res: import('node:http').ServerResponse, piece: Buffer, times: number): Promise<void> {
  let closed = false
  const gone = new Promise<void>((done) => res.once('close', () => ((closed = true), done())))
  for (let i = 0; i < times && !closed; i++) {
    if (!res.write(piece)) await Promise.race([new Promise((done) => res.once('drain', done)), gone])
  }
}

describe('faults: a hostile provider', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | GatedServer | undefined
  let term: PtySession | undefined
  const timers: NodeJS.Timeout[] = []

  beforeEach(() => (sb = makeSandbox()))
  afterEach(async () => {
    for (const t of timers.splice(0)) clearInterval(t)
    term?.dispose()
    term = undefined
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  it('finding 4: a trickling (slowloris) stream ends with the stall error within about twice the timeout; the partial answer is kept', async () => {
    const s = await startGatedServer((_n, _req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write(textChunk('partial before the trickle'))
      res.write('data: {"choices":[{"delta":{"content":"')
      // One byte every 300 ms: never silent for the 1 s idle timeout, never an event.
      const t = setInterval(() => res.write('x'), 300)
      timers.push(t)
      res.on('close', () => clearInterval(t))
    })
    server = s
    const cfg = useOpenAI(sb, s.url)
    const r = await runJp(['query', ...cfg, 'hello'], {sandbox: sb, env: {JP_STREAM_IDLE_TIMEOUT_SECS: '1'}, timeoutMs: 20_000})
    expect(r.signal, 'jp was still waiting and was killed by the test').to.equal(null)
    expect(r.code).to.equal(1)
    const errors = errLines(r.stderr).filter((l) => l.startsWith('Error: '))
    expect(errors, r.stderr).to.deep.equal(['Error: llamacpp: the stream stalled: no complete event for 1 s'])
    expect(r.stdout).to.equal('partial before the trickle\n')
    expect(storedText(sb)).to.equal('partial before the trickle')
    expect(s.requests, 'the answer had begun: not retried').to.equal(1)
  })

  it('control: a slow but steady stream (an event every 300 ms for 3 s, timeout 1 s) is not cut off', async () => {
    const pieces = Array.from({length: 10}, (_, i) => `p${i} `)
    const s = await startGatedServer(async (_n, _req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      for (const p of pieces) {
        res.write(textChunk(p))
        await new Promise((done) => setTimeout(done, 300))
      }
      res.end(openaiText([]).split('\n\n').slice(1).join('\n\n'))
    })
    server = s
    const r = await runJp(['query', ...useOpenAI(sb, s.url), 'hello'], {sandbox: sb, env: {JP_STREAM_IDLE_TIMEOUT_SECS: '1'}})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(`${pieces.join('')}\n`)
  })

  /** A server that sends one text event, then a `data:` line of `megabytes` MiB that never ends, then holds the connection. */
  async function endlessLine(megabytes: number): Promise<GatedServer> {
    const mib = Buffer.alloc(1024 * 1024, 'A')
    return startGatedServer(async (_n, _req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write(textChunk('before the flood'))
      res.write('data: {"choices":[{"delta":{"content":"')
      await flood(res, mib, megabytes)
    })
  }

  it('finding 11: a data line that never ends: one error line naming the 16 MiB limit, the partial answer kept', async () => {
    const s = await endlessLine(48)
    server = s
    const r = await runJp(['query', ...useOpenAI(sb, s.url), 'hello'], {sandbox: sb, env: {JP_STREAM_IDLE_TIMEOUT_SECS: '10'}, timeoutMs: 30_000})
    expect(r.signal).to.equal(null)
    expect(r.code, r.stderr.slice(0, 400)).to.equal(1)
    const errors = errLines(r.stderr).filter((l) => l.startsWith('Error: '))
    expect(errors, r.stderr.slice(0, 400)).to.deep.equal(['Error: llamacpp: a stream line or event over 16 MiB; the stream was ended'])
    expect(r.stdout).to.equal('before the flood\n')
    expect(storedText(sb)).to.equal('before the flood')
  })

  it('finding 11 on a terminal: the same flood leaves the terminal settings as they were (icanon, echo)', async () => {
    const s = await endlessLine(48)
    server = s
    const cfg = useOpenAI(sb, s.url)
    const before = join(sb.dir, 'stty-before.txt')
    const after = join(sb.dir, 'stty-after.txt')
    const code = join(sb.dir, 'code.txt')
    const script =
      `stty -a > ${shQuote(before)}; ${shQuote(process.execPath)} ${shQuote(BIN)} query ${cfg.map(shQuote).join(' ')} hello; ` +
      `echo $? > ${shQuote(code)}; stty -a > ${shQuote(after)}`
    term = await spawnPty(['-c', script], {file: '/bin/sh', cwd: sb.cwd, env: {...sb.env, JP_STREAM_IDLE_TIMEOUT_SECS: '10'}, cols: 160})
    await term.waitForExit(30_000)
    expect(readFileSync(code, 'utf8').trim(), term.screenText()).to.equal('1')
    expect(term.screenText()).to.include('over 16 MiB')
    const body = (f: string) => readFileSync(f, 'utf8').split('\n').slice(1).join('\n')
    expect(body(after)).to.equal(body(before))
    expect(body(before)).to.match(/\bicanon\b/).and.to.match(/\becho\b/)
  })

  it('finding 11, NDJSON (Ollama): a line that never ends is cut at the same limit', async () => {
    const mib = Buffer.alloc(1024 * 1024, 'B')
    const s = await startGatedServer(async (_n, _req, res) => {
      res.writeHead(200, {'content-type': 'application/x-ndjson'})
      res.write(JSON.stringify({message: {role: 'assistant', content: 'ollama before'}, done: false}) + '\n')
      res.write('{"message":{"content":"')
      await flood(res, mib, 48)
    })
    server = s
    const file = join(sb.home, 'config.toml')
    writeFileSync(file, `[assistant.model]\nid = "ollama/fault"\n[providers.llm.ollama]\nbase_url = "${s.url}"\n`)
    const r = await runJp(['query', '--cfg', file, 'hello'], {sandbox: sb, env: {JP_STREAM_IDLE_TIMEOUT_SECS: '10'}, timeoutMs: 30_000})
    expect(r.code, r.stderr.slice(0, 400)).to.equal(1)
    expect(errLines(r.stderr).filter((l) => l.startsWith('Error: '))).to.deep.equal(['Error: ollama: a stream line or event over 16 MiB; the stream was ended'])
    expect(r.stdout).to.equal('ollama before\n')
  })

  it('finding 14: an error body echoing the key base64-encoded (Authorization value, key alone) or in pieces is redacted', async () => {
    const key = 'sk-proj-Zq8mT4vX2nL9pR6wK3yH7cJ5bF1dG0aS'
    const b64 = (s: string) => Buffer.from(s).toString('base64')
    const echoed = {
      error: {
        type: 'invalid_request_error',
        message:
          `header was ${b64(`Bearer ${key}`)}; key ${b64(key)}; url-safe ${Buffer.from(key).toString('base64url')}; ` +
          `prefix ${key.slice(0, 12)}…suffix ${key.slice(-10)}; middle ${key.slice(14, 26)}`,
      },
    }
    server = await startReplayServer([{status: 401, headers: {'content-type': 'application/json'}, body: JSON.stringify(echoed)}])
    const file = join(sb.home, 'config.toml')
    writeFileSync(file, `[assistant.model]\nid = "openai/gpt-x"\n[providers.llm.openai]\nbase_url = "${server.url}/v1"\n`)
    const r = await runJp(['query', '--cfg', file, 'hello'], {sandbox: sb, env: {OPENAI_API_KEY: key}})
    expect(r.code).to.equal(1)
    expect(r.stderr).to.include('invalid_request_error').and.include('[redacted key]')
    for (const leak of [b64(`Bearer ${key}`), b64(key), Buffer.from(key).toString('base64url'), key.slice(0, 12), key.slice(-10), key.slice(14, 26)]) {
      expect(r.stderr, leak).not.to.include(leak)
    }
    // The same key over eight characters of base64 of the header is not shown in pieces either.
    expect(r.stderr).not.to.include(b64(`Bearer ${key}`).slice(12, 40))
  })

  it('finding 10: a key about to go over plain http to a host that is not this machine: one warning line first', async () => {
    const key = 'sk-plain-http-0123456789'
    server = await startReplayServer([{body: openaiText(['via the proxy']), headers: {}}, {body: openaiText(['local'])}])
    const file = join(sb.home, 'config.toml')
    // The request really goes out: through an http proxy (the local server) to api.example.test.
    writeFileSync(file, `[assistant.model]\nid = "openai/gpt-x"\n[providers.llm.openai]\nbase_url = "http://api.example.test/v1"\n`)
    const r = await runJp(['query', '--cfg', file, 'hello'], {sandbox: sb, env: {OPENAI_API_KEY: key, HTTP_PROXY: server.url}})
    expect(r.code, r.stderr).to.equal(0)
    expect(server.requests[0].path).to.equal('http://api.example.test/v1/chat/completions')
    const warnings = errLines(r.stderr).filter((l) => l.includes('plain http'))
    expect(warnings, r.stderr).to.deep.equal([
      '⚠ providers.llm.openai.base_url is http://api.example.test/v1: your key (OPENAI_API_KEY) will be sent unencrypted over plain http to api.example.test; use https://',
    ])
    expect(r.stderr).not.to.include(key)

    // Loopback (a local server) and keyless providers get no warning.
    const local = await runJp(['query', '-n', ...useOpenAI(sb, server.url), 'hello'], {sandbox: sb, env: {OPENAI_API_KEY: key}})
    expect(local.code, local.stderr).to.equal(0)
    writeFileSync(file, `[assistant.model]\nid = "openai/gpt-x"\n[providers.llm.openai]\nbase_url = "${server.url}/v1"\n`)
    const loop = await runJp(['query', '-n', '--cfg', file, 'hello'], {sandbox: sb, env: {OPENAI_API_KEY: key}})
    expect(loop.stderr).not.to.include('plain http')
  })
})
