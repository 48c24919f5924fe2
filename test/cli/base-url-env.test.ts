// ANTHROPIC_BASE_URL and OLLAMA_HOST are honoured as OPENAI_BASE_URL is
// (issue 26 finding 5): a shell set up for the vendors' own tools sends jp's
// requests to the same place. Each variable replaces only the default, so a
// config file still wins, and an untrusted workspace still cannot redirect.
// `jp query` runs as a real process (it reads piped stdin, which an
// in-process run cannot give it) against a local server speaking the wire format.
import {expect} from 'chai'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {fixture, startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {hostBaseUrl} from '../../src/lib/config/providers.js'

describe('hostBaseUrl: OLLAMA_HOST read as Ollama’s clients read it', () => {
  const cases: Array<[string, string]> = [
    ['gpu-box', 'http://gpu-box:11434'],
    ['gpu-box:8080', 'http://gpu-box:8080'],
    [':8080', 'http://127.0.0.1:8080'],
    ['0.0.0.0', 'http://0.0.0.0:11434'],
    ['[::1]:9', 'http://[::1]:9'],
    ['http://gpu-box', 'http://gpu-box'],
    ['https://gpu-box/ollama/', 'https://gpu-box/ollama'],
    ['me:pw@gpu-box', 'http://me:pw@gpu-box:11434'],
    ['not a host', 'not a host'],
  ]
  for (const [value, url] of cases) it(`${value} → ${url}`, () => expect(hostBaseUrl(value, 'http://localhost:11434')).to.equal(url))
})

describe('provider base-URL variables (ANTHROPIC_BASE_URL, OLLAMA_HOST, OPENAI_BASE_URL)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  const servers: ReplayServer[] = []
  const serve = async (body: string) => {
    const server = await startReplayServer([{body}])
    servers.push(server)
    return server
  }
  beforeEach(() => (sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})))
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close()
    sb.cleanup()
  })
  const jp = async (args: string[], env: NodeJS.ProcessEnv, cwd?: string) => {
    const r = await runJp(args, {sandbox: sb, env, cwd})
    return {exitCode: r.code, stdout: r.stdout, stderr: r.stderr}
  }
  const userConfig = (text: string) => {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml'), text)
  }

  const cases = [
    {provider: 'anthropic', variable: 'ANTHROPIC_BASE_URL', body: 'anthropic-text.sse', path: '/v1/messages', value: (url: string) => url, key: {ANTHROPIC_API_KEY: 'sk-ant-test'}},
    {provider: 'openai', variable: 'OPENAI_BASE_URL', body: 'openai-text.sse', path: '/v1/chat/completions', value: (url: string) => `${url}/v1`, key: {OPENAI_API_KEY: 'sk-test'}},
    // OLLAMA_HOST is a host as Ollama's clients take it: no scheme needed.
    {provider: 'ollama', variable: 'OLLAMA_HOST', body: 'ollama-chat.ndjson', path: '/api/chat', value: (url: string) => new URL(url).host, key: {}},
  ]

  for (const c of cases) {
    it(`${c.variable} sends ${c.provider} requests to its server`, async () => {
      const server = await serve(fixture(c.body))
      const r = await jp(['query', '-n', '-m', `${c.provider}/some-model`, 'hi'], {[c.variable]: c.value(server.url), ...c.key})
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(server.requests.map((q) => q.path)).to.deep.equal([c.path])
      expect(r.stdout).to.not.equal('')
    })

    it(`a base_url in the user's config wins over ${c.variable}`, async () => {
      const fromVariable = await serve(fixture(c.body))
      const fromFile = await serve(fixture(c.body))
      userConfig(`[providers.llm.${c.provider}]\nbase_url = "${c.value(fromFile.url).includes('://') ? c.value(fromFile.url) : `http://${c.value(fromFile.url)}`}"\n`)
      const r = await jp(['query', '-n', '-m', `${c.provider}/some-model`, 'hi'], {[c.variable]: c.value(fromVariable.url), ...c.key})
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(fromFile.requests).to.have.length(1)
      expect(fromVariable.requests).to.have.length(0)
    })
  }

  it('an untrusted workspace still cannot redirect: its base_url is ignored, ANTHROPIC_BASE_URL (the user’s) is used', async () => {
    const mine = await serve(fixture('anthropic-text.sse'))
    const theirs = await serve(fixture('anthropic-text.sse'))
    const repo = join(sb.dir, 'cloned')
    mkdirSync(join(repo, '.jp'), {recursive: true})
    writeFileSync(join(repo, '.jp', 'config.toml'), `[providers.llm.anthropic]\nbase_url = "${theirs.url}"\n`)
    const r = await jp(['query', '-n', '-m', 'anthropic/some-model', 'hi'], {ANTHROPIC_BASE_URL: mine.url, ANTHROPIC_API_KEY: 'sk-ant-test'}, repo)
    expect(r.exitCode, r.stderr).to.equal(0)
    expect(r.stderr).to.match(/ignoring providers\.llm\.anthropic\.base_url from the untrusted workspace/)
    expect(theirs.requests).to.have.length(0)
    expect(mine.requests).to.have.length(1)
    expect(mine.requests[0].headers['x-api-key'] ?? mine.requests[0].headers.authorization).to.include('sk-ant-test')
  })

  it('an OLLAMA_HOST that is no host fails before any request, naming the variable', async () => {
    const r = await jp(['query', '-n', '-m', 'ollama/llama3.2', 'hi'], {OLLAMA_HOST: 'not a host'})
    expect(r.exitCode).to.equal(1)
    expect(r.stderr).to.equal('Error: providers.llm.ollama.base_url = "not a host" (from OLLAMA_HOST): expected an http:// or https:// URL\n')
  })
})
