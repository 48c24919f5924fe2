import {afterEach, describe, it} from 'mocha'
import {expect} from 'chai'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {parseModelId, resolveModel} from '../../src/lib/llm/index.js'
import {collect, never} from './collect.js'
import {fixture, type ReplayServer, startReplayServer} from './replay-server.js'

const hi = {model: '', messages: [{role: 'user' as const, content: 'hi'}], tools: []}

describe('llm/resolveModel', () => {
  let server: ReplayServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const providersAt = (url: string) => {
    const p = defaultConfig({}).providers.llm
    p.anthropic.base_url = url
    p.openai.base_url = `${url}/v1`
    p.llamacpp.base_url = `${url}/v1`
    p.ollama.base_url = url
    return p
  }

  it('splits at the first slash only', () => {
    expect(parseModelId('openrouter/anthropic/claude-3.5')).to.deep.equal({provider: 'openrouter', model: 'anthropic/claude-3.5'})
    expect(() => parseModelId('gpt-4')).to.throw('invalid model id "gpt-4": expected PROVIDER/MODEL')
    expect(() => parseModelId('openai/')).to.throw('expected PROVIDER/MODEL')
  })

  it('fails before any request when the key variable is unset, naming it', async () => {
    server = await startReplayServer([{body: fixture('anthropic-text.sse')}])
    let error: unknown
    try {
      await resolveModel('anthropic/claude-sonnet-4-5', providersAt(server.url), {ANTHROPIC_API_KEY: ''})
    } catch (e) {
      error = e
    }
    expect((error as Error).message).to.equal('ANTHROPIC_API_KEY is not set (needed by provider anthropic)')
    expect(server.requests).to.have.length(0)
  })

  it('rejects an unknown provider with the known ones listed', async () => {
    let error: unknown
    try {
      await resolveModel('mistral/large', defaultConfig({}).providers.llm, {})
    } catch (e) {
      error = e
    }
    expect((error as Error).message).to.equal('unknown provider "mistral" in model id "mistral/large" (known: echo, anthropic, openai, openrouter, llamacpp, ollama)')
  })

  for (const status of [401, 403]) {
    it(`a ${status} names the key variable jp sent, never its value`, async () => {
      server = await startReplayServer([{status, headers: {'content-type': 'application/json'}, body: '{"error":{"message":"bad key"}}'}])
      const {provider, model} = await resolveModel('openai/gpt-4.1', providersAt(server.url), {OPENAI_API_KEY: 'sk-secret-value'})
      const got = await collect(provider.stream({...hi, model}, never()))
      const message = (got.error as Error).message
      expect(message).to.include(`${status}`).and.include('(jp sent the key in OPENAI_API_KEY)')
      expect(message).to.not.include('sk-secret')
    })
  }

  it('wires anthropic with its key from the environment', async () => {
    server = await startReplayServer([{body: fixture('anthropic-text.sse')}])
    const {provider, model} = await resolveModel('anthropic/claude-sonnet-4-5', providersAt(server.url), {ANTHROPIC_API_KEY: 'sk-ant-env'})
    expect(model).to.equal('claude-sonnet-4-5')
    expect(provider.name).to.equal('anthropic')
    const got = await collect(provider.stream({...hi, model}, never()))
    expect(got.text).to.contain('Héllo')
    expect(server.requests[0].headers['x-api-key']).to.equal('sk-ant-env')
    expect((server.requests[0].json() as {model: string}).model).to.equal('claude-sonnet-4-5')
  })

  it('wires openai with a bearer key and keyless llamacpp without one', async () => {
    server = await startReplayServer([{body: fixture('openai-text.sse')}])
    const providers = providersAt(server.url)
    const openai = await resolveModel('openai/gpt-4.1', providers, {OPENAI_API_KEY: 'sk-env'})
    await collect(openai.provider.stream({...hi, model: openai.model}, never()))
    const local = await resolveModel('llamacpp/qwen3-8b', providers, {})
    await collect(local.provider.stream({...hi, model: local.model}, never()))
    expect(server.requests.map((r) => r.headers.authorization)).to.deep.equal(['Bearer sk-env', undefined])
    expect(server.requests.map((r) => (r.json() as {model: string}).model)).to.deep.equal(['gpt-4.1', 'qwen3-8b'])
  })

  it('wires ollama to /api/chat', async () => {
    server = await startReplayServer([{headers: {'content-type': 'application/x-ndjson'}, body: fixture('ollama-chat.ndjson')}])
    const {provider, model} = await resolveModel('ollama/qwen3:8b', providersAt(server.url), {})
    const got = await collect(provider.stream({...hi, model}, never()))
    expect(got.text).to.equal('Héllo thére 🙂')
    expect(server.requests[0].path).to.equal('/api/chat')
  })

  it('a base_url that is no http(s) URL fails before any request, naming the key (and OPENAI_BASE_URL when it came from there)', async () => {
    const p = defaultConfig({}).providers.llm
    p.ollama.base_url = 'localhost:11434'
    await resolveModel('ollama/qwen3:8b', p, {}).then(
      () => expect.fail('resolved'),
      (e: Error) => expect(e.message).to.equal('providers.llm.ollama.base_url = "localhost:11434": expected an http:// or https:// URL'),
    )
    const env = {OPENAI_BASE_URL: 'api.example.com/v1', OPENAI_API_KEY: 'k'}
    await resolveModel('openai/gpt-4.1', defaultConfig(env).providers.llm, env).then(
      () => expect.fail('resolved'),
      (e: Error) => expect(e.message).to.equal('providers.llm.openai.base_url = "api.example.com/v1" (from OPENAI_BASE_URL): expected an http:// or https:// URL'),
    )
  })

  it('echo/default needs no key and takes its pace from the env', async () => {
    const {provider, model} = await resolveModel('echo/default', defaultConfig({}).providers.llm, {JP_ECHO_DELAY_MS: '0'})
    expect(model).to.equal('default')
    const got = await collect(provider.stream({...hi, model}, never()))
    expect(got.text).to.match(/You said: hi$/)
  })
})
