// A turn built from its ports' test doubles (test/helpers/turn-ports.ts): the
// real loop, stream reader and tool coordinator over a scripted provider,
// tools answering in memory, a store in memory and a screen nobody reads.
import {expect} from 'chai'
import type {ChatRequest, Provider, StreamEvent} from '../../src/lib/llm/types.js'
import {runTurn} from '../../src/lib/turn/turn-loop.js'
import {memoryStore, turnPorts} from '../helpers/turn-ports.js'

/** A provider answering request n with `script(n)`, keeping every request. */
function scripted(script: (n: number) => StreamEvent[]): Provider & {requests: ChatRequest[]} {
  const requests: ChatRequest[] = []
  return {
    name: 'scripted',
    requests,
    async *stream(req) {
      requests.push(structuredClone(req))
      for (const ev of script(requests.length - 1)) yield ev
    },
  }
}

const CALL: StreamEvent = {type: 'tool_call', id: 'c1', name: 't', arguments: {}}

describe('a turn from its ports', () => {
  it('a tool call, its result and the answer: every event in the store, each phase written', async () => {
    const provider = scripted((n) => (n === 0 ? [CALL] : [{type: 'text', text: 'done'}]))
    const store = memoryStore()
    const outcome = await runTurn('go', {...turnPorts(provider), store})
    expect(outcome).to.deep.equal({type: 'done'})
    expect(store.events.map((e) => e.type)).to.deep.equal(['turn_start', 'chat_request', 'tool_call_request', 'tool_call_response', 'chat_response'])
    expect(provider.requests.map((r) => r.messages.map((m) => m.role).join(','))).to.deep.equal(['user', 'user,assistant,tool'])
    // The query, the response with its call, the tool result, the answer.
    expect(store.saves).to.be.at.least(4)
    expect(store.saved[0].map((e) => e.type), 'the query is on disk before the first request').to.deep.equal(['turn_start', 'chat_request'])
  })

  it("tools joining later (ToolsPort.more) are in the step's request, sorted with the others, and their calls run", async () => {
    const provider = scripted((n) => (n === 0 ? [{...CALL, name: 'a.late'}] : [{type: 'text', text: 'ok'}]))
    const ran: string[] = []
    const deps = turnPorts(provider, {
      tools: {
        more: async () => ({
          definitions: [{name: 'a.late', description: 'joins', parameters: {type: 'object', properties: {}}}],
          configs: {'a.late': {command: 'late', run: 'unattended', result: 'unattended'}},
          enabled: new Set(['a.late']),
          explicit: new Set(),
        }),
        run: async (call) => {
          ran.push(call.name)
          return {content: 'late result', isError: false}
        },
      },
    })
    expect(await runTurn('go', deps)).to.deep.equal({type: 'done'})
    expect(provider.requests[0].tools.map((t) => t.name)).to.deep.equal(['a.late', 't'])
    expect(ran).to.deep.equal(['a.late'])
    // The port itself is left as it was: each step asks again.
    expect(deps.tools.definitions.map((t) => t.name)).to.deep.equal(['t'])
  })
})
