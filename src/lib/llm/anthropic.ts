// Anthropic Messages API over SSE. Blocks arrive as start/delta/stop triples;
// tool input is JSON text in fragments, parsed only at its block's stop.
import {EventBatch, finishEvent, numberOrUndefined, parseStreamRecord, toolCallEvent} from './stream-events.js'
import {describeErrorValue, isRecord, joinUrl, postJson, readText, streamIdleTimeoutMs, redactSecret} from './http.js'
import {DEFAULT_RETRY, type RetryOptions, withRetry} from './retry.js'
import {type EventSourceMessage, sseBatches} from './sse.js'
import {decodeBinary, TextRecordTemplate} from './text-records.js'
import {type ChatMessage, type ChatRequest, type FinishReason, type Provider, ProviderError, type StreamEvent} from './types.js'

export const ANTHROPIC_VERSION = '2023-06-01'
/** The Messages API requires max_tokens; used when the config sets none. */
export const DEFAULT_MAX_TOKENS = 8192

export interface AnthropicProviderOptions {
  name: string
  baseUrl: string
  /** Sent as `x-api-key`; omitted when empty (e.g. a proxy that adds its own). */
  apiKey?: string
  retry?: RetryOptions
  /** Idle timeout: for the response headers and between body reads (default: streamIdleTimeoutMs()). */
  timeoutMs?: number
}

export function createAnthropicProvider(opts: AnthropicProviderOptions): Provider {
  return new AnthropicProvider(opts)
}

class AnthropicProvider implements Provider {
  readonly name: string
  constructor(private readonly opts: AnthropicProviderOptions) {
    this.name = opts.name
  }

  stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const timeoutMs = this.opts.timeoutMs ?? streamIdleTimeoutMs()
    const headers: Record<string, string> = {accept: 'text/event-stream', 'anthropic-version': ANTHROPIC_VERSION}
    if (this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey
    const body = anthropicRequestBody(req)
    const url = joinUrl(this.opts.baseUrl, '/v1/messages')
    const name = this.name
    const apiKey = this.opts.apiKey
    const attempt = async function* (): AsyncGenerator<StreamEvent> {
      const res = await postJson({provider: name, url, headers, body, signal, timeoutMs, secret: apiKey})
      yield* parseAnthropicStream(name, readText(name, res, signal, timeoutMs, 'latin1'), {progressMs: timeoutMs})
    }
    return redactSecret(withRetry(signal, attempt, this.opts.retry ?? DEFAULT_RETRY), this.opts.apiKey)
  }
}

const BUDGETS: Record<string, number> = {minimal: 1024, low: 2048, medium: 8192, high: 24_576}

/** The thinking budget for a reasoning setting, or undefined for none. */
export function thinkingBudget(reasoning: ChatRequest['reasoning']): number | undefined {
  if (reasoning === undefined || reasoning === false) return undefined
  if (reasoning === true) return BUDGETS.medium
  const n = Number(reasoning)
  if (Number.isInteger(n) && n > 0) return Math.max(1024, n)
  return BUDGETS[reasoning.toLowerCase()]
}

/** The Messages API request jp sends (test/llm/request-types.test.ts checks it against the SDK's own types). */
export interface AnthropicRequestBody {
  model: string
  max_tokens: number
  system?: string
  messages: AnthropicMessage[]
  tools?: {name: string; description: string; input_schema: {type: 'object'; [key: string]: unknown}}[]
  thinking?: {type: 'enabled'; budget_tokens: number}
  temperature?: number
  stream: true
}

export type AnthropicBlock =
  | {type: 'text'; text: string}
  | {type: 'thinking'; thinking: string; signature: string}
  | {type: 'redacted_thinking'; data: string}
  | {type: 'tool_use'; id: string; name: string; input: Record<string, unknown>}
  | {type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean}

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicBlock[]
}

export function anthropicRequestBody(req: ChatRequest): AnthropicRequestBody {
  const budget = thinkingBudget(req.reasoning)
  let maxTokens = req.maxTokens ?? DEFAULT_MAX_TOKENS
  // The API rejects a thinking budget that is not below max_tokens.
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS
  const body: AnthropicRequestBody = {model: req.model, max_tokens: maxTokens, messages: anthropicMessages(req.messages), stream: true}
  if (req.system) body.system = req.system
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: {...t.parameters, type: 'object'},
    }))
  }
  if (budget !== undefined) body.thinking = {type: 'enabled', budget_tokens: budget}
  if (req.temperature !== undefined) body.temperature = req.temperature
  return body
}

