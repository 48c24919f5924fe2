import {afterEach, describe, it} from 'mocha'
import {expect} from 'chai'
import {createAnthropicProvider} from '../../src/lib/llm/anthropic.js'
import {isAbortError, isProviderError, type ChatRequest} from '../../src/lib/llm/types.js'
import {collect, never, ofType} from './collect.js'
import {fixture, type ReplayServer, startReplayServer} from './replay-server.js'

const simple: ChatRequest = {model: 'claude-sonnet-4-5', messages: [{role: 'user', content: 'hi'}], tools: []}

describe('llm/anthropic adapter', () => {
  let server: ReplayServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  const provider = (url: string) => createAnthropicProvider({name: 'anthropic', baseUrl: url, apiKey: 'sk-ant-test'})

  it('streams text split at arbitrary byte boundaries, skipping pings, with usage and finish last', async () => {
    server = await startReplayServer([{body: fixture('anthropic-text.sse'), pieceBytes: 29}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.text).to.equal('Héllo, wörld — two lines\nhere 🙂')
    expect(ofType(got.events, 'usage')).to.deep.equal([{type: 'usage', inputTokens: 25, outputTokens: 14, cachedTokens: 4}])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop', raw: 'end_turn'})
  })

  it('streams thinking with its signature, text, and tool calls parsed at block stop', async () => {
    server = await startReplayServer([{body: fixture('anthropic-thinking-tool.sse'), pieceBytes: 31}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.reasoning).to.equal('The user wants the files in src; I should list them.')
    expect(ofType(got.events, 'reasoning').filter((e) => e.signature)).to.deep.equal([
      {type: 'reasoning', text: '', signature: 'EqQBCkYIBxgCKkBsig0000'},
    ])
    expect(got.text).to.equal("I'll list the directory.")
    expect(ofType(got.events, 'tool_call')).to.deep.equal([
      {type: 'tool_call', id: 'toolu_01ListFilesCccc', name: 'list_files', arguments: {path: 'src', depth: 2}},
      {type: 'tool_call', id: 'toolu_01NoArgsDddd', name: 'git_status', arguments: {}},
    ])
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'tool_use', raw: 'tool_use'})
    expect(ofType(got.events, 'usage')).to.deep.equal([{type: 'usage', inputTokens: 412, outputTokens: 97}])
  })

  it('an error event after a 200 keeps the partial text, then throws a one-line ProviderError (not retried)', async () => {
    server = await startReplayServer([{body: fixture('anthropic-error-midstream.sse')}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.text).to.equal('Partial answer before trouble')
    expect(isProviderError(got.error)).to.equal(true)
    expect((got.error as Error).message).to.equal('anthropic: overloaded_error: Overloaded')
    expect(ofType(got.events, 'finish')).to.have.length(0)
    expect(server.requests).to.have.length(1)
  })

  it('an overloaded error event before any content is retried', async () => {
    server = await startReplayServer([{body: fixture('anthropic-error-first.sse')}, {body: fixture('anthropic-text.sse')}])
    const fast = createAnthropicProvider({name: 'anthropic', baseUrl: server.url, apiKey: 'k', retry: {maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1}})
    const got = await collect(fast.stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.text).to.equal('Héllo, wörld — two lines\nhere 🙂')
    expect(server.requests).to.have.length(2)
  })

  it('retries 529 with retry-after: 0, then succeeds', async () => {
    const overloaded = {type: 'error', error: {type: 'overloaded_error', message: 'Overloaded'}}
    server = await startReplayServer([
      {status: 529, headers: {'content-type': 'application/json', 'retry-after': '0'}, body: JSON.stringify(overloaded)},
      {body: fixture('anthropic-text.sse')},
    ])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.error).to.equal(undefined)
    expect(got.text).to.contain('Héllo')
    expect(server.requests).to.have.length(2)
  })

  it('a 401 is not retried and reads as one line', async () => {
    const body = {type: 'error', error: {type: 'authentication_error', message: 'invalid x-api-key'}, request_id: 'req_1'}
    server = await startReplayServer([{status: 401, headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect((got.error as Error).message).to.equal('anthropic: 401 authentication_error: invalid x-api-key')
    expect((got.error as {status?: number}).status).to.equal(401)
    expect(server.requests).to.have.length(1)
  })

  it('a dropped connection mid-stream keeps the partial text and throws a ProviderError', async () => {
    const text = fixture('anthropic-text.sse')
    const cut = text.indexOf('event: content_block_stop')
    server = await startReplayServer([{body: text.slice(0, cut), destroy: true}])
    const got = await collect(provider(server.url).stream(simple, never()))
    expect(got.text).to.equal('Héllo, wörld — two lines\nhere 🙂')
    expect(isProviderError(got.error)).to.equal(true)
    expect((got.error as Error).message).to.match(/^anthropic: connection lost mid-stream/)
    expect(server.requests).to.have.length(1)
  })

  it('abort mid-stream ends the iterator with an AbortError after the received text', async () => {
    const text = fixture('anthropic-text.sse')
    const cut = text.indexOf('event: content_block_stop')
    server = await startReplayServer([{body: text.slice(0, cut), hold: true}])
    const ac = new AbortController()
    const got = await collect(provider(server.url).stream(simple, ac.signal), (e) => {
      if (e.type === 'text') ac.abort()
    })
    expect(isAbortError(got.error)).to.equal(true)
    expect(isProviderError(got.error)).to.equal(false)
    expect(got.text.length).to.be.greaterThan(0)
    await server.clientGone
  })

  it('sends the exact request: headers, system, tools, merged roles, echoed tool_use and tool_result blocks', async () => {
    server = await startReplayServer([{body: fixture('anthropic-text.sse')}])
    const req: ChatRequest = {
      model: 'claude-sonnet-4-5',
      system: 'Be brief.',
      maxTokens: 1000,
      reasoning: 'low',
      tools: [
        {
          name: 'list_files',
          description: 'List files',
          parameters: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']},
        },
      ],
      messages: [
        {role: 'user', content: 'list src'},
        {role: 'user', content: 'please'},
        {
          role: 'assistant',
          content: 'Listing.',
          reasoning: 'Need files.',
          thinking: [{type: 'thinking', thinking: 'Need files.', signature: 'sig1'}],
          toolCalls: [{id: 'toolu_1', name: 'list_files', arguments: {path: 'src'}}],
        },
        {role: 'tool', toolCallId: 'toolu_1', name: 'list_files', content: 'a.ts\nb.ts', isError: false},
        {role: 'user', content: 'and now?'},
        {role: 'assistant', content: ''},
        {role: 'assistant', content: 'Done', toolCalls: [{id: 'toolu_2', name: 'list_files', arguments: {path: '.'}}]},
        {role: 'tool', toolCallId: 'toolu_2', name: 'list_files', content: 'no such dir', isError: true},
      ],
    }
    await collect(provider(server.url).stream(req, never()))
    const [r] = server.requests
    expect(r.method).to.equal('POST')
    expect(r.path).to.equal('/v1/messages')
    expect(r.headers['x-api-key']).to.equal('sk-ant-test')
    expect(r.headers['anthropic-version']).to.equal('2023-06-01')
    expect(r.headers['content-type']).to.equal('application/json')
    expect(r.headers.authorization).to.equal(undefined)
    expect(r.json()).to.deep.equal({
      model: 'claude-sonnet-4-5',
      max_tokens: 10_240,
      system: 'Be brief.',
      messages: [
        {role: 'user', content: [{type: 'text', text: 'list src'}, {type: 'text', text: 'please'}]},
        {
          role: 'assistant',
          content: [
            {type: 'thinking', thinking: 'Need files.', signature: 'sig1'},
            {type: 'text', text: 'Listing.'},
            {type: 'tool_use', id: 'toolu_1', name: 'list_files', input: {path: 'src'}},
          ],
        },
        {
          role: 'user',
          content: [
            {type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts\nb.ts'},
            {type: 'text', text: 'and now?'},
          ],
        },
        {
          role: 'assistant',
          content: [
            {type: 'text', text: 'Done'},
            {type: 'tool_use', id: 'toolu_2', name: 'list_files', input: {path: '.'}},
          ],
        },
        {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such dir', is_error: true}]},
      ],
      tools: [
        {
          name: 'list_files',
          description: 'List files',
          input_schema: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']},
        },
      ],
      thinking: {type: 'enabled', budget_tokens: 2048},
      stream: true,
    })
  })
})
