// `jp models` against local servers speaking the three listing wire formats
// (OpenAI `GET /v1/models`, Anthropic `GET /v1/models`, Ollama
// `GET /api/tags`), one provider without its key and one not answering: the
// ids, the default marked, one line per provider that gave no list, the
// exit status; piped, as JSON and on a terminal (sanitized).
import {expect} from 'chai'
import {createServer} from 'node:http'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {listenLocal, type LocalServer} from '../helpers/local-server.js'
import {startModelsServer, type ModelsServer} from '../helpers/models-server.js'
import {spawnPty} from '../helpers/pty.js'

/** A URL nothing listens on: a port taken and given back. */
async function deadUrl(): Promise<string> {
  const s = await listenLocal(createServer())
  await s.close()
  return `${s.url}/v1`
}

describe('jp models', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let openai: ModelsServer
  let anthropic: ModelsServer
  let ollama: ModelsServer
  let env: NodeJS.ProcessEnv
  let dead: string
  const extra: LocalServer[] = []

  beforeEach(async () => {
    sb = makeSandbox()
    openai = await startModelsServer('openai', ['gpt-4o', 'gpt-4o-mini'])
    anthropic = await startModelsServer('anthropic', ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'], {pageSize: 2, names: {'claude-sonnet-4-5': 'Claude Sonnet 4.5'}})
    ollama = await startModelsServer('ollama', ['llama3.2:latest', 'qwen2.5-coder:7b'])
    dead = await deadUrl()
    env = {
      OPENAI_API_KEY: 'sk-openai-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      JP_CFG_PROVIDERS_LLM_OPENAI_BASE_URL: openai.baseUrl,
      JP_CFG_PROVIDERS_LLM_ANTHROPIC_BASE_URL: anthropic.url,
      JP_CFG_PROVIDERS_LLM_OLLAMA_BASE_URL: ollama.url,
      JP_CFG_PROVIDERS_LLM_LLAMACPP_BASE_URL: dead,
      JP_CFG_ASSISTANT_MODEL_ID: 'anthropic/claude-sonnet-4-5',
    }
  })
  afterEach(async () => {
    await Promise.all([openai, anthropic, ollama, ...extra.splice(0)].map((s) => s.close()))
    sb.cleanup()
  })

  it('lists every provider that answers, one id per line, the default followed by a tab and "default"; one line for each that cannot; exit 0', async () => {
    const r = await runJp(['models'], {sandbox: sb, env})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout.split('\n')).to.deep.equal([
      'anthropic/claude-sonnet-4-5\tdefault',
      'anthropic/claude-haiku-4-5',
      'anthropic/claude-opus-4-1',
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
      'ollama/llama3.2:latest',
      'ollama/qwen2.5-coder:7b',
      '',
    ])
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines).to.have.length(2)
    expect(lines[0]).to.equal('jp: openrouter: OPENROUTER_API_KEY is not set')
    expect(lines[1]).to.match(new RegExp(`^jp: llamacpp: cannot reach ${dead.replace(/[.]/g, '\\.')}/models: .*ECONNREFUSED`))
  })

  it('sends each provider its own headers, on the exact paths', async () => {
    await runJp(['models'], {sandbox: sb, env})
    expect(openai.requests.map((q) => [q.method, q.path, q.headers.authorization])).to.deep.equal([['GET', '/v1/models', 'Bearer sk-openai-test']])
    // Paged: three models at two per page.
    expect(anthropic.requests.map((q) => [q.method, q.path])).to.deep.equal([
      ['GET', '/v1/models?limit=1000'],
      ['GET', '/v1/models?limit=1000&after_id=claude-haiku-4-5'],
    ])
    for (const q of anthropic.requests) {
      expect(q.headers['x-api-key']).to.equal('sk-ant-test')
      expect(q.headers['anthropic-version']).to.equal('2023-06-01')
    }
    expect(ollama.requests.map((q) => [q.method, q.path, q.headers.authorization])).to.deep.equal([['GET', '/api/tags', undefined]])
  })

  it('PROVIDER lists only that one; a provider that cannot list is exit 1', async () => {
    const one = await runJp(['models', 'ollama'], {sandbox: sb, env})
    expect([one.code, one.stdout, one.stderr]).to.deep.equal([0, 'ollama/llama3.2:latest\nollama/qwen2.5-coder:7b\n', ''])
    expect(openai.requests).to.have.length(0)
    const none = await runJp(['models', 'openrouter'], {sandbox: sb, env})
    expect([none.code, none.stdout, none.stderr]).to.deep.equal([1, '', 'Error: openrouter: OPENROUTER_API_KEY is not set\n'])
  })

  it('a refused key is one line naming the variable jp sent, never its value; the others are listed', async () => {
    const refusing = await startModelsServer('anthropic', ['x'], {refuse: 401})
    extra.push(refusing)
    const r = await runJp(['models'], {sandbox: sb, env: {...env, JP_CFG_PROVIDERS_LLM_ANTHROPIC_BASE_URL: refusing.url}})
    expect(r.code).to.equal(0)
    expect(r.stderr).to.include('jp: anthropic: 401 authentication_error: invalid x-api-key (jp sent the key in ANTHROPIC_API_KEY)\n')
    expect(r.stderr + r.stdout).to.not.include('sk-ant-test')
    expect(r.stdout).to.include('openai/gpt-4o\n')
  })

  it('a provider that does not answer within --timeout is one line naming its URL', async () => {
    const silent = await listenLocal(createServer(() => {}))
    extra.push(silent)
    const r = await runJp(['models', '--timeout', '1'], {sandbox: sb, env: {...env, JP_CFG_PROVIDERS_LLM_OLLAMA_BASE_URL: silent.url}})
    expect(r.code).to.equal(0)
    expect(r.stderr).to.include(`jp: ollama: no answer within 1 s from ${silent.url}\n`)
    expect(r.stdout).to.include('openai/gpt-4o\n')
  })

  it('nothing listed at all is exit 1', async () => {
    const r = await runJp(['models'], {sandbox: sb, env: {...env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', JP_CFG_PROVIDERS_LLM_OLLAMA_BASE_URL: dead.replace(/\/v1$/, '')}})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('')
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines).to.have.length(6)
    expect(lines.filter((l) => l.startsWith('jp: '))).to.have.length(5)
    expect(lines.at(-1)).to.equal('Error: no provider listed its models (see the lines above)')
  })

  it('--format json: one object per model', async () => {
    const r = await runJp(['models', 'anthropic', '--format', 'json'], {sandbox: sb, env})
    expect(r.code, r.stderr).to.equal(0)
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)
    expect(rows[0]).to.deep.equal({provider: 'anthropic', id: 'anthropic/claude-sonnet-4-5', model: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', default: true})
    expect(rows[1]).to.deep.equal({provider: 'anthropic', id: 'anthropic/claude-haiku-4-5', model: 'claude-haiku-4-5', name: 'claude-haiku-4-5', default: false})
    expect(rows).to.have.length(3)
  })

  it('an unknown PROVIDER is a usage error naming the known ones', async () => {
    const r = await runJp(['models', 'nope'], {sandbox: sb, env})
    expect(r.code).to.equal(2)
    expect(r.stderr).to.include('nope').and.include('anthropic')
  })

  it('on a terminal: the default marked *, display names, a hostile id sanitized', async () => {
    const hostile = await startModelsServer('openai', ['evil\u001b]0;pwned\u0007\u001b[2Jmodel'])
    extra.push(hostile)
    const s = await spawnPty([BIN, 'models'], {cwd: sb.cwd, env: {...sb.env, ...env, JP_CFG_PROVIDERS_LLM_OPENAI_BASE_URL: hostile.baseUrl}})
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    const screen = s.screenText()
    expect(screen).to.include('* anthropic/claude-sonnet-4-5  Claude Sonnet 4.5')
    expect(screen).to.include('  anthropic/claude-haiku-4-5\n')
    expect(screen).to.include('jp: openrouter: OPENROUTER_API_KEY is not set')
    expect(s.output()).to.not.include('\u001b]0;pwned')
    expect(s.output()).to.not.include('\u001b[2J')
    expect(screen).to.include('  openai/evil\\u001b]0;pwned')
  })
})