/**
 * Messages in the API's shape: tool results become `tool_result` blocks in a
 * user message (before any text there, as the API requires), consecutive
 * same-role messages merge, and empty messages are left out.
 */
export function anthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = []
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user'
    const blocks = anthropicBlocks(m)
    if (blocks.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === role) last.content.push(...blocks)
    else out.push({role, content: blocks})
  }
  for (const m of out) {
    if (m.role === 'user') {
      m.content = [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')]
    }
  }
  return out
}

function anthropicBlocks(m: ChatMessage): AnthropicBlock[] {
  switch (m.role) {
    case 'user':
      // Empty text blocks are a 400.
      return m.content === '' ? [] : [{type: 'text', text: m.content}]
    case 'assistant': {
      // Thinking goes back verbatim: every signed or redacted block, in order.
      const blocks: AnthropicBlock[] = (m.thinking ?? []).map((b) => ({...b}))
      if (m.content !== '') blocks.push({type: 'text', text: m.content})
      for (const c of m.toolCalls ?? []) blocks.push({type: 'tool_use', id: c.id, name: c.name, input: c.arguments})
      return blocks
    }
    case 'tool': {
      const block: AnthropicBlock = {type: 'tool_result', tool_use_id: m.toolCallId, content: m.content}
      if (m.isError) block.is_error = true
      return [block]
    }
  }
}

interface OpenBlock {
  type: string
  id: string
  name: string
  json: string
  signature: string
}

/**
 * Anthropic's token counts. `message_delta` may repeat any of them as running
 * totals of the whole message (not increments): each one present replaces its
 * earlier value, as the SDK's accumulator does. Cached prompt tokens are still
 * prompt tokens, so the input total is the sum of the three input counters.
 */
class AnthropicUsage {
  private readonly counts = new Map<string, number>()
  private static readonly INPUT = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']

  update(usage: Record<string, unknown>): void {
    for (const key of [...AnthropicUsage.INPUT, 'output_tokens']) {
      const n = numberOrUndefined(usage[key])
      if (n !== undefined) this.counts.set(key, n)
    }
  }

  event(): StreamEvent | undefined {
    const input = AnthropicUsage.INPUT.filter((k) => this.counts.has(k))
    const inputTokens = input.length > 0 ? input.reduce((sum, k) => sum + this.counts.get(k)!, 0) : undefined
    const outputTokens = this.counts.get('output_tokens')
    if (inputTokens === undefined && outputTokens === undefined) return undefined
    const cachedTokens = this.counts.get('cache_read_input_tokens')
    return cachedTokens === undefined ? {type: 'usage', inputTokens, outputTokens} : {type: 'usage', inputTokens, outputTokens, cachedTokens}
  }
}

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_use',
  max_tokens: 'length',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window',
  pause_turn: 'pause',
}
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error'])

/** Turns the SSE body (binary strings: one char per byte, see text-records.ts) into StreamEvents. */
export async function* parseAnthropicStream(provider: string, chunks: AsyncIterable<string>, framing: {progressMs?: number} = {}): AsyncGenerator<StreamEvent> {
  const stream = new AnthropicStreamState(provider)
  for await (const messages of sseBatches(chunks, {provider, progressMs: framing.progressMs})) {
    // What arrived before a failure in this same read is still delivered.
    let failure: unknown
    try {
      for (const msg of messages) {
        if (stream.stopped) break
        stream.handle(msg)
      }
    } catch (error) {
      failure = error
    }
    yield* stream.batch.take()
    if (failure !== undefined) throw failure
    if (stream.stopped) break
  }

  if (!stream.stopped) {
    throw new ProviderError(`${provider}: the stream ended before message_stop`, {provider, retryable: true})
  }
  yield* stream.finish()
}

const KINDS = ['text', 'reasoning'] as const

/** The one text or thinking delta a `content_block_delta` event carries, and where a template's probe reads it. */
function deltaOnly(data: Record<string, unknown>): {kind: 'text' | 'reasoning'; key: string; read: (record: unknown) => unknown} | undefined {
  const delta = data.delta
  if (!isRecord(delta)) return undefined
  if (delta.type === 'text_delta' && typeof delta.text === 'string') return {kind: 'text', key: 'text', read: (r) => (r as {delta: {text: unknown}}).delta.text}
  if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') return {kind: 'reasoning', key: 'thinking', read: (r) => (r as {delta: {thinking: unknown}}).delta.thinking}
  return undefined
}

