// OpenAI Chat Completions over SSE: OpenAI, OpenRouter, llama.cpp, vLLM and
// Ollama's /v1 all speak it, each with its own small liberties (fragmented or
// whole tool arguments, reasoning under three names, usage-only chunks).
import {EventBatch, finishEvent, numberOrUndefined, parseStreamRecord, toolCallEvent} from './stream-events.js'
import {describeErrorValue, isRecord, joinUrl, postJson, readText, streamIdleTimeoutMs, redactSecret} from './http.js'
import {DEFAULT_RETRY, type RetryOptions, withRetry} from './retry.js'
import {sseBatches} from './sse.js'
import {decodeBinary, TextRecordTemplate} from './text-records.js'
import {type ChatMessage, type ChatRequest, type FinishReason, type Provider, ProviderError, type StreamEvent} from './types.js'

export interface OpenAIProviderOptions {
  /** The configured provider name, used in error messages (`openrouter: 401 ...`). */
  name: string
  /** Up to and including `/v1`. */
  baseUrl: string
  /** Sent as `Authorization: Bearer` only when present (local servers need none). */
  apiKey?: string
  retry?: RetryOptions
  /** Idle timeout: for the response headers and between body reads (default: streamIdleTimeoutMs()). */
  timeoutMs?: number
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): Provider {
  return new OpenAIProvider(opts)
}

class OpenAIProvider implements Provider {
  readonly name: string
  constructor(private readonly opts: OpenAIProviderOptions) {
    this.name = opts.name
  }

  stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const timeoutMs = this.opts.timeoutMs ?? streamIdleTimeoutMs()
    const headers: Record<string, string> = {accept: 'text/event-stream'}
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`
    const body = openAIRequestBody(req, this.name)
    const url = joinUrl(this.opts.baseUrl, '/chat/completions')
    const attempt = async function* (this: OpenAIProvider): AsyncGenerator<StreamEvent> {
      const res = await postJson({provider: this.name, url, headers, body, signal, timeoutMs, secret: this.opts.apiKey})
      yield* parseOpenAIStream(this.name, readText(this.name, res, signal, timeoutMs, 'latin1'), {progressMs: timeoutMs})
    }
    return redactSecret(withRetry(signal, attempt.bind(this), this.opts.retry ?? DEFAULT_RETRY), this.opts.apiKey)
  }
}

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high'])

/** The Chat Completions request jp sends (test/llm/request-types.test.ts checks it against the SDK's own types). */
export interface OpenAIRequestBody {
  model: string
  messages: OpenAIMessage[]
  stream: true
  stream_options: {include_usage: boolean}
  tools?: {type: 'function'; function: {name: string; description: string; parameters: Record<string, unknown>}}[]
  max_completion_tokens?: number
  max_tokens?: number
  temperature?: number
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high'
}

export type OpenAIMessage =
  | {role: 'system'; content: string}
  | {role: 'user'; content: string}
  | {role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[]}
  | {role: 'tool'; tool_call_id: string; content: string}

export interface OpenAIToolCall {
  id: string
  type: 'function'
  function: {name: string; arguments: string}
}

/** The reasoning effort a setting asks for, or undefined when it names none (see llm/parameters.ts). */
export function reasoningEffort(reasoning: ChatRequest['reasoning']): OpenAIRequestBody['reasoning_effort'] {
  const effort = reasoning === true ? 'medium' : typeof reasoning === 'string' ? reasoning.toLowerCase() : undefined
  return effort !== undefined && EFFORTS.has(effort) ? (effort as OpenAIRequestBody['reasoning_effort']) : undefined
}

/** The JSON body jp sends; pure, so tests can compare it with what the server received. */
export function openAIRequestBody(req: ChatRequest, provider: string): OpenAIRequestBody {
  const body: OpenAIRequestBody = {
    model: req.model,
    messages: openAIMessages(req),
    stream: true,
    stream_options: {include_usage: true},
  }
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: {name: t.name, description: t.description, parameters: t.parameters},
    }))
  }
  // OpenAI's reasoning models reject max_tokens; the other servers only know it.
  if (req.maxTokens !== undefined) body[provider === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = req.maxTokens
  if (req.temperature !== undefined) body.temperature = req.temperature
  const effort = reasoningEffort(req.reasoning)
  if (effort !== undefined) body.reasoning_effort = effort
  return body
}

export function openAIMessages(req: ChatRequest): OpenAIMessage[] {
  const out: OpenAIMessage[] = []
  if (req.system) out.push({role: 'system', content: req.system})
  for (const m of req.messages) out.push(openAIMessage(m))
  return out
}

function openAIMessage(m: ChatMessage): OpenAIMessage {
  switch (m.role) {
    case 'user':
      return {role: 'user', content: m.content}
    case 'assistant': {
      const calls = m.toolCalls ?? []
      if (calls.length === 0) return {role: 'assistant', content: m.content}
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: {name: c.name, arguments: JSON.stringify(c.arguments)},
        })),
      }
    }
    case 'tool':
      return {role: 'tool', tool_call_id: m.toolCallId, content: m.content}
  }
}

interface PendingCall {
  id: string
  name: string
  args: string
  /** Arguments that came as an object rather than text. */
  value?: unknown
}

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'length',
  content_filter: 'content_filter',
}

/** Turns the SSE body (binary strings: one char per byte, see text-records.ts) into StreamEvents; `finish` is always the last event. */
export async function* parseOpenAIStream(provider: string, chunks: AsyncIterable<string>, framing: {progressMs?: number} = {}): AsyncGenerator<StreamEvent> {
  const stream = new OpenAIStreamState(provider)
  for await (const messages of sseBatches(chunks, {provider, progressMs: framing.progressMs})) {
    // What arrived before a failure in this same read is still delivered.
    let failure: unknown
    try {
      for (const msg of messages) {
        if (stream.done) break
        stream.handle(msg.data)
      }
    } catch (error) {
      failure = error
    }
    yield* stream.batch.take()
    if (failure !== undefined) throw failure
    if (stream.done) break
  }
  yield* stream.finish()
}

/** Whether `handle` does nothing with this chunk but pass on its content: one choice, only text, no finish, usage or error. */
function isTextOnly(chunk: Record<string, unknown>): boolean {
  if ((chunk.error !== undefined && chunk.error !== null) || isRecord(chunk.usage)) return false
  const choices = chunk.choices
  if (!Array.isArray(choices) || choices.length !== 1 || !isRecord(choices[0])) return false
  const {delta, finish_reason: finish} = choices[0]
  if (!isRecord(delta) || typeof delta.content !== 'string' || Array.isArray(delta.tool_calls)) return false
  return typeof (delta.reasoning_content ?? delta.reasoning ?? delta.thinking) !== 'string' && !(typeof finish === 'string' && finish)
}

/** The text a text-only chunk carries (a template's probe). */
function contentOf(chunk: unknown): unknown {
  return ((chunk as {choices: {delta: {content: unknown}}[]}).choices[0] as {delta: {content: unknown}}).delta.content
}

/** One Chat Completions stream as it arrives: the tool calls being assembled and how it finished. */
class OpenAIStreamState {
  readonly batch = new EventBatch()
  done = false
  private readonly calls = new Map<number, PendingCall>()
  private finishRaw: string | undefined
  private sawToolCall = false
  private readonly template = new TextRecordTemplate()

  constructor(private readonly provider: string) {}

  /** One SSE data payload (a chunk or `[DONE]`, binary); its stream events go to `batch`. */
  handle(data: string): void {
    if (data === '[DONE]') {
      this.done = true
      return
    }
    const record = this.template.match(data)
    if (record) return this.batch.record('text', record)
    const {provider} = this
    const chunk = parseStreamRecord(provider, decodeBinary(data), 'stream chunk')
    if (!isRecord(chunk)) return
    if (isTextOnly(chunk)) this.template.learn(data, undefined, 'content', contentOf)
    if (chunk.error !== undefined && chunk.error !== null) {
      throw new ProviderError(`${provider}: ${describeErrorValue(chunk) ?? 'error in stream'}`, {provider, retryable: false})
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : []
    for (const choice of choices) if (isRecord(choice)) this.choice(choice)
    const usage = chunk.usage
    if (isRecord(usage)) {
      const cached = isRecord(usage.prompt_tokens_details) ? numberOrUndefined(usage.prompt_tokens_details.cached_tokens) : undefined
      this.batch.push({
        type: 'usage',
        inputTokens: numberOrUndefined(usage.prompt_tokens),
        outputTokens: numberOrUndefined(usage.completion_tokens),
        ...(cached === undefined ? {} : {cachedTokens: cached}),
      })
    }
  }

  /** The pending tool calls and the finish event; throws when the stream was cut off. */
  finish(): StreamEvent[] {
    const {provider} = this
    if (!this.done && this.finishRaw === undefined) {
      throw new ProviderError(`${provider}: the stream ended before the response was complete`, {provider, retryable: true})
    }
    this.flushCalls()
    let reason: FinishReason = this.finishRaw === undefined ? 'stop' : FINISH[this.finishRaw] ?? 'other'
    // Some servers (older Ollama /v1) report `stop` after calling tools.
    if (reason === 'stop' && this.sawToolCall) reason = 'tool_use'
    this.batch.push(finishEvent(reason, this.finishRaw))
    return this.batch.take()
  }

  private choice(choice: Record<string, unknown>): void {
    const delta = choice.delta
    if (isRecord(delta)) {
      const reasoning = delta.reasoning_content ?? delta.reasoning ?? delta.thinking
      if (typeof reasoning === 'string') this.batch.reasoning(reasoning)
      if (typeof delta.content === 'string') this.batch.text(delta.content)
      if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach((tc: unknown, position: number) => this.toolCallDelta(tc, position))
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
      this.finishRaw = choice.finish_reason
      this.flushCalls()
    }
  }

  private toolCallDelta(tc: unknown, position: number): void {
    if (!isRecord(tc)) return
    const index = typeof tc.index === 'number' ? tc.index : position
    let call = this.calls.get(index)
    if (!call) this.calls.set(index, (call = {id: '', name: '', args: ''}))
    if (typeof tc.id === 'string' && tc.id && !call.id) call.id = tc.id
    const fn = tc.function
    if (isRecord(fn)) {
      if (typeof fn.name === 'string' && fn.name && !call.name) call.name = fn.name
      if (typeof fn.arguments === 'string') call.args += fn.arguments
      // A few servers send arguments as an object rather than JSON text (checked whole, at the end).
      else if (isRecord(fn.arguments)) call.value = fn.arguments
    }
  }

  private flushCalls(): void {
    const sorted = [...this.calls.entries()].sort((a, b) => a[0] - b[0])
    if (sorted.length > 0) this.sawToolCall = true
    for (const [index, c] of sorted) this.batch.push(toolCallEvent(c.id || `call_${index}`, c.name, c.value !== undefined && c.args === '' ? c.value : c.args))
    this.calls.clear()
  }
}
