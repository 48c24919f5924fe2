import {afterEach, describe, it} from 'mocha'
import {expect} from 'chai'
import {createOllamaProvider} from '../../src/lib/llm/ollama.js'
import {isProviderError, type ChatRequest} from '../../src/lib/llm/types.js'
import {collect, never, ofType} from './collect.js'
import {fixture, type ReplayServer, startReplayServer} from './replay-server.js'

const simple: ChatRequest = {model: 'qwen3:8b', messages: [{role: 'user', content: 'hi'}], tools: []}
const ndjson = {'content-type': 'application/x-ndjson'}

describe('llm/ollama adapter', () => {
  let server: ReplayServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  const provider = (url: string) => createOllamaProvider({name: 'ollama', baseUrl: url})

  it('streams thinking and content from NDJSON split mid-line, with usage and done_reason', async () => {
    server = await startReplayServer([{headers: ndjson, body: fixture('ollama-chat.ndjson'), pieceBytes: 41}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.reasoning).to.equal('Greeting; answer briefly.')
    expect(got.text).to.equal('Héllo thére 🙂')
    expect(ofType(got.events, 'usage')).to.deep.equal([{type: 'usage', inputTokens: 26, outputTokens: 9}])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop', raw: 'stop'})
  })

  it('takes whole tool calls with object arguments and no id, synthesising distinct ids', async () => {
    server = await startReplayServer([{headers: ndjson, body: fixture('ollama-tools.ndjson')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    const calls = ofType(got.events, 'tool_call')
    expect(calls.map(({name, arguments: args}) => ({name, args}))).to.deep.equal([
      {name: 'get_weather', args: {city: 'Paris', days: 3}},
      {name: 'get_time', args: {zone: 'Europe/Paris'}},
    ])
    expect(calls[0].id).to.match(/^call_[0-9a-f]{8}_0$/)
    expect(calls[1].id).to.match(/^call_[0-9a-f]{8}_1$/)
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'tool_use', raw: 'stop'})
  })

  it('sends the key of providers.llm.ollama.api_key_env as a bearer token, and redacts it from errors', async () => {
    const key = 'ollama-secret-key-123456'
    server = await startReplayServer([
      {headers: ndjson, body: fixture('ollama-chat.ndjson')},
      {status: 401, headers: {'content-type': 'application/json'}, body: JSON.stringify({error: `bad key ${key}`})},
    ])
    const keyed = createOllamaProvider({name: 'ollama', baseUrl: server.url, apiKey: key})
    expect((await collect(keyed.stream(simple, never()))).text).to.equal('Héllo thére 🙂')
    expect(server.requests[0].headers.authorization).to.equal(`Bearer ${key}`)
    const failed = await collect(keyed.stream(simple, never()))
    expect((failed.error as Error).message).to.equal('ollama: 401 bad key [redacted key]')
    await collect(provider(server.url).stream(simple, never()))
    expect(server.requests[2].headers.authorization, 'no key, no header').to.equal(undefined)
  })

  it('an {"error"} line keeps the partial text and throws a ProviderError', async () => {
    server = await startReplayServer([{headers: ndjson, body: fixture('ollama-error.ndjson')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.text).to.equal('Starting')
    expect(isProviderError(got.error)).to.equal(true)
    expect((got.error as Error).message).to.equal('ollama: an error was encountered while running the model: out of memory')
  })

  it('a 404 for an unknown model reads as one line and is not retried', async () => {
    server = await startReplayServer([{status: 404, headers: {'content-type': 'application/json'}, body: '{"error":"model \\"nope\\" not found, try pulling it first"}'}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect((got.error as Error).message).to.equal('ollama: 404 model "nope" not found, try pulling it first')
    expect(server.requests).to.have.length(1)
  })

  it('sends the native request: tools, assistant tool_calls with object arguments, tool results by name', async () => {
    server = await startReplayServer([{headers: ndjson, body: fixture('ollama-chat.ndjson')}])
    const req: ChatRequest = {
      model: 'qwen3:8b',
      system: 'Be brief.',
      reasoning: true,
      maxTokens: 256,
      tools: [{name: 'get_weather', description: 'Weather', parameters: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}}],
      messages: [
        {role: 'user', content: 'weather?'},
        {role: 'assistant', content: '', reasoning: 'Use the tool.', toolCalls: [{id: 'call_x_0', name: 'get_weather', arguments: {city: 'Paris'}}]},
        {role: 'tool', toolCallId: 'call_x_0', name: 'get_weather', content: 'sunny', isError: false},
      ],
    }
    await collect(provider(server.url).stream(req, never()))
    const [r] = server.requests
    expect(r.path).to.equal('/api/chat')
    expect(r.headers.authorization).to.equal(undefined)
    expect(r.json()).to.deep.equal({
      model: 'qwen3:8b',
      messages: [
        {role: 'system', content: 'Be brief.'},
        {role: 'user', content: 'weather?'},
        {role: 'assistant', content: '', thinking: 'Use the tool.', tool_calls: [{function: {name: 'get_weather', arguments: {city: 'Paris'}}}]},
        {role: 'tool', content: 'sunny', tool_name: 'get_weather'},
      ],
      stream: true,
      tools: [{type: 'function', function: {name: 'get_weather', description: 'Weather', parameters: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}}}],
      think: true,
      options: {num_predict: 256},
    })
  })
})
