// Retry policy as the vendor SDKs apply it:
// 408/409/429/≥500 (incl. Anthropic's 529) and unreachable servers are
// retried with backoff, honouring the server's hints. A response is retried
// only while nothing of it has reached the caller: a half-streamed answer is
// never replayed.
import {abortError, isProviderError, ProviderError} from './types.js'

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
  /** Injected for deterministic tests; defaults to Math.random. */
  random?: () => number
}

export const DEFAULT_RETRY: RetryOptions = {maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000}

/**
 * The longest server hint jp waits out. A longer one (a quota reset in an
 * hour) fails at once, saying when to try again, instead of hanging or
 * being replaced by a backoff the server will refuse again.
 */
export const MAX_RETRY_WAIT_MS = 60_000

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The server's wait hint in milliseconds: `retry-after-ms`, then
 * `retry-after` (seconds or an HTTP date); undefined when absent or absurd.
 */
export function retryAfterMsFromHeaders(headers: Pick<Headers, 'get'>, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms)
    if (Number.isFinite(n) && n >= 0) return n
  }
  const ra = headers.get('retry-after')
  if (ra !== null && ra.trim() !== '') {
    const secs = Number(ra)
    if (Number.isFinite(secs)) {
      if (secs >= 0) return secs * 1000
    } else {
      const at = Date.parse(ra)
      if (Number.isFinite(at)) return Math.max(0, at - now)
    }
  }
  return undefined
}

/** The error for a server that asks to wait longer than jp will: it says when to retry. */
export function tooLongToWait(error: ProviderError, waitMs: number, now = Date.now()): ProviderError {
  const at = new Date(now + waitMs).toISOString().replace(/\.\d+Z$/, 'Z')
  const secs = Math.ceil(waitMs / 1000)
  const span = secs >= 3600 ? `${Math.round(secs / 360) / 10} h` : secs >= 120 ? `${Math.round(secs / 6) / 10} min` : `${secs} s`
  return new ProviderError(`${error.message} (the server asks to retry in ${span}: try again after ${at})`, {
    provider: error.provider,
    status: error.status,
    retryable: false,
    retryAfterMs: waitMs,
    cause: error,
  })
}

/**
 * The last attempt's error, saying that it was the last of several and how
 * long they took in all: "no response within 2 s" alone read as if jp had
 * waited 2 s, after 8 s of retries.
 */
function afterRetries(error: ProviderError, attempts: number, elapsedMs: number): ProviderError {
  return new ProviderError(`${error.message} (${attempts} attempts, ${(elapsedMs / 1000).toFixed(1)} s in all)`, {
    provider: error.provider,
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    cause: error,
  })
}

/** Exponential backoff with up to 25% downward jitter: 0.5 s × 2ⁿ, capped. */
export function backoffMs(retriesSoFar: number, opts: RetryOptions = DEFAULT_RETRY): number {
  const random = opts.random ?? Math.random
  const base = Math.min(opts.baseDelayMs * 2 ** retriesSoFar, opts.maxDelayMs)
  return base * (1 - random() * 0.25)
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError(signal))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, {once: true})
  })
}

/**
 * Runs `attempt` and passes its events through, starting it again after a
 * retryable ProviderError as long as no event has been yielded yet.
 */
export async function* withRetry<T>(
  signal: AbortSignal,
  attempt: () => AsyncIterable<T>,
  opts: RetryOptions = DEFAULT_RETRY,
): AsyncGenerator<T> {
  const started = Date.now()
  for (let retries = 0; ; retries++) {
    let yielded = false
    try {
      for await (const event of attempt()) {
        yielded = true
        yield event
      }
      return
    } catch (error) {
      if (signal.aborted) throw abortError(signal)
      if (yielded || !isProviderError(error) || !error.retryable) throw error
      const hint = error.retryAfterMs
      if (hint !== undefined && hint > MAX_RETRY_WAIT_MS) throw tooLongToWait(error, hint)
      if (retries >= opts.maxRetries) throw retries === 0 ? error : afterRetries(error, retries + 1, Date.now() - started)
      await sleep(hint ?? backoffMs(retries, opts), signal)
    }
  }
}

