// Security: an API key given in the environment is sent to the provider and
// nowhere else — not into any file under the workspace, the data dirs or
// HOME, and not onto stdout or stderr, even when the provider's error echoes
// the key back.
import {expect} from 'chai'
import {randomBytes} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, runJp, type RunResult, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {anthropicStreamError, anthropicText, FAULT_FIXTURES, useAnthropic, walkFiles} from '../faults/harness.js'

describe('security: API keys never leave the request', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let key: string

  beforeEach(() => {
    sb = makeSandbox()
    key = `sk-leak-${randomBytes(18).toString('hex')}`
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** Files under the sandbox (HOME, XDG dirs, data dirs, workspace) that contain the key. */
  function filesWithKey(): string[] {
    const files = walkFiles(sb.dir)
    expect(files.length, 'the runs wrote files to inspect').to.be.greaterThan(2)
    return files.filter((f) => readFileSync(f).includes(key))
  }

  function expectClean(r: RunResult): void {
    expect(r.stdout).to.not.include(key)
    expect(r.stderr).to.not.include(key)
  }

  function useOpenAIKeyed(url: string, extra = ''): string[] {
    const file = join(sb.home, 'config.toml')
    writeFileSync(file, `[assistant.model]\nid = "openai/gpt-leak"\n[providers.llm.openai]\nbase_url = "${url}/v1"\n${extra}`)
    return ['--cfg', file]
  }

  it('OpenAI format: after an answer, a tool call, and a 401 whose body echoes the key', async () => {
    const echoed = JSON.stringify({error: {type: 'invalid_request_error', message: `Incorrect API key provided: ${key}. Find your key at ...`}})
    server = await startReplayServer([
      {body: openaiText(['fine'])},
      {body: openaiToolCall('call_1', 'probe', {q: 'x'})},
      {body: openaiText(['tool done'])},
      {status: 401, headers: {'content-type': 'application/json'}, body: echoed},
    ])
    const tool = join(FAULT_FIXTURES, 'odd $(touch INJECTED) tool.sh')
    const cfg = useOpenAIKeyed(server.url, `[conversation.tools.probe]\ncommand = {program = "${tool}", args = [], shell = false}\nrun = "unattended"\n`)
    const env = {OPENAI_API_KEY: key}

    const ok = await runJp(['query', ...cfg, 'one'], {sandbox: sb, env})
    expect(ok.code, ok.stderr).to.equal(0)
    expectClean(ok)
    const tooled = await runJp(['query', ...cfg, '--tool', 'probe', 'two'], {sandbox: sb, env})
    expect(tooled.code, tooled.stderr).to.equal(0)
    expectClean(tooled)
    const failed = await runJp(['query', ...cfg, 'three'], {sandbox: sb, env})
    expect(failed.code).to.equal(1)
    expect(failed.stderr).to.match(/^Error: openai: 401 invalid_request_error: Incorrect API key provided: \[redacted key\]\. /m)
    expectClean(failed)

    // The key did reach the provider, on every request.
    expect(server.requests).to.have.length(4)
    for (const req of server.requests) expect(req.headers.authorization).to.equal(`Bearer ${key}`)
    expect(filesWithKey()).to.deep.equal([])
  })

  it('Anthropic format: after a 400 and an `event: error` that both echo the key', async () => {
    const echoed = JSON.stringify({type: 'error', error: {type: 'authentication_error', message: `invalid x-api-key: ${key}`}})
    server = await startReplayServer([
      {status: 400, headers: {'content-type': 'application/json'}, body: echoed},
      {body: anthropicText(['half '], {end: false}) + anthropicStreamError('api_error', `upstream rejected ${key}`)},
      {body: anthropicText(['whole'])},
    ])
    const cfg = useAnthropic(sb, server.url)
    const env = {ANTHROPIC_API_KEY: key}
    const first = await runJp(['query', ...cfg, 'one'], {sandbox: sb, env})
    expect(first.code).to.equal(1)
    expect(first.stderr).to.match(/^Error: anthropic: 400 authentication_error: invalid x-api-key: \[redacted key\]$/m)
    expectClean(first)
    const second = await runJp(['query', ...cfg, 'two'], {sandbox: sb, env})
    expect(second.code).to.equal(1)
    expect(second.stdout).to.equal('half \n')
    expect(second.stderr).to.match(/^Error: anthropic: api_error: upstream rejected \[redacted key\]$/m)
    expectClean(second)
    const third = await runJp(['query', ...cfg, 'three'], {sandbox: sb, env})
    expect(third.code, third.stderr).to.equal(0)
    expectClean(third)
    for (const req of server.requests) expect(req.headers['x-api-key']).to.equal(key)
    expect(filesWithKey()).to.deep.equal([])
  })
})
