import {afterEach, describe, it} from 'mocha'
import {expect} from 'chai'
import {createOpenAIProvider} from '../../src/lib/llm/openai.js'
import {isAbortError, isProviderError, type ChatRequest} from '../../src/lib/llm/types.js'
import {collect, never, ofType} from './collect.js'
import {fixture, type ReplayServer, startReplayServer} from './replay-server.js'

const simple: ChatRequest = {model: 'gpt-4.1', messages: [{role: 'user', content: 'hi'}], tools: []}

describe('llm/openai adapter', () => {
  let server: ReplayServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  const provider = (url: string, apiKey?: string, name = 'openai') => createOpenAIProvider({name, baseUrl: `${url}/v1`, apiKey})

  it('streams text, ignoring content: null and unknown fields, with the usage chunk and [DONE]', async () => {
    server = await startReplayServer([{body: fixture('openai-text.sse'), pieceBytes: 53}])
    const got = await collect(provider(server.url, 'sk-test').stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.text).to.equal('Héllo, wörld 🙂\nbye')
    expect(got.reasoning).to.equal('')
    expect(ofType(got.events, 'usage')).to.deep.equal([{type: 'usage', inputTokens: 19, outputTokens: 7, cachedTokens: 0}])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop', raw: 'stop'})
  })

  it('accumulates fragmented tool arguments (llama.cpp) with reasoning_content', async () => {
    server = await startReplayServer([{body: fixture('openai-tool-fragments.sse'), pieceBytes: 61}])
    const got = await collect(provider(server.url, undefined, 'llamacpp').stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.reasoning).to.equal('Need the file list first.')
    expect(got.text).to.equal('')
    expect(ofType(got.events, 'tool_call')).to.deep.equal([
      {type: 'tool_call', id: 'call_LcA1', name: 'list_files', arguments: {path: 'src', recursive: true}},
      {type: 'tool_call', id: 'call_LcB2', name: 'read_file', arguments: {path: 'README.md'}},
    ])
    expect(ofType(got.events, 'usage')).to.deep.equal([{type: 'usage', inputTokens: 230, outputTokens: 41}])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'tool_use', raw: 'tool_calls'})
  })

  it('takes whole arguments in one chunk with `reasoning` (Ollama /v1), mapping stop-after-tools to tool_use', async () => {
    server = await startReplayServer([{body: fixture('openai-tool-whole.sse')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.reasoning).to.equal('The user asks for the weather.')
    expect(ofType(got.events, 'tool_call')).to.deep.equal([
      {type: 'tool_call', id: 'call_ol7x2k', name: 'get_weather', arguments: {city: 'Paris', unit: 'celsius'}},
    ])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'tool_use', raw: 'stop'})
    // usage arrives after finish_reason but finish stays last
    expect(got.events.map((e) => e.type)).to.deep.equal(['reasoning', 'tool_call', 'usage', 'finish'])
  })

  it('reads reasoning from `thinking` and maps finish_reason length', async () => {
    server = await startReplayServer([{body: fixture('openai-thinking.sse')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.reasoning).to.equal('Let me think. Two plus two is four.')
    expect(got.text).to.equal('4')
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'length', raw: 'length'})
  })

  it('flags unparsable tool arguments instead of crashing', async () => {
    server = await startReplayServer([{body: fixture('openai-bad-args.sse')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(ofType(got.events, 'tool_call')).to.deep.equal([
      {
        type: 'tool_call',
        id: 'call_bad1',
        name: 'read_file',
        arguments: {},
        invalidArguments: true,
        rawArguments: '{"path": "a.txt"',
        argumentsProblem: 'the model sent arguments that are not a JSON object: {"path": "a.txt"',
      },
    ])
  })

  it('an error chunk mid-stream keeps the partial text and throws', async () => {
    server = await startReplayServer([{body: fixture('openai-error-midstream.sse')}])
    const got = await collect(provider(server.url, 'k', 'openrouter').stream(simple, never()))
    expect(got.text).to.equal('Half an answer')
    expect(isProviderError(got.error)).to.equal(true)
    expect((got.error as Error).message).to.equal('openrouter: Upstream provider disconnected')
  })

  it('retries 429 with retry-after: 0 and counts two requests', async () => {
    const limited = {error: {message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded'}}
    server = await startReplayServer([
      {status: 429, headers: {'content-type': 'application/json', 'retry-after': '0'}, body: JSON.stringify(limited)},
      {body: fixture('openai-text.sse')},
    ])
    const got = await collect(provider(server.url, 'k').stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.text).to.equal('Héllo, wörld 🙂\nbye')
    expect(server.requests).to.have.length(2)
  })

  it('honours retry-after-ms and gives up after the retry limit with the last error', async () => {
    const body = JSON.stringify({error: {message: 'The server had an error', type: 'server_error'}})
    server = await startReplayServer([{status: 500, headers: {'content-type': 'application/json', 'retry-after-ms': '5', 'retry-after': '30'}, body}])
    const got = await collect(provider(server.url, 'k').stream(simple, never()))
    expect((got.error as Error).message).to.match(/^openai: 500 server_error: The server had an error \(3 attempts, \d+\.\d s in all\)$/)
    expect((got.error as {retryable: boolean}).retryable).to.equal(true)
    // 1 try + 2 retries; with retry-after (30 s) honoured instead this would time out
    expect(server.requests).to.have.length(3)
  })

  it('does not retry a 400', async () => {
    const body = JSON.stringify({error: {message: "Invalid value: 'tool'.", type: 'invalid_request_error', param: 'messages[1].role', code: null}})
    server = await startReplayServer([{status: 400, headers: {'content-type': 'application/json'}, body}, {body: fixture('openai-text.sse')}])
    const got = await collect(provider(server.url, 'k').stream(simple, never()))
    expect((got.error as Error).message).to.equal("openai: 400 invalid_request_error: Invalid value: 'tool'.")
    expect((got.error as {retryable: boolean}).retryable).to.equal(false)
    expect(server.requests).to.have.length(1)
  })

  it('an error status whose body never comes fails after the idle timeout instead of hanging', async () => {
    server = await startReplayServer([{status: 503, headers: {'content-type': 'application/json'}, body: '{"error": {"message": "over', hold: true}])
    const p = createOpenAIProvider({name: 'openai', baseUrl: `${server.url}/v1`, timeoutMs: 300, retry: {maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0}})
    const got = await collect(p.stream(simple, never()))
    expect(isProviderError(got.error), String(got.error)).to.equal(true)
    expect((got.error as Error).message).to.equal('openai: 503 {"error": {"message": "over')
  })

  it('an API key echoed in a long error body is redacted before the body is cut to one line', async () => {
    const key = 'sk-live-0123456789abcdefghijklmnopqrstuvwxyz'
    const body = JSON.stringify({error: {type: 'invalid_request_error', message: `${'x'.repeat(260)} key ${key} rejected`}})
    server = await startReplayServer([{status: 401, headers: {'content-type': 'application/json'}, body}])
    const got = await collect(provider(server.url, key).stream(simple, never()))
    const message = (got.error as Error).message
    expect(message).to.include('[redacted')
    for (let n = 6; n <= key.length; n++) expect(message, `no ${n} characters of the key`).to.not.include(key.slice(0, n))
  })

  it('a dropped connection mid-stream is an error after the partial text, never replayed', async () => {
    const text = fixture('openai-text.sse')
    server = await startReplayServer([{body: text.slice(0, text.indexOf('"finish_reason":"stop"') - 200), destroy: true}])
    const got = await collect(provider(server.url, 'k').stream(simple, never()))
    expect(got.text).to.equal('Héllo, wörld 🙂\nbye')
    expect((got.error as Error).message).to.match(/^openai: connection lost mid-stream/)
    expect(server.requests).to.have.length(1)
  })

  it('a stream closed cleanly without [DONE] or finish_reason is an error', async () => {
    const text = fixture('openai-text.sse')
    server = await startReplayServer([{body: text.slice(0, text.indexOf('"finish_reason":"stop"') - 200)}])
    const got = await collect(provider(server.url, 'k').stream(simple, never()))
    expect(got.text).to.equal('Héllo, wörld 🙂\nbye')
    expect((got.error as Error).message).to.equal('openai: the stream ended before the response was complete')
  })

  it('abort mid-stream throws an AbortError the caller can recognise', async () => {
    const text = fixture('openai-text.sse')
    server = await startReplayServer([{body: text.slice(0, text.indexOf('"finish_reason":"stop"') - 200), hold: true}])
    const ac = new AbortController()
    const got = await collect(provider(server.url, 'k').stream(simple, ac.signal), () => ac.abort())
    expect(isAbortError(got.error)).to.equal(true)
    expect(got.events.length).to.be.greaterThan(0)
    await server.clientGone
  })

  it('abort during a retry wait stops at once without another request', async () => {
    server = await startReplayServer([{status: 503, headers: {'retry-after': '20'}, body: 'busy'}])
    const ac = new AbortController()
    const pending = collect(provider(server.url, 'k').stream(simple, ac.signal))
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 30))
    ac.abort()
    const got = await pending
    expect(isAbortError(got.error)).to.equal(true)
    expect(server.requests).to.have.length(1)
  })

  it('sends the exact request: bearer auth, tools, assistant tool_calls then tool messages', async () => {
    server = await startReplayServer([{body: fixture('openai-text.sse')}])
    const req: ChatRequest = {
      model: 'gpt-4.1',
      system: 'Be brief.',
      maxTokens: 500,
      reasoning: 'high',
      tools: [{name: 'read_file', description: 'Read a file', parameters: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']}}],
      messages: [
        {role: 'user', content: 'read both'},
        {
          role: 'assistant',
          content: '',
          reasoning: 'not sent back',
          toolCalls: [
            {id: 'call_1', name: 'read_file', arguments: {path: 'a'}},
            {id: 'call_2', name: 'read_file', arguments: {path: 'b'}},
          ],
        },
        {role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'A', isError: false},
        {role: 'tool', toolCallId: 'call_2', name: 'read_file', content: 'no such file', isError: true},
        {role: 'assistant', content: 'Done.'},
        {role: 'user', content: 'thanks'},
      ],
    }
    await collect(provider(server.url, 'sk-secret').stream(req, never()))
    const [r] = server.requests
    expect(r.path).to.equal('/v1/chat/completions')
    expect(r.headers.authorization).to.equal('Bearer sk-secret')
    expect(r.headers['content-type']).to.equal('application/json')
    expect(r.json()).to.deep.equal({
      model: 'gpt-4.1',
      messages: [
        {role: 'system', content: 'Be brief.'},
        {role: 'user', content: 'read both'},
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {id: 'call_1', type: 'function', function: {name: 'read_file', arguments: '{"path":"a"}'}},
            {id: 'call_2', type: 'function', function: {name: 'read_file', arguments: '{"path":"b"}'}},
          ],
        },
        {role: 'tool', tool_call_id: 'call_1', content: 'A'},
        {role: 'tool', tool_call_id: 'call_2', content: 'no such file'},
        {role: 'assistant', content: 'Done.'},
        {role: 'user', content: 'thanks'},
      ],
      stream: true,
      stream_options: {include_usage: true},
      tools: [
        {
          type: 'function',
          function: {name: 'read_file', description: 'Read a file', parameters: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']}},
        },
      ],
      max_completion_tokens: 500,
      reasoning_effort: 'high',
    })
  })

  it('sends no Authorization header without a key, and max_tokens to non-OpenAI servers', async () => {
    server = await startReplayServer([{body: fixture('openai-text.sse')}])
    await collect(provider(server.url, undefined, 'llamacpp').stream({...simple, maxTokens: 64}, never()))
    const [r] = server.requests
    expect(r.headers.authorization).to.equal(undefined)
    expect(r.json()).to.deep.equal({
      model: 'gpt-4.1',
      messages: [{role: 'user', content: 'hi'}],
      stream: true,
      stream_options: {include_usage: true},
      max_tokens: 64,
    })
  })
})
