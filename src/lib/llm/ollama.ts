// Ollama's native /api/chat: NDJSON lines, whole tool calls with object
// arguments (ids only from newer servers), `done: true` closing the stream.
import {randomBytes} from 'node:crypto'
import {EventBatch, finishEvent, numberOrUndefined, parseStreamRecord, quotedJson, toolCallEvent} from './stream-events.js'
import {isRecord, joinUrl, postJson, readText, redactSecret, streamIdleTimeoutMs} from './http.js'
import {DEFAULT_RETRY, type RetryOptions, withRetry} from './retry.js'
import {ndjsonBatches} from './sse.js'
import {type ChatMessage, type ChatRequest, type FinishReason, type Provider, ProviderError, type StreamEvent} from './types.js'

export interface OllamaProviderOptions {
  name: string
  /** The server root, e.g. `http://localhost:11434` (no `/api`). */
  baseUrl: string
  /** Sent as a bearer token (a hosted Ollama or one behind an authenticating proxy). */
  apiKey?: string
  retry?: RetryOptions
  /** Idle timeout: for the response headers and between body reads (default: streamIdleTimeoutMs()). */
  timeoutMs?: number
}

export function createOllamaProvider(opts: OllamaProviderOptions): Provider {
  return new OllamaProvider(opts)
}

class OllamaProvider implements Provider {
  readonly name: string
  constructor(private readonly opts: OllamaProviderOptions) {
    this.name = opts.name
  }

  stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const timeoutMs = this.opts.timeoutMs ?? streamIdleTimeoutMs()
    const body = ollamaRequestBody(req)
    const url = joinUrl(this.opts.baseUrl, '/api/chat')
    const name = this.name
    const apiKey = this.opts.apiKey
    const headers: Record<string, string> = {accept: 'application/x-ndjson'}
    if (apiKey) headers.authorization = `Bearer ${apiKey}`
    const attempt = async function* (): AsyncGenerator<StreamEvent> {
      const res = await postJson({provider: name, url, headers, body, signal, timeoutMs, secret: apiKey})
      yield* parseOllamaStream(name, readText(name, res, signal, timeoutMs), {progressMs: timeoutMs})
    }
    return redactSecret(withRetry(signal, attempt, this.opts.retry ?? DEFAULT_RETRY), apiKey)
  }
}

/** The /api/chat request jp sends (test/llm/request-types.test.ts checks it against the client library's types). */
export interface OllamaRequestBody {
  model: string
  messages: OllamaMessage[]
  stream: true
  tools?: {type: 'function'; function: {name: string; description: string; parameters: {type: string; [key: string]: unknown}}}[]
  think?: boolean | 'low' | 'medium' | 'high'
  options?: {num_predict?: number; temperature?: number}
}

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string
  thinking?: string
  tool_calls?: {function: {name: string; arguments: Record<string, unknown>}}[]
  tool_name?: string
}

/** Ollama's `think` value for a reasoning setting: a boolean, or an effort level on models that have them. */
export function ollamaThink(r: NonNullable<ChatRequest['reasoning']>): NonNullable<OllamaRequestBody['think']> {
  if (typeof r === 'boolean') return r
  const level = r.toLowerCase()
  if (level === 'low' || level === 'medium' || level === 'high') return level
  return level !== 'false'
}

export function ollamaRequestBody(req: ChatRequest): OllamaRequestBody {
  const messages: OllamaMessage[] = []
  if (req.system) messages.push({role: 'system', content: req.system})
  for (const m of req.messages) messages.push(ollamaMessage(m))
  const body: OllamaRequestBody = {model: req.model, messages, stream: true}
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: {name: t.name, description: t.description, parameters: {...t.parameters, type: 'object'}},
    }))
  }
  if (req.reasoning !== undefined) body.think = ollamaThink(req.reasoning)
  const options: NonNullable<OllamaRequestBody['options']> = {}
  if (req.maxTokens !== undefined) options.num_predict = req.maxTokens
  if (req.temperature !== undefined) options.temperature = req.temperature
  if (Object.keys(options).length > 0) body.options = options
  return body
}

function ollamaMessage(m: ChatMessage): OllamaMessage {
  switch (m.role) {
    case 'user':
      return {role: 'user', content: m.content}
    case 'assistant': {
      const out: OllamaMessage = {role: 'assistant', content: m.content}
      if (m.reasoning) out.thinking = m.reasoning
      if (m.toolCalls?.length) {
        out.tool_calls = m.toolCalls.map((c) => ({function: {name: c.name, arguments: c.arguments}}))
      }
      return out
    }
    case 'tool':
      return {role: 'tool', content: m.content, tool_name: m.name}
  }
}

const FINISH: Record<string, FinishReason> = {stop: 'stop', length: 'length'}

export async function* parseOllamaStream(provider: string, chunks: AsyncIterable<string>, framing: {progressMs?: number} = {}): AsyncGenerator<StreamEvent> {
  // Ids for servers that send none: unique per response, fixed once assigned.
  const idPrefix = `call_${randomBytes(4).toString('hex')}_`
  let calls = 0
  let finished = false
  const batch = new EventBatch()

  for await (const lines of ndjsonBatches(chunks, {provider, progressMs: framing.progressMs})) {
    let failure: unknown
    try {
      for (const line of lines) {
        if (finished) break
        const data = parseStreamRecord(provider, line, 'stream line')
        if (!isRecord(data)) continue
        if (data.error !== undefined) {
          const detail = typeof data.error === 'string' ? data.error : quotedJson(data.error)
          throw new ProviderError(`${provider}: ${detail}`, {provider, retryable: false})
        }
        const message = isRecord(data.message) ? data.message : {}
        if (typeof message.thinking === 'string') batch.reasoning(message.thinking)
        if (typeof message.content === 'string') batch.text(message.content)
        if (Array.isArray(message.tool_calls)) {
          for (const tc of message.tool_calls) {
            if (!isRecord(tc)) continue
            const fn = isRecord(tc.function) ? tc.function : {}
            const id = typeof tc.id === 'string' && tc.id ? tc.id : `${idPrefix}${calls}`
            calls++
            // An object is checked as it came (stringifying a hostile depth would overflow the stack).
            batch.push(toolCallEvent(id, typeof fn.name === 'string' ? fn.name : '', fn.arguments))
          }
        }
        if (data.done === true) {
          finished = true
          const input = numberOrUndefined(data.prompt_eval_count)
          const output = numberOrUndefined(data.eval_count)
          if (input !== undefined || output !== undefined) batch.push({type: 'usage', inputTokens: input, outputTokens: output})
          const raw = typeof data.done_reason === 'string' ? data.done_reason : undefined
          let reason: FinishReason = raw === undefined ? 'stop' : FINISH[raw] ?? 'other'
          // Ollama still says `stop` after calling tools.
          if (reason === 'stop' && calls > 0) reason = 'tool_use'
          batch.push(finishEvent(reason, raw))
        }
      }
    } catch (error) {
      failure = error
    }
    yield* batch.take()
    if (failure !== undefined) throw failure
    if (finished) break
  }
  if (!finished) {
    throw new ProviderError(`${provider}: the stream ended before the response was complete`, {provider, retryable: true})
  }
}
