// Tool names on the wire. OpenAI takes `[a-zA-Z0-9_-]{1,64}` (Anthropic the
// same), but an MCP server's tools are `SERVER.TOOL` and a server's own tool
// names may hold anything. The provider sees an encoded name and everything
// above the provider (events, prompts, the conversation files, `--format
// json`) sees the real one: requests are encoded here, tool calls decoded.
import {createHash} from 'node:crypto'
import type {ChatMessage, ChatRequest, Provider, StreamEvent} from './types.js'

const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/

const hashOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 8)

/** The wire name of `name` on its own: itself when valid; `.` as `__`; anything else replaced and made unique by a hash. */
export function wireName(name: string): string {
  if (WIRE_NAME.test(name)) return name
  const dotted = name.replaceAll('.', '__')
  if (WIRE_NAME.test(dotted)) return dotted
  return `${dotted.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 55)}_${hashOf(name)}`
}

/** Both directions for the tools of one request; two names never share a wire name. */
export function wireNames(names: Iterable<string>): {encode(name: string): string; decode(wire: string): string} {
  const toWire = new Map<string, string>()
  const fromWire = new Map<string, string>()
  const taken = new Set<string>()
  const all = [...names]
  // Valid names keep themselves; an encoded one that meets one is hashed.
  for (const name of all) if (WIRE_NAME.test(name)) taken.add(name)
  for (const name of all) {
    let wire = wireName(name)
    if (wire !== name && taken.has(wire)) wire = `${wire.slice(0, 55)}_${hashOf(name)}`
    taken.add(wire)
    toWire.set(name, wire)
    fromWire.set(wire, name)
  }
  return {
    encode: (name) => toWire.get(name) ?? wireName(name),
    decode: (wire) => fromWire.get(wire) ?? wire,
  }
}

function encodeMessage(m: ChatMessage, encode: (name: string) => string): ChatMessage {
  if (m.role === 'tool') return {...m, name: encode(m.name)}
  if (m.role === 'assistant' && m.toolCalls) return {...m, toolCalls: m.toolCalls.map((c) => ({...c, name: encode(c.name)}))}
  return m
}

/** `provider` speaking wire names; a request whose names are all valid passes through untouched. */
export function withWireToolNames(provider: Provider): Provider {
  return {
    name: provider.name,
    stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
      const called = req.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : m.role === 'tool' ? [m.name] : []))
      const every = [...req.tools.map((t) => t.name), ...called]
      if (every.every((n) => WIRE_NAME.test(n))) return provider.stream(req, signal)
      const {encode, decode} = wireNames(new Set(every))
      const wire: ChatRequest = {
        ...req,
        tools: req.tools.map((t) => ({...t, name: encode(t.name)})),
        messages: req.messages.map((m) => encodeMessage(m, encode)),
      }
      return decodeCalls(provider.stream(wire, signal), decode)
    },
  }
}

async function* decodeCalls(events: AsyncIterable<StreamEvent>, decode: (wire: string) => string): AsyncGenerator<StreamEvent> {
  for await (const e of events) yield e.type === 'tool_call' ? {...e, name: decode(e.name)} : e
}