/** One Messages stream as it arrives: the open content blocks, the usage so far and the stop reason. */
class AnthropicStreamState {
  readonly batch = new EventBatch()
  stopped = false
  private readonly blocks = new Map<number, OpenBlock>()
  private readonly tokens = new AnthropicUsage()
  private stopReason: string | undefined
  /** Text and thinking deltas, recognised by their envelope (text-records.ts). */
  private readonly templates = {text: new TextRecordTemplate(), reasoning: new TextRecordTemplate()}

  constructor(private readonly provider: string) {}

  /** One SSE event (binary); its stream events go to `batch`. Throws ProviderError for a malformed or `error` event. */
  handle(msg: EventSourceMessage): void {
    for (const kind of KINDS) {
      const record = this.templates[kind].match(msg.data, msg.event)
      if (record) return this.batch.record(kind, record)
    }
    const data = parseStreamRecord(this.provider, decodeBinary(msg.data), 'stream event')
    if (!isRecord(data)) return
    const type = typeof data.type === 'string' ? data.type : msg.event
    const only = type === 'content_block_delta' ? deltaOnly(data) : undefined
    if (only) this.templates[only.kind].learn(msg.data, msg.event, only.key, only.read)
    switch (type) {
      case 'message_start': {
        const usage = isRecord(data.message) ? data.message.usage : undefined
        if (isRecord(usage)) this.tokens.update(usage)
        break
      }
      case 'content_block_start':
        this.blockStart(data)
        break
      case 'content_block_delta':
        this.blockDelta(data)
        break
      case 'content_block_stop':
        this.blockStop(data)
        break
      case 'message_delta': {
        const delta = isRecord(data.delta) ? data.delta : {}
        if (typeof delta.stop_reason === 'string') this.stopReason = delta.stop_reason
        if (isRecord(data.usage)) this.tokens.update(data.usage)
        break
      }
      case 'message_stop':
        this.stopped = true
        break
      case 'error': {
        const err = isRecord(data.error) ? data.error : {}
        const retryable = typeof err.type === 'string' && RETRYABLE_STREAM_ERRORS.has(err.type)
        throw new ProviderError(`${this.provider}: ${describeErrorValue(data) ?? 'error in stream'}`, {provider: this.provider, retryable})
      }
      default:
        // ping and event types newer than this adapter
        break
    }
  }

  /** The usage and finish events once `message_stop` arrived. */
  finish(): StreamEvent[] {
    const usage = this.tokens.event()
    if (usage) this.batch.push(usage)
    const reason = this.stopReason === undefined ? 'other' : FINISH[this.stopReason] ?? 'other'
    this.batch.push(finishEvent(reason, this.stopReason))
    return this.batch.take()
  }

  private blockStart(data: Record<string, unknown>): void {
    const block = isRecord(data.content_block) ? data.content_block : {}
    const open: OpenBlock = {
      type: String(block.type ?? ''),
      id: typeof block.id === 'string' ? block.id : '',
      name: typeof block.name === 'string' ? block.name : '',
      json: '',
      signature: typeof block.signature === 'string' ? block.signature : '',
    }
    this.blocks.set(Number(data.index), open)
    if (open.type === 'text' && typeof block.text === 'string') this.batch.text(block.text)
    if (open.type === 'thinking' && typeof block.thinking === 'string') this.batch.reasoning(block.thinking)
    if (open.type === 'redacted_thinking' && typeof block.data === 'string') this.batch.push({type: 'redacted_reasoning', data: block.data})
  }

  private blockDelta(data: Record<string, unknown>): void {
    const delta = isRecord(data.delta) ? data.delta : {}
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text === 'string') this.batch.text(delta.text)
        break
      case 'thinking_delta':
        if (typeof delta.thinking === 'string') this.batch.reasoning(delta.thinking)
        break
      case 'signature_delta': {
        // Kept until the block closes: the signature ends its own block.
        const open = this.blocks.get(Number(data.index))
        if (open && typeof delta.signature === 'string') open.signature = delta.signature
        break
      }
      case 'input_json_delta': {
        const open = this.blocks.get(Number(data.index))
        if (open && typeof delta.partial_json === 'string') open.json += delta.partial_json
        break
      }
      default:
        break
    }
  }

  private blockStop(data: Record<string, unknown>): void {
    const index = Number(data.index)
    const open = this.blocks.get(index)
    this.blocks.delete(index)
    if (open?.type === 'tool_use') this.batch.push(toolCallEvent(open.id, open.name, open.json))
    if (open?.type === 'thinking' && open.signature !== '') this.batch.push({type: 'reasoning', text: '', signature: open.signature})
  }
}
