// Anthropic Messages API over SSE. Blocks arrive as start/delta/stop triples;
// tool input is JSON text in fragments, parsed only at its block's stop.
import {EventBatch, finishEvent, numberOrUndefined, toolCallEvent} from './events.js'
import {describeErrorValue, isRecord, joinUrl, postJson, readText, redactSecret} from './http.js'
import {DEFAULT_RETRY, type RetryOptions, withRetry} from './retry.js'
import {sseBatches} from './sse.js'
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
    const headers: Record<string, string> = {accept: 'text/event-stream', 'anthropic-version': ANTHROPIC_VERSION}
    if (this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey
    const body = anthropicRequestBody(req)
    const url = joinUrl(this.opts.baseUrl, '/v1/messages')
    const name = this.name
    const attempt = async function* (): AsyncGenerator<StreamEvent> {
      const res = await postJson({provider: name, url, headers, body, signal})
      yield* parseAnthropicStream(name, readText(name, res, signal))
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

export function anthropicRequestBody(req: ChatRequest): Record<string, unknown> {
  const budget = thinkingBudget(req.reasoning)
  let maxTokens = req.maxTokens ?? DEFAULT_MAX_TOKENS
  // The API rejects a thinking budget that is not below max_tokens.
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS
  const body: Record<string, unknown> = {model: req.model, max_tokens: maxTokens}
  if (req.system) body.system = req.system
  body.messages = anthropicMessages(req.messages)
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({name: t.name, description: t.description, input_schema: t.parameters}))
  }
  if (budget !== undefined) body.thinking = {type: 'enabled', budget_tokens: budget}
  body.stream = true
  return body
}

type Block = Record<string, unknown>

/**
 * Messages in the API's shape: tool results become `tool_result` blocks in a
 * user message (before any text there, as the API requires), consecutive
 * same-role messages merge, and empty messages are left out.
 */
export function anthropicMessages(messages: ChatMessage[]): {role: 'user' | 'assistant'; content: Block[]}[] {
  const out: {role: 'user' | 'assistant'; content: Block[]}[] = []
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

function anthropicBlocks(m: ChatMessage): Block[] {
  switch (m.role) {
    case 'user':
      // Empty text blocks are a 400.
      return m.content === '' ? [] : [{type: 'text', text: m.content}]
    case 'assistant': {
      const blocks: Block[] = []
      if (m.reasoning && m.reasoningSignature) {
        blocks.push({type: 'thinking', thinking: m.reasoning, signature: m.reasoningSignature})
      }
      if (m.content !== '') blocks.push({type: 'text', text: m.content})
      for (const c of m.toolCalls ?? []) blocks.push({type: 'tool_use', id: c.id, name: c.name, input: c.arguments})
      return blocks
    }
    case 'tool': {
      const block: Block = {type: 'tool_result', tool_use_id: m.toolCallId, content: m.content}
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
}

const FINISH: Record<string, FinishReason> = {end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_use', max_tokens: 'length'}
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error'])

export async function* parseAnthropicStream(provider: string, chunks: AsyncIterable<string>): AsyncGenerator<StreamEvent> {
  const blocks = new Map<number, OpenBlock>()
  const batch = new EventBatch()
  let inputTokens: number | undefined
  let outputTokens: number | undefined
  let stopReason: string | undefined
  let stopped = false

  for await (const messages of sseBatches(chunks)) {
    // What arrived before a failure in this same read is still delivered.
    let failure: unknown
    try {
      for (const msg of messages) {
        if (stopped) break
        let data: unknown
        try {
          data = JSON.parse(msg.data)
        } catch {
          throw new ProviderError(`${provider}: malformed stream event: ${msg.data.slice(0, 120)}`, {provider, retryable: false})
        }
        if (!isRecord(data)) continue
        const type = typeof data.type === 'string' ? data.type : msg.event
        switch (type) {
          case 'message_start': {
            const usage = isRecord(data.message) ? data.message.usage : undefined
            if (isRecord(usage)) {
              // Cached prompt tokens are still prompt tokens.
              const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens]
              const known = parts.map(numberOrUndefined).filter((n): n is number => n !== undefined)
              if (known.length > 0) inputTokens = known.reduce((a, b) => a + b, 0)
              outputTokens = numberOrUndefined(usage.output_tokens) ?? outputTokens
            }
            break
          }
          case 'content_block_start': {
            const block = isRecord(data.content_block) ? data.content_block : {}
            const open: OpenBlock = {
              type: String(block.type ?? ''),
              id: typeof block.id === 'string' ? block.id : '',
              name: typeof block.name === 'string' ? block.name : '',
              json: '',
            }
            blocks.set(Number(data.index), open)
            if (open.type === 'text' && typeof block.text === 'string') batch.text(block.text)
            if (open.type === 'thinking' && typeof block.thinking === 'string') batch.reasoning(block.thinking)
            break
          }
          case 'content_block_delta': {
            const delta = isRecord(data.delta) ? data.delta : {}
            switch (delta.type) {
              case 'text_delta':
                if (typeof delta.text === 'string') batch.text(delta.text)
                break
              case 'thinking_delta':
                if (typeof delta.thinking === 'string') batch.reasoning(delta.thinking)
                break
              case 'signature_delta':
                if (typeof delta.signature === 'string') batch.push({type: 'reasoning', text: '', signature: delta.signature})
                break
              case 'input_json_delta': {
                const open = blocks.get(Number(data.index))
                if (open && typeof delta.partial_json === 'string') open.json += delta.partial_json
                break
              }
              default:
                break
            }
            break
          }
          case 'content_block_stop': {
            const index = Number(data.index)
            const open = blocks.get(index)
            blocks.delete(index)
            if (open?.type === 'tool_use') batch.push(toolCallEvent(open.id, open.name, open.json))
            break
          }
          case 'message_delta': {
            const delta = isRecord(data.delta) ? data.delta : {}
            if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason
            if (isRecord(data.usage)) {
              outputTokens = numberOrUndefined(data.usage.output_tokens) ?? outputTokens
              inputTokens = numberOrUndefined(data.usage.input_tokens) ?? inputTokens
            }
            break
          }
          case 'message_stop':
            stopped = true
            break
          case 'error': {
            const err = isRecord(data.error) ? data.error : {}
            const retryable = typeof err.type === 'string' && RETRYABLE_STREAM_ERRORS.has(err.type)
            throw new ProviderError(`${provider}: ${describeErrorValue(data) ?? 'error in stream'}`, {provider, retryable})
          }
          default:
            // ping and event types newer than this adapter
            break
        }
      }
    } catch (error) {
      failure = error
    }
    yield* batch.take()
    if (failure !== undefined) throw failure
    if (stopped) break
  }

  if (!stopped) {
    throw new ProviderError(`${provider}: the stream ended before message_stop`, {provider, retryable: true})
  }
  if (inputTokens !== undefined || outputTokens !== undefined) batch.push({type: 'usage', inputTokens, outputTokens})
  batch.push(finishEvent(stopReason === undefined ? 'other' : FINISH[stopReason] ?? 'other', stopReason))
  yield* batch.take()
}
