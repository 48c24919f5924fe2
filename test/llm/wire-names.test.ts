// Tool names on the wire: `SERVER.TOOL` is not a valid OpenAI/Anthropic tool
// name; the provider sees an encoded one and jp sees the real one back.
import {expect} from 'chai'
import {wireName, wireNames, withWireToolNames} from '../../src/lib/llm/wire-names.js'
import type {ChatRequest, Provider, StreamEvent} from '../../src/lib/llm/types.js'

const VALID = /^[a-zA-Z0-9_-]{1,64}$/

describe('llm: tool names on the wire', () => {
  it('a valid name is itself; a dotted one and one with any other character becomes valid', () => {
    expect(wireName('greet')).to.equal('greet')
    expect(wireName('fx.echo')).to.equal('fx__echo')
    for (const name of ['fx.a b/c', 'fx.' + 'x'.repeat(80), 'srv.ünïcode']) expect(wireName(name)).to.match(VALID)
  })

  it('two names never share a wire name, and each decodes back', () => {
    const names = ['fx__echo', 'fx.echo', 'a.b c', 'a.b_c']
    const {encode, decode} = wireNames(names)
    const wires = names.map(encode)
    expect(new Set(wires).size).to.equal(names.length)
    for (const n of names) {
      expect(encode(n)).to.match(VALID)
      expect(decode(encode(n))).to.equal(n)
    }
  })

  it('the provider sees encoded names (tools, earlier calls, results); the stream gives the real ones back', async () => {
    let seen: ChatRequest | undefined
    const inner: Provider = {
      name: 'test',
      async *stream(req): AsyncGenerator<StreamEvent> {
        seen = req
        yield {type: 'tool_call', id: 'c2', name: req.tools[0].name, arguments: {}}
        yield {type: 'finish', reason: 'tool_use'}
      },
    }
    const req: ChatRequest = {
      model: 'm',
      tools: [{name: 'fx.echo', description: 'd', parameters: {type: 'object'}}],
      messages: [
        {role: 'user', content: 'go'},
        {role: 'assistant', content: '', toolCalls: [{id: 'c1', name: 'fx.echo', arguments: {}}]},
        {role: 'tool', toolCallId: 'c1', name: 'fx.echo', content: 'ok', isError: false},
      ],
    }
    const events: StreamEvent[] = []
    for await (const e of withWireToolNames(inner).stream(req, new AbortController().signal)) events.push(e)
    expect(seen!.tools[0].name).to.equal('fx__echo')
    expect(seen!.messages[1]).to.deep.include({toolCalls: [{id: 'c1', name: 'fx__echo', arguments: {}}]})
    expect(seen!.messages[2]).to.deep.include({name: 'fx__echo'})
    expect(events[0]).to.deep.include({type: 'tool_call', name: 'fx.echo'})
    // The caller's request is not changed.
    expect(req.tools[0].name).to.equal('fx.echo')
  })
})
