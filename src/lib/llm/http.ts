// The thin I/O shell shared by the adapters: POST a JSON body, turn a failed
// response into one ProviderError line, and read the body as text chunks.
import {isRetryableStatus, retryAfterMsFromHeaders} from './retry.js'
import {oneLine} from '../text/one-line.js'
import {abortError, isProviderError, ProviderError} from './types.js'

export interface PostOptions {
  provider: string
  url: string
  headers: Record<string, string>
  body: unknown
  signal: AbortSignal
  /** How long connecting and waiting for the response headers may take (default: the stream idle timeout). */
  timeoutMs?: number
}

/** POSTs `body` as JSON and returns the response once it is known to be 2xx. */
export async function postJson(opts: PostOptions): Promise<Response> {
  let res: Response
  // The idle timeout covers the wait for the headers too: a server that
  // accepts the connection and then says nothing fails like a stalled stream.
  const timeoutMs = opts.timeoutMs ?? streamIdleTimeoutMs()
  const headersLate = new AbortController()
  const timer = setTimeout(() => headersLate.abort(), timeoutMs)
  try {
    res = await fetch(opts.url, {
      method: 'POST',
      headers: {'content-type': 'application/json', ...opts.headers},
      body: JSON.stringify(opts.body),
      signal: AbortSignal.any([opts.signal, headersLate.signal]),
    })
  } catch (error) {
    if (opts.signal.aborted) throw abortError(opts.signal)
    if (headersLate.signal.aborted) {
      throw new ProviderError(`${opts.provider}: no response from ${opts.url} within ${timeoutMs / 1000} s`, {
        provider: opts.provider,
        retryable: true,
      })
    }
    throw new ProviderError(`${opts.provider}: cannot reach ${opts.url}: ${causeMessage(error)}`, {
      provider: opts.provider,
      retryable: true,
      cause: error,
    })
  } finally {
    clearTimeout(timer)
  }
  if (!res.ok) throw await errorFromResponse(opts.provider, res, opts.signal)
  if (!res.body) throw new ProviderError(`${opts.provider}: empty response body`, {provider: opts.provider, retryable: true})
  return res
}

export async function errorFromResponse(provider: string, res: Response, signal: AbortSignal): Promise<ProviderError> {
  let text = ''
  try {
    text = await res.text()
  } catch {
    if (signal.aborted) throw abortError(signal)
  }
  // The SDKs let the server overrule the status-based decision.
  const should = res.headers.get('x-should-retry')
  const retryable = should === 'true' ? true : should === 'false' ? false : isRetryableStatus(res.status)
  const detail = describeErrorBody(text) || res.statusText || 'request failed'
  return new ProviderError(`${provider}: ${res.status} ${detail}`, {
    provider,
    status: res.status,
    retryable,
    retryAfterMs: retryAfterMsFromHeaders(res.headers),
  })
}

/**
 * One line out of an error body: `type: message` from the Anthropic/OpenAI
 * `{error: {type, message}}` shapes, Ollama's `{error: "..."}`, else the
 * text itself, shortened.
 */
export function describeErrorBody(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  try {
    const parsed: unknown = JSON.parse(trimmed)
    const described = describeErrorValue(parsed)
    if (described) return shorten(described)
  } catch {
    // not JSON: fall through to the raw text
  }
  return shorten(trimmed)
}

/** `type: message` from an error payload, or undefined when it has no recognisable error. */
export function describeErrorValue(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined
  const err = value.error
  if (typeof err === 'string') return err
  if (isRecord(err)) {
    const type = typeof err.type === 'string' ? err.type : typeof err.code === 'string' ? err.code : undefined
    const message = typeof err.message === 'string' ? err.message : undefined
    if (type && message) return `${type}: ${message}`
    return message ?? type ?? JSON.stringify(err)
  }
  if (typeof value.message === 'string') return value.message
  return undefined
}

/** How long a stream may stay silent before it counts as dead (servers send pings while thinking). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000

/**
 * The idle timeout: `JP_STREAM_IDLE_TIMEOUT_SECS` (a positive number of
 * seconds) overrides `providers.llm.timeout_secs`, else the default.
 */
export function streamIdleTimeoutMs(env: NodeJS.ProcessEnv = process.env, configuredSecs?: number): number {
  const secs = Number(env.JP_STREAM_IDLE_TIMEOUT_SECS)
  if (Number.isFinite(secs) && secs > 0) return secs * 1000
  return configuredSecs !== undefined && configuredSecs > 0 ? configuredSecs * 1000 : DEFAULT_STREAM_IDLE_TIMEOUT_MS
}

/**
 * Decoded text chunks of a response body; a broken connection becomes a
 * ProviderError, and so does a server that sends nothing for `idleMs`
 * (without it a stalled server would hang jp forever).
 */
export async function* readText(
  provider: string,
  res: Response,
  signal: AbortSignal,
  idleMs: number = streamIdleTimeoutMs(),
): AsyncGenerator<string> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let finished = false
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      let timer: NodeJS.Timeout | undefined
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ProviderError(`${provider}: the stream stalled: no data for ${idleMs / 1000} s`, {provider, retryable: true})),
          idleMs,
        )
      })
      try {
        chunk = await Promise.race([reader.read(), stalled])
      } catch (error) {
        if (signal.aborted) throw abortError(signal)
        if (isProviderError(error)) throw error
        throw new ProviderError(`${provider}: connection lost mid-stream: ${causeMessage(error)}`, {
          provider,
          retryable: true,
          cause: error,
        })
      } finally {
        clearTimeout(timer)
      }
      if (chunk.done) break
      const text = decoder.decode(chunk.value, {stream: true})
      if (text) yield text
    }
    finished = true
    const rest = decoder.decode()
    if (rest) yield rest
  } finally {
    // The caller stopped early (break, abort, error): release the connection.
    if (!finished) reader.cancel().catch(() => {})
  }
}

export function causeMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as {cause?: unknown}).cause
  const inner = cause instanceof Error ? (cause as NodeJS.ErrnoException).code ?? cause.message : undefined
  return oneLine(inner && inner !== error.message ? `${error.message} (${inner})` : error.message)
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path
}

function shorten(s: string): string {
  const line = oneLine(s)
  return line.length > 300 ? `${line.slice(0, 297)}...` : line
}

/**
 * Passes `events` through, removing `secret` (the API key) from any error's
 * message: providers echo a rejected key back in their error bodies, and
 * error messages end up on stderr.
 */
export async function* redactSecret<T>(events: AsyncIterable<T>, secret: string | undefined): AsyncGenerator<T> {
  try {
    yield* events
  } catch (error) {
    if (secret && error instanceof Error && error.message.includes(secret)) {
      error.message = error.message.split(secret).join('[redacted key]')
    }
    throw error
  }
}
