// The one event model every provider adapter speaks (SPEC §12). Adapters turn
// their wire format into these events; the turn loop never sees a wire format.
import {oneLine} from '../text/one-line.js'

/** A tool call the model made, with its arguments already parsed. */
export interface ToolCall {
  id: string
  name: string
  arguments: Record<string, unknown>
}

export interface UserMessage {
  role: 'user'
  content: string
}

/**
 * One thinking block exactly as the provider returned it. Claude requires its
 * thinking blocks back unmodified — each with its own signature, redacted ones
 * included, in order — when a tool result follows them.
 */
export type ThinkingBlock = {type: 'thinking'; thinking: string; signature: string} | {type: 'redacted_thinking'; data: string}

export interface AssistantMessage {
  role: 'assistant'
  content: string
  /** All reasoning text, for providers that take it back as plain text (Ollama). */
  reasoning?: string
  /** The signed and redacted thinking blocks, in order (Anthropic sends these back; unsigned reasoning is not). */
  thinking?: ThinkingBlock[]
  toolCalls?: ToolCall[]
}

export interface ToolResultMessage {
  role: 'tool'
  toolCallId: string
  name: string
  content: string
  isError: boolean
}

export type ChatMessage = UserMessage | AssistantMessage | ToolResultMessage

export interface ToolDefinition {
  name: string
  description: string
  /** A JSON-schema object (`{type: 'object', properties, required}`). */
  parameters: Record<string, unknown>
}

/**
 * `true` asks for reasoning at the provider's default depth; `'low' | 'medium'
 * | 'high'` picks a depth; a numeric string is an Anthropic thinking budget.
 */
export type ReasoningSetting = boolean | string

export interface ChatRequest {
  model: string
  system?: string
  messages: ChatMessage[]
  tools: ToolDefinition[]
  maxTokens?: number
  temperature?: number
  reasoning?: ReasoningSetting
}

/**
 * How a response ended, normalised across providers (the provider's own word
 * travels alongside as `raw`): a normal end, a tool call, the token limit, a
 * content filter (OpenAI), a refusal, a full context window, or a paused turn
 * the server wants continued (Anthropic).
 */
export type FinishReason = 'stop' | 'tool_use' | 'length' | 'content_filter' | 'refusal' | 'context_window' | 'pause' | 'other'

/**
 * Streamed text, and the bytes it arrived as when the adapter has them
 * (every piece from a template record: llm/text-records.ts), as binary
 * strings (one char per byte). Such an event decodes `text` only when it is
 * read: output and storage take the bytes.
 */
export interface TextPiece {
  readonly text: string
  /** The text as the body of a JSON string, UTF-8, as the server sent it: the conversation's log stores these bytes without escaping the text again. */
  json?: string
  /** The text's UTF-8 bytes as they arrived: output writes them without encoding the text again. */
  utf8?: string
}

export type StreamEvent =
  | ({type: 'text'} & TextPiece)
  /**
   * Reasoning text. An event with `signature` (Anthropic only, empty text)
   * closes a thinking block: the reasoning since the previous close is that
   * block's text, and the signature is its own.
   */
  | {type: 'reasoning'; text: string; signature?: string}
  /** An encrypted thinking block (Anthropic `redacted_thinking`), to be sent back as it came. */
  | {type: 'redacted_reasoning'; data: string}
  | ToolCallEvent
  /** Token counts of this response so far (running totals: a later event replaces an earlier one). `inputTokens` includes `cachedTokens`, the prompt tokens read from the provider's cache. */
  | {type: 'usage'; inputTokens?: number; outputTokens?: number; cachedTokens?: number}
  | {type: 'finish'; reason: FinishReason; raw?: string}

export interface ToolCallEvent {
  type: 'tool_call'
  id: string
  name: string
  arguments: Record<string, unknown>
  /** Set when the model's arguments were not a JSON object: `arguments` is then `{}`. */
  invalidArguments?: boolean
  /** The unparsable argument text, kept so the caller can report or repair it. */
  rawArguments?: string
  /** What is wrong with them, in one line for the model (set whenever `invalidArguments` is). */
  argumentsProblem?: string
}

export interface Provider {
  /** The configured provider name (`anthropic`, `openrouter`, `echo`, ...). */
  readonly name: string
  /**
   * Streams one model response. Throws `ProviderError` on HTTP/stream errors
   * (after retrying when nothing was yielded yet) and an AbortError (see
   * `isAbortError`) when `signal` aborts; events already yielded stay valid.
   */
  stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent>
}

export interface ProviderErrorOptions {
  provider: string
  status?: number
  retryable?: boolean
  /** Seconds-or-milliseconds hint already resolved to milliseconds, from the response headers. */
  retryAfterMs?: number
  cause?: unknown
}

/** A provider failure, as one line (`anthropic: 401 authentication_error: invalid x-api-key`). */
export class ProviderError extends Error {
  readonly provider: string
  readonly status?: number
  readonly retryable: boolean
  readonly retryAfterMs?: number

  constructor(message: string, opts: ProviderErrorOptions) {
    super(oneLine(message), opts.cause === undefined ? undefined : {cause: opts.cause})
    this.name = 'ProviderError'
    this.provider = opts.provider
    this.status = opts.status
    this.retryable = opts.retryable ?? false
    this.retryAfterMs = opts.retryAfterMs
  }
}

/** True for a ProviderError from any copy of this module (no `instanceof` across dist/ and src/). */
export function isProviderError(e: unknown): e is ProviderError {
  return e instanceof Error && e.name === 'ProviderError' && typeof (e as ProviderError).retryable === 'boolean'
}

/** True for the error a provider stream throws when its AbortSignal fired. */
export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as {name?: unknown}).name === 'AbortError'
}

/** The error to throw for an aborted signal: its reason when that is an AbortError, else a fresh one. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (isAbortError(reason) && reason instanceof Error) return reason
  return new DOMException('The operation was aborted', 'AbortError')
}
