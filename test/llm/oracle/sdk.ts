// The official SDKs as oracles: each recorded stream is served over HTTP to
// the SDK's own client and folded by the SDK's own accumulator (Anthropic's
// MessageStream.finalMessage, OpenAI's ChatCompletionStream
// .finalChatCompletion; the ollama client parses the NDJSON, and its parts are
// joined the way its documentation shows). The result is what an SDK user
// would send back as the assistant message.
import Anthropic from '@anthropic-ai/sdk'
import {Ollama} from 'ollama'
import OpenAI from 'openai'
import {startReplayServer} from '../replay-server.js'
import {normaliseOpenAIAssistant, type Outcome} from './outcome.js'
import type {OracleCase} from './streams.js'

export async function sdkOutcome(c: OracleCase): Promise<Outcome> {
  const server = await startReplayServer([{body: c.body, headers: {'content-type': c.wire === 'ollama' ? 'application/x-ndjson' : 'text/event-stream'}}])
  try {
    switch (c.wire) {
      case 'anthropic':
        return await anthropic(server.url)
      case 'openai':
        return await openai(server.url)
      case 'ollama':
        return await ollama(server.url)
    }
  } finally {
    await server.close()
  }
}

async function anthropic(url: string): Promise<Outcome> {
  const client = new Anthropic({apiKey: 'sk-ant-oracle', baseURL: url, maxRetries: 0})
  const stream = client.messages.stream({model: 'claude-oracle', max_tokens: 1024, messages: [{role: 'user', content: 'first'}]})
  let message: Anthropic.Message
  try {
    message = await stream.finalMessage()
  } catch {
    const partial = stream.currentMessage
    const text = (partial?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('')
    return {text, failed: true}
  }
  // The SDK's documented round trip: `{role: 'assistant', content: message.content}`, as params.
  const content = message.content.map((b) => {
    switch (b.type) {
      case 'text':
        return {type: 'text', text: b.text}
      case 'thinking':
        return {type: 'thinking', thinking: b.thinking, signature: b.signature}
      case 'redacted_thinking':
        return {type: 'redacted_thinking', data: b.data}
      case 'tool_use':
        return {type: 'tool_use', id: b.id, name: b.name, input: b.input}
      default:
        return b
    }
  })
  const u = message.usage
  return {
    text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    assistant: {role: 'assistant', content},
    finish: message.stop_reason ?? undefined,
    // Cached prompt tokens are prompt tokens too: the SDK reports them apart.
    usage: {input: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), output: u.output_tokens},
    failed: false,
  }
}

async function openai(url: string): Promise<Outcome> {
  const client = new OpenAI({apiKey: 'sk-oracle', baseURL: `${url}/v1`, maxRetries: 0})
  const stream = client.chat.completions.stream({model: 'gpt-oracle', messages: [{role: 'user', content: 'first'}], stream_options: {include_usage: true}})
  let text = ''
  stream.on('content', (delta) => (text += delta))
  let completion: OpenAI.Chat.Completions.ChatCompletion
  try {
    completion = await stream.finalChatCompletion()
  } catch {
    return {text, failed: true}
  }
  const choice = completion.choices[0]
  const m = choice.message
  const calls = m.tool_calls ?? []
  const assistant: Record<string, unknown> = {role: 'assistant', content: m.content}
  if (calls.length > 0) assistant.tool_calls = calls.map((tc) => (tc.type === 'function' ? {id: tc.id, type: tc.type, function: tc.function} : tc))
  return {
    text: m.content ?? '',
    assistant: normaliseOpenAIAssistant(assistant),
    finish: choice.finish_reason,
    usage: completion.usage ? {input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens} : undefined,
    failed: false,
  }
}

async function ollama(url: string): Promise<Outcome> {
  const client = new Ollama({host: url})
  let content = ''
  let thinking = ''
  const toolCalls: {function: {name: string; arguments: Record<string, unknown>}}[] = []
  let last: {done_reason?: string; prompt_eval_count?: number; eval_count?: number} | undefined
  try {
    const parts = await client.chat({model: 'llama-oracle', messages: [{role: 'user', content: 'first'}], stream: true})
    for await (const part of parts) {
      content += part.message.content ?? ''
      thinking += part.message.thinking ?? ''
      for (const tc of part.message.tool_calls ?? []) toolCalls.push({function: {name: tc.function.name, arguments: tc.function.arguments}})
      if (part.done) last = part
    }
  } catch {
    return {text: content, failed: true}
  }
  const assistant: Record<string, unknown> = {role: 'assistant', content}
  if (thinking) assistant.thinking = thinking
  if (toolCalls.length > 0) assistant.tool_calls = toolCalls
  return {
    text: content,
    assistant,
    finish: last?.done_reason,
    usage: {input: last?.prompt_eval_count, output: last?.eval_count},
    failed: false,
  }
}
