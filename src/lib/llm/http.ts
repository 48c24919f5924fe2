// The thin I/O shell shared by the adapters: POST a JSON body, turn a failed
// response into one ProviderError line, and read the body as text chunks.
//
// Requests go through node:http/https rather than fetch(): undici's first
// request costs tens of milliseconds more to the first byte (and its
// WebAssembly parser keeps the process busy after the answer), and fetch in
// Node 20 ignores HTTPS_PROXY. The proxy comes from the environment
// (./proxy.ts).
import type {IncomingMessage} from 'node:http'
import {proxyAgentFor} from './proxy.js'
import {isRetryableStatus, retryAfterMsFromHeaders} from './retry.js'
import {jsonParts, partsLength} from '../text/json-bytes.js'
import {oneLine} from '../text/one-line.js'
import {quotedJson} from './stream-events.js'
import {redactor} from './redact.js'
import {abortError, isProviderError, ProviderError} from './types.js'

export interface PostOptions {
  provider: string
  url: string
  headers: Record<string, string>
  body: unknown
  /** POST (the default) with `body` as JSON, or GET without a body (`body` is then ignored). */
  method?: 'POST' | 'GET'
  signal: AbortSignal
  /** How long connecting and waiting for the response headers may take (default: the stream idle timeout). */
  timeoutMs?: number
  /** The API key the request carries: removed from an error body before it is cut to one line. */
  secret?: string
}

/** A response whose status line and headers have arrived; `body` streams the rest. */
export interface HttpResponse {
  status: number
  statusText: string
  headers: {get(name: string): string | null}
  body: IncomingMessage
}

/** POSTs `body` as JSON (or GETs, with `method: 'GET'`) and returns the response once it is known to be 2xx. */
export async function postJson(opts: PostOptions): Promise<HttpResponse> {
  let message: IncomingMessage
  // The idle timeout covers the wait for the headers too: a server that
  // accepts the connection and then says nothing fails like a stalled stream.
  const timeoutMs = opts.timeoutMs ?? streamIdleTimeoutMs()
  const headersLate = new AbortController()
  const timer = setTimeout(() => headersLate.abort(), timeoutMs)
  try {
    message = await send(opts, AbortSignal.any([opts.signal, headersLate.signal]))
  } catch (error) {
    if (opts.signal.aborted) throw abortError(opts.signal)
    if (isProviderError(error)) throw error // a bad proxy setting, said as it is (not retried)
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
  const res: HttpResponse = {
    status: message.statusCode ?? 0,
    statusText: message.statusMessage ?? '',
    headers: {
      get(name) {
        const v = message.headers[name.toLowerCase()]
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v
      },
    },
    body: message,
  }
  if (res.status < 200 || res.status > 299) throw await errorFromResponse(opts.provider, res, opts.signal, {timeoutMs, secret: opts.secret})
  return res
}

async function send(opts: PostOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const url = new URL(opts.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`)
  const {request} = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  const agent = await proxyAgentFor(url)
  const get = opts.method === 'GET'
  // As parts: a large query is escaped once for the log and this body (text/json-bytes.ts).
  const payload = get ? [] : jsonParts(opts.body)
  const headers = get ? opts.headers : {'content-type': 'application/json', ...opts.headers, 'content-length': String(partsLength(payload))}
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: get ? 'GET' : 'POST',
        headers,
        signal,
        ...(agent ? {agent} : {}),
      },
      resolve,
    )
    // Stays attached after the response: a later socket error surfaces on the body.
    req.on('error', reject)
    for (const part of payload) req.write(part)
    req.end()
  })
}

/** An error body is read up to this many characters (a proxy may send an endless one). */
const ERROR_BODY_CHARS = 64 * 1024

export async function errorFromResponse(
  provider: string,
  res: HttpResponse,
  signal: AbortSignal,
  opts: {timeoutMs?: number; secret?: string} = {},
): Promise<ProviderError> {
  let text = ''
  try {
    // Under the idle timeout: a server that sends an error status and then nothing must not hang jp.
    for await (const chunk of readText(provider, res, signal, opts.timeoutMs)) {
      text += chunk
      if (text.length >= ERROR_BODY_CHARS) break
    }
  } catch {
    if (signal.aborted) throw abortError(signal)
  }
  // Before the body is cut to one line: a key cut in half would no longer be found.
  text = redactor(opts.secret)(text)
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
    return message ?? type ?? quotedJson(err)
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
 * (without it a stalled server would hang jp forever). The idle clock runs
 * only while waiting for data, not while the consumer holds a chunk (an
 * interrupt menu can stay open for minutes); it is the socket's own timer,
 * re-armed per chunk, so no timer or promise is made per chunk.
 * `latin1` yields binary strings, one char per byte, for the SSE adapters
 * (llm/text-records.ts): they decode what they keep.
 */
export async function* readText(
  provider: string,
  res: HttpResponse,
  signal: AbortSignal,
  idleMs: number = streamIdleTimeoutMs(),
  encoding: 'utf8' | 'latin1' = 'utf8',
): AsyncGenerator<string> {
  const body = res.body
  const socket = body.socket
  const stalled = () => body.destroy(new ProviderError(`${provider}: the stream stalled: no data for ${idleMs / 1000} s`, {provider, retryable: true}))
  socket?.on('timeout', stalled)
  body.setEncoding(encoding)
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<string>
  try {
    for (;;) {
      let chunk: IteratorResult<string>
      socket?.setTimeout(idleMs)
      try {
        chunk = await chunks.next()
      } catch (error) {
        if (signal.aborted) throw abortError(signal)
        if (isProviderError(error)) throw error
        throw new ProviderError(`${provider}: connection lost mid-stream: ${causeMessage(error)}`, {
          provider,
          retryable: true,
          cause: error,
        })
      } finally {
        socket?.setTimeout(0)
      }
      if (chunk.done) break
      if (chunk.value) yield chunk.value
    }
  } finally {
    socket?.off('timeout', stalled)
    // The caller stopped early (break, abort, error): release the connection.
    if (!body.complete) body.destroy()
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
 * Passes `events` through, removing every trace of `secret` (the API key:
 * whole, in pieces, base64-encoded; ./redact.ts) from any error's message:
 * providers echo a rejected key back in their error bodies and error events,
 * and error messages end up on stderr.
 */
export async function* redactSecret<T>(events: AsyncIterable<T>, secret: string | undefined): AsyncGenerator<T> {
  try {
    yield* events
  } catch (error) {
    if (secret && error instanceof Error) {
      const clean = redactor(secret)(error.message)
      // Only when it changed: an AbortError (a DOMException) has a read-only message.
      if (clean !== error.message) error.message = clean
    }
    throw error
  }
}
