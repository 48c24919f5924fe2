import {describe, it} from 'mocha'
import {expect} from 'chai'
import {createEchoProvider, ECHO_LABEL, echoDelayFromEnv, exampleArguments} from '../../src/lib/llm/echo.js'
import {isAbortError, type ChatRequest} from '../../src/lib/llm/types.js'
import {collect, never, ofType} from './collect.js'

const echo = createEchoProvider({delayMs: 0})
const tool = {
  name: 'search',
  description: 'Search files',
  parameters: {
    type: 'object',
    properties: {
      query: {type: 'string'},
      limit: {type: 'integer', minimum: 5},
      mode: {type: 'string', enum: ['fast', 'full']},
      exact: {type: 'boolean'},
      paths: {type: 'array', items: {type: 'string'}, minItems: 2},
      optional: {type: 'string'},
    },
    required: ['query', 'limit', 'mode', 'exact', 'paths'],
  },
}

describe('llm/echo model', () => {
  it('streams a labelled answer that quotes the user, word by word', async () => {
    const got = await collect(echo.stream({model: 'default', messages: [{role: 'user', content: 'hello there world'}], tools: []}, never()))
    expect(got.text).to.equal(`${ECHO_LABEL} You said: hello there world`)
    expect(ofType(got.events, 'text').length).to.be.greaterThan(5)
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop'})
  })

  it('calls the first tool once with arguments that fit its schema', async () => {
    const req: ChatRequest = {model: 'default', messages: [{role: 'user', content: 'find it'}], tools: [tool, {...tool, name: 'other'}]}
    const got = await collect(echo.stream(req, never()))
    const calls = ofType(got.events, 'tool_call')
    expect(calls).to.have.length(1)
    expect(calls[0].name).to.equal('search')
    expect(calls[0].arguments).to.deep.equal({query: 'example', limit: 5, mode: 'fast', exact: true, paths: ['example', 'example']})
    expect(got.text).to.contain(ECHO_LABEL)
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'tool_use'})
  })

  it('answers a tool result by quoting it', async () => {
    const req: ChatRequest = {
      model: 'default',
      tools: [tool],
      messages: [
        {role: 'user', content: 'find it'},
        {role: 'assistant', content: '', toolCalls: [{id: 'c1', name: 'search', arguments: {}}]},
        {role: 'tool', toolCallId: 'c1', name: 'search', content: 'src/a.ts:3: found', isError: false},
      ],
    }
    const got = await collect(echo.stream(req, never()))
    expect(got.text).to.equal(`${ECHO_LABEL} The tool \`search\` returned: src/a.ts:3: found`)
    expect(ofType(got.events, 'tool_call')).to.have.length(0)
    expect(got.events.at(-1)).to.deep.equal({type: 'finish', reason: 'stop'})
  })

  it('stops with an AbortError when aborted mid-answer', async () => {
    const slow = createEchoProvider({delayMs: 1000})
    const ac = new AbortController()
    const got = await collect(slow.stream({model: 'd', messages: [{role: 'user', content: 'a b c d e'}], tools: []}, ac.signal), () => ac.abort())
    expect(isAbortError(got.error)).to.equal(true)
    expect(ofType(got.events, 'text')).to.have.length(1)
  })

  it('reads its pace from JP_ECHO_DELAY_MS', () => {
    expect(echoDelayFromEnv({JP_ECHO_DELAY_MS: '0'})).to.equal(0)
    expect(echoDelayFromEnv({JP_ECHO_DELAY_MS: '75'})).to.equal(75)
    expect(echoDelayFromEnv({JP_ECHO_DELAY_MS: 'fast'})).to.equal(20)
    expect(echoDelayFromEnv({})).to.equal(20)
  })

  it('builds nested objects and numbers from their constraints', () => {
    const args = exampleArguments({
      name: 't',
      description: '',
      parameters: {
        type: 'object',
        properties: {opts: {type: 'object', properties: {depth: {type: 'number', maximum: 0.5}, tag: {const: 'x'}}, required: ['depth', 'tag']}},
        required: ['opts'],
      },
    })
    expect(args).to.deep.equal({opts: {depth: 0.5, tag: 'x'}})
  })
})
