import {expect} from 'chai'
import {eventsToMessages} from '../../src/lib/turn/messages.js'
import {finishNotice, ResponseParts} from '../../src/lib/turn/response.js'
import {event} from '../../src/lib/conversation/events.js'

describe('turn: one response from stream events to stored events and back', () => {
  it('keeps each thinking block with its own signature, redacted blocks and order; unsigned reasoning stays text', () => {
    const parts = new ResponseParts()
    for (const ev of [
      {type: 'reasoning', text: 'First '},
      {type: 'reasoning', text: 'thought.'},
      {type: 'reasoning', text: '', signature: 'sig-A'},
      {type: 'redacted_reasoning', data: 'R1=='},
      {type: 'reasoning', text: 'Second thought.'},
      {type: 'reasoning', text: '', signature: 'sig-B'},
      {type: 'text', text: 'Calling.'},
      {type: 'tool_call', id: 't1', name: 'greet', arguments: {name: 'Ann'}},
      {type: 'finish', reason: 'tool_use', raw: 'tool_use'},
    ] as const) {
      parts.add(ev)
    }
    expect(parts.finish).to.deep.equal({reason: 'tool_use', raw: 'tool_use'})
    const stored = parts.toEvents().map(({timestamp: _t, ...rest}) => rest)
    expect(stored).to.deep.equal([
      {type: 'chat_response', reasoning: 'First thought.', signature: 'sig-A'},
      {type: 'chat_response', reasoning: '', redacted_thinking: 'R1=='},
      {type: 'chat_response', reasoning: 'Second thought.', signature: 'sig-B'},
      {type: 'chat_response', message: 'Calling.'},
      {type: 'tool_call_request', id: 't1', name: 'greet', arguments: {name: 'Ann'}},
    ])

    const messages = eventsToMessages([event.chatRequest('q'), ...parts.toEvents(), event.toolCallResponse('t1', 'Hello, Ann!')])
    expect(messages[1]).to.deep.equal({
      role: 'assistant',
      content: 'Calling.',
      reasoning: 'First thought.Second thought.',
      thinking: [
        {type: 'thinking', thinking: 'First thought.', signature: 'sig-A'},
        {type: 'redacted_thinking', data: 'R1=='},
        {type: 'thinking', thinking: 'Second thought.', signature: 'sig-B'},
      ],
      toolCalls: [{id: 't1', name: 'greet', arguments: {name: 'Ann'}}],
    })
  })

  it('an interrupted thinking block is kept as unsigned reasoning (never sent to Anthropic as a signed block)', () => {
    const parts = new ResponseParts()
    parts.add({type: 'reasoning', text: 'half a th'})
    expect(parts.empty).to.equal(false)
    const messages = eventsToMessages([event.chatRequest('q'), ...parts.toEvents()])
    expect(messages[1]).to.deep.equal({role: 'assistant', content: '', reasoning: 'half a th'})
  })

  it('notices only for endings other than a normal stop or a tool call, naming the raw reason', () => {
    expect(finishNotice('stop', 'end_turn')).to.equal(undefined)
    expect(finishNotice('tool_use', 'tool_calls')).to.equal(undefined)
    expect(finishNotice('refusal', 'refusal')).to.equal('The model refused to answer (refusal).')
    expect(finishNotice('content_filter', 'content_filter')).to.match(/content filter \(content_filter\)/)
    expect(finishNotice('other', 'load')).to.match(/unexpected reason \(load\)/)
  })
})
