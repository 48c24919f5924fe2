// Every model parameter of the config schema reaches each provider under the
// provider's own name (checked in the body a local server received), or the
// query stops before any request with one line naming the key.
import {expect} from 'chai'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {createAnthropicProvider} from '../../src/lib/llm/anthropic.js'
import {createOllamaProvider} from '../../src/lib/llm/ollama.js'
import {createOpenAIProvider} from '../../src/lib/llm/openai.js'
import {modelParametersProblem} from '../../src/lib/llm/parameters.js'
import type {ChatRequest, Provider} from '../../src/lib/llm/types.js'
import {makeSandbox, runJp} from '../helpers/cli.js'
import {anthropicFollowUp, ollamaFollowUp, openaiFollowUp} from './oracle/streams.js'
import {collect, never} from './collect.js'
import {startReplayServer, type ReplayServer} from './replay-server.js'

const base: ChatRequest = {model: 'm', messages: [{role: 'user', content: 'hi'}], tools: []}

describe('llm: model parameters reach each provider under its own name', function () {
  this.timeout(60_000)
  let server: ReplayServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  async function sent(make: (url: string) => Provider, body: string, req: Partial<ChatRequest>): Promise<Record<string, unknown>> {
    server = await startReplayServer([{body}])
    const got = await collect(make(server.url).stream({...base, ...req}, never()))
    expect(got.error).to.equal(undefined)
    return server.requests[0].json() as Record<string, unknown>
  }

  it('anthropic: max_tokens, temperature, thinking.budget_tokens', async () => {
    const body = await sent((url) => createAnthropicProvider({name: 'anthropic', baseUrl: url}), anthropicFollowUp(), {
      maxTokens: 20_000,
      temperature: 1,
      reasoning: '4096',
    })
    expect(body).to.include({max_tokens: 20_000, temperature: 1})
    expect(body.thinking).to.deep.equal({type: 'enabled', budget_tokens: 4096})
  })

  it('openai: max_completion_tokens, temperature, reasoning_effort', async () => {
    const body = await sent((url) => createOpenAIProvider({name: 'openai', baseUrl: url}), openaiFollowUp(), {
      maxTokens: 300,
      temperature: 0.25,
      reasoning: 'High',
    })
    expect(body).to.include({max_completion_tokens: 300, temperature: 0.25, reasoning_effort: 'high'})
    expect(body).not.to.have.property('max_tokens')
  })

  it('openai-compatible servers: max_tokens, temperature', async () => {
    const body = await sent((url) => createOpenAIProvider({name: 'llamacpp', baseUrl: url}), openaiFollowUp(), {maxTokens: 300, temperature: 0})
    expect(body).to.include({max_tokens: 300, temperature: 0})
  })

  it('ollama: options.num_predict, options.temperature, think', async () => {
    const body = await sent((url) => createOllamaProvider({name: 'ollama', baseUrl: url}), ollamaFollowUp(), {
      maxTokens: 64,
      temperature: 0.7,
      reasoning: 'low',
    })
    expect(body.options).to.deep.equal({num_predict: 64, temperature: 0.7})
    expect(body.think).to.equal('low')
  })

  describe('rejected when the provider has no place for them', () => {
    const cases: Array<[string, Parameters<typeof modelParametersProblem>, RegExp | undefined]> = [
      ['a thinking budget on openai', ['openai', 'openai', {reasoning: '4096'}], /^assistant\.model\.parameters\.reasoning = "4096": openai has no thinking budget/],
      ['a thinking budget on ollama', ['ollama', 'ollama', {reasoning: '2048'}], /reasoning = "2048": ollama has no thinking budget/],
      ['"minimal" on ollama', ['ollama', 'ollama', {reasoning: 'minimal'}], /reasoning = "minimal": ollama does not know this level/],
      ['an unknown level', ['anthropic', 'anthropic', {reasoning: 'deep'}], /reasoning = "deep": expected true, false, a token budget/],
      ['a budget below 1024', ['anthropic', 'anthropic', {reasoning: '500'}], /at least 1024/],
      ['temperature above 1 on anthropic', ['anthropic', 'anthropic', {temperature: 1.5}], /temperature = 1.5: anthropic takes a temperature from 0 to 1/],
      ['temperature above 2 on openai', ['openai', 'openrouter', {temperature: 2.5}], /temperature = 2.5: openrouter takes a temperature from 0 to 2/],
      ['temperature ≠ 1 with thinking on anthropic', ['anthropic', 'anthropic', {temperature: 0.2, reasoning: true}], /only 1 while assistant\.model\.parameters\.reasoning is on/],
      ['a fractional max_tokens', ['ollama', 'ollama', {max_tokens: 10.5}], /max_tokens = 10.5: expected a positive whole number/],
      ['nothing wrong', ['anthropic', 'anthropic', {temperature: 0.2, reasoning: false, max_tokens: 100}], undefined],
      ['levels on openai', ['openai', 'openai', {reasoning: 'minimal', temperature: 2}], undefined],
    ]
    for (const [name, args, want] of cases) {
      it(name, () => {
        const problem = modelParametersProblem(...args)
        if (want === undefined) expect(problem).to.equal(undefined)
        else expect(problem).to.match(want)
      })
    }
  })

  describe('jp query (built CLI)', () => {
    /** Runs `jp query hi` against a local server for `provider` with `parameters` (TOML lines). */
    async function query(provider: 'anthropic' | 'openai', parameters: string, stream: string) {
      const sb = makeSandbox({ANTHROPIC_API_KEY: 'sk-ant-param', OPENAI_API_KEY: 'sk-param'})
      try {
        server = await startReplayServer([{body: stream}])
        const file = join(sb.home, 'config.toml')
        const base = provider === 'openai' ? `${server.url}/v1` : server.url
        writeFileSync(
          file,
          `[assistant.model]\nid = "${provider}/model-p"\n[assistant.model.parameters]\n${parameters}\n[providers.llm.${provider}]\nbase_url = "${base}"\n`,
        )
        return await runJp(['query', '--cfg', file, 'hi'], {sandbox: sb})
      } finally {
        sb.cleanup()
      }
    }

    it('sends the configured temperature', async () => {
      const r = await query('anthropic', 'temperature = 0.3\nmax_tokens = 512', anthropicFollowUp())
      expect(r.code, r.stderr).to.equal(0)
      expect(server!.requests[0].json()).to.include({temperature: 0.3, max_tokens: 512})
    })

    it('stops before any request on a parameter the provider cannot take, naming the key', async () => {
      const r = await query('openai', 'reasoning = "4096"', openaiFollowUp())
      expect(r.code).to.equal(1)
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '')
      expect(lines).to.have.length(1)
      expect(lines[0]).to.match(/assistant\.model\.parameters\.reasoning = "4096": openai has no thinking budget/)
      expect(server!.requests).to.have.length(0)
    })
  })
})
