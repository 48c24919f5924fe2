import {expect} from 'chai'
import {event} from '../../src/lib/conversation/events.js'
import {eventsToMessages} from '../../src/lib/turn/messages.js'
import {enabledToolNames, toolDefinitions} from '../../src/lib/turn/tool-selection.js'

describe('turn: events → messages', () => {
  it('groups reasoning, text and tool calls into one assistant message followed by tool results', () => {
    const messages = eventsToMessages([
      event.turnStart(),
      event.chatRequest('list files'),
      event.reasoning('thinking'),
      event.message('Let me look.'),
      event.toolCallRequest('c1', 'ls', {dir: '.'}),
      event.toolCallResponse('c1', 'a\nb', false),
      event.message('Two files.'),
      event.chatRequest('thanks'),
    ])
    expect(messages).to.deep.equal([
      {role: 'user', content: 'list files'},
      {role: 'assistant', content: 'Let me look.', reasoning: 'thinking', toolCalls: [{id: 'c1', name: 'ls', arguments: {dir: '.'}}]},
      {role: 'tool', toolCallId: 'c1', name: 'ls', content: 'a\nb', isError: false},
      {role: 'assistant', content: 'Two files.'},
      {role: 'user', content: 'thanks'},
    ])
  })

  it('sends a stored thinking signature back with its reasoning', () => {
    const messages = eventsToMessages([event.chatRequest('q'), {...event.reasoning('hmm'), signature: 'sig-1'}, event.message('a')])
    expect(messages[1]).to.deep.equal({
      role: 'assistant',
      content: 'a',
      reasoning: 'hmm',
      thinking: [{type: 'thinking', thinking: 'hmm', signature: 'sig-1'}],
    })
  })

  it('leaves out a tool call without a response and a response without a call', () => {
    const messages = eventsToMessages([
      event.chatRequest('q'),
      event.message('partial'),
      event.toolCallRequest('dangling', 'ls', {}),
      event.toolCallResponse('orphan', 'x'),
      {timestamp: 't', type: 'future_kind', payload: 1},
    ])
    expect(messages).to.deep.equal([
      {role: 'user', content: 'q'},
      {role: 'assistant', content: 'partial'},
    ])
  })
})

describe('turn: tool selection', () => {
  const tools = {
    '*': {run: 'ask' as const},
    ls: {command: 'ls', summary: 'List files', parameters: {dir: {type: 'string', description: 'Directory', required: true}}},
    rm: {command: 'rm', enable: false},
  }

  it('enables configured tools, adds --tool, removes --no-tool', () => {
    expect([...enabledToolNames(tools, {explicit: [], disabled: []})]).to.deep.equal(['ls'])
    expect([...enabledToolNames(tools, {explicit: ['rm'], disabled: ['ls']})]).to.deep.equal(['rm'])
  })

  it('rejects an unknown tool name, naming the flag and the known tools', () => {
    expect(() => enabledToolNames(tools, {explicit: ['nope'], disabled: []})).to.throw("--tool nope: no tool named 'nope' is configured (known: ls, rm)")
  })

  it('builds JSON schemas from the parameters', () => {
    expect(toolDefinitions(tools, new Set(['ls']))).to.deep.equal([
      {
        name: 'ls',
        description: 'List files',
        parameters: {type: 'object', properties: {dir: {type: 'string', description: 'Directory'}}, required: ['dir']},
      },
    ])
  })
})
