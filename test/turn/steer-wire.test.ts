// Next-step delivery on the wire (SPEC §19, NOTES "Steering on the wire"):
// a reply queued while a tool runs goes with the request that carries the
// tool result, after it. jp's request (the real turn loop and the real
// provider against a local server) must send the messages byte for byte as
// the official SDK sends the documented shape: OpenAI and Ollama a `user`
// message after the `tool` messages, Anthropic a `text` block after the
// `tool_result` blocks of the same user turn.
import Anthropic from '@anthropic-ai/sdk'
import {expect} from 'chai'
import {Ollama} from 'ollama'
import OpenAI from 'openai'
import {createAnthropicProvider} from '../../src/lib/llm/anthropic.js'
import {createOllamaProvider} from '../../src/lib/llm/ollama.js'
import {createOpenAIProvider} from '../../src/lib/llm/openai.js'
import type {Provider} from '../../src/lib/llm/types.js'
import {runTurns} from '../../src/lib/turn/turn-loop.js'
import {fixture, startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {MemoryQueue, steerDeps} from './steer-harness.js'

const STEER = 'stop, use the other file'
type Wire = 'openai' | 'anthropic' | 'ollama'
type Msg = Record<string, unknown>

const TOOL_CALL: Record<Wire, string> = {
  openai: [
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"t","arguments":"{}"}}]},"finish_reason":null}]}`,
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
    'data: [DONE]',
    '',
  ].join('\n\n'),
  anthropic: [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"t","input":{}}}',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":2}}',
    'event: message_stop\ndata: {"type":"message_stop"}',
    '',
  ].join('\n\n'),
  ollama:
    '{"model":"m","created_at":"2025-07-01T10:01:00Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"t","arguments":{}}}]},"done":false}\n' +
    '{"model":"m","created_at":"2025-07-01T10:01:01Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true}\n',
}
const ANSWER: Record<Wire, string> = {openai: fixture('openai-text.sse'), anthropic: fixture('anthropic-text.sse'), ollama: fixture('ollama-chat.ndjson')}

function provider(wire: Wire, url: string): Provider {
  switch (wire) {
    case 'openai':
      return createOpenAIProvider({name: 'openai', baseUrl: `${url}/v1`, apiKey: 'sk-test'})
    case 'anthropic':
      return createAnthropicProvider({name: 'anthropic', baseUrl: url, apiKey: 'sk-ant-test'})
    case 'ollama':
      return createOllamaProvider({name: 'ollama', baseUrl: url})
  }
}

/** The documented shape, sent by the SDK itself to a recording server: its request body's messages, as bytes. */
async function sdkMessages(wire: Wire, before: Msg[]): Promise<string> {
  const server = await startReplayServer([{body: ANSWER[wire], headers: {'content-type': wire === 'ollama' ? 'application/x-ndjson' : 'text/event-stream'}}])
  try {
    switch (wire) {
      case 'openai': {
        const client = new OpenAI({apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0})
        const messages = [...before, {role: 'user', content: STEER}] as unknown as OpenAI.ChatCompletionMessageParam[]
        const stream = await client.chat.completions.create({model: 'm', messages, stream: true})
        for await (const _ of stream) void _
        break
      }
      case 'anthropic': {
        // The tool results' user turn takes the text block after them.
        const last = before.at(-1) as {role: 'user'; content: Anthropic.ToolResultBlockParam[]}
        const messages = [...before.slice(0, -1), {role: 'user', content: [...last.content, {type: 'text', text: STEER}]}] as unknown as Anthropic.MessageParam[]
        const client = new Anthropic({apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0})
        await client.messages.stream({model: 'm', max_tokens: 1024, messages}).finalMessage()
        break
      }
      case 'ollama': {
        const client = new Ollama({host: server.url})
        const messages = [...before, {role: 'user', content: STEER}] as unknown as Parameters<Ollama['chat']>[0]['messages']
        for await (const _ of await client.chat({model: 'm', messages, stream: true})) void _
        break
      }
    }
    return JSON.stringify((server.requests[0].json() as {messages: unknown}).messages)
  } finally {
    await server.close()
  }
}

/** The messages jp sent before the steer: its body up to the tool results (Anthropic: that user turn's tool_result blocks). */
function upToToolResults(wire: Wire, messages: Msg[]): Msg[] {
  if (wire === 'anthropic') {
    const last = messages.at(-1) as {role: string; content: Msg[]}
    return [...messages.slice(0, -1), {role: last.role, content: last.content.filter((b) => b.type === 'tool_result')}]
  }
  const at = messages.findLastIndex((m) => m.role === 'tool')
  return messages.slice(0, at + 1)
}

describe('steer: a reply queued during a tool run reaches the next request (SDK shapes)', function () {
  this.timeout(30_000)
  let server: ReplayServer | undefined
  afterEach(async () => server?.close())

  for (const wire of ['openai', 'anthropic', 'ollama'] as const) {
    it(`${wire}: the next request carries it after the tool results, byte for byte as the SDK sends it`, async () => {
      server = await startReplayServer([{body: TOOL_CALL[wire]}, {body: ANSWER[wire]}])
      const queue = new MemoryQueue('next_step')
      const outcome = await runTurns('read the file', steerDeps({
        provider: provider(wire, server.url),
        queue,
        // Queued while the tool runs.
        runTool: async () => {
          queue.set(STEER)
          return {content: 'tool says hi', isError: false}
        },
      }))
      expect(outcome).to.include({type: 'done', turns: 1})
      expect(server.requests).to.have.length(2)
      const sent = JSON.parse(server.requests[1].body) as {messages: Msg[]}
      const jp = JSON.stringify(sent.messages)
      expect(jp).to.equal(await sdkMessages(wire, upToToolResults(wire, sent.messages)))
      expect(queue.draft, 'delivered: the draft lets go of it').to.deep.equal([])
    })
  }

  it('turn_end: the tool loop goes on without it; it is sent as the next turn', async () => {
    server = await startReplayServer([{body: TOOL_CALL.openai}, {body: ANSWER.openai}, {body: ANSWER.openai}])
    const queue = new MemoryQueue('turn_end')
    const outcome = await runTurns('read the file', steerDeps({
      provider: provider('openai', server.url),
      queue,
      runTool: async () => {
        queue.set(STEER)
        return {content: 'tool says hi', isError: false}
      },
    }))
    expect(outcome).to.include({type: 'done', turns: 2})
    const roles = server.requests.map((r) => (JSON.parse(r.body) as {messages: Msg[]}).messages.map((m) => m.role).join(','))
    expect(roles).to.deep.equal(['user', 'user,assistant,tool', 'user,assistant,tool,assistant,user'])
  })
})
