// The last chance before a queued reply is sent (SPEC §18): when a turn ends
// with a reply queued, the status line ticks `Sending your queued reply in
// 3s (Enter: now, Ctrl+C: keep it as a draft and exit)`. Enter sends at
// once; Ctrl+C keeps the reply as the conversation's draft and ends the run
// (exit 0); a graceful shutdown beginning meanwhile sends nothing.
import type {Key} from '../inquire/keys.js'
import type {InterruptKeyReader} from './interrupt-key.js'

export type CountdownEnd = 'send' | 'keep' | 'shutdown'

export interface CountdownDeps {
  /** `interrupt.queue_countdown_secs`; 0 (or less) sends at once. */
  seconds: number
  /** Shows the ticking line (Printer.startStatus); returns its stop. */
  status(text: (elapsedMs: number) => string): () => void
  keys?: Pick<InterruptKeyReader, 'onKey'>
  router?: {push(listener: () => void): () => void; readonly shutdownSignal: AbortSignal}
}

/** The countdown's line at `secondsLeft` (pure). */
export function countdownText(secondsLeft: number): string {
  return `⏱ Sending your queued reply in ${secondsLeft}s (Enter: now, Ctrl+C: keep it as a draft and exit)`
}

function isEnter(key: Key): boolean {
  // Enter is CR; a terminal that still maps it to LF sends Ctrl+J.
  return (key.name === 'enter' && !key.meta) || (key.name === 'j' && key.ctrl && !key.meta)
}

/** Runs the countdown until it ends, Enter, Ctrl+C or a shutdown. */
export function queueCountdown(deps: CountdownDeps): Promise<CountdownEnd> {
  if (deps.router?.shutdownSignal.aborted) return Promise.resolve('shutdown')
  if (!(deps.seconds > 0)) return Promise.resolve('send')
  const total = deps.seconds * 1000
  return new Promise((resolve) => {
    let ended = false
    const stop = deps.status((elapsed) => countdownText(Math.max(1, Math.ceil((total - elapsed) / 1000))))
    const timer = setTimeout(() => end('send'), total)
    const unkey = deps.keys?.onKey((key) => {
      if (isEnter(key)) end('send')
      return undefined
    })
    // Ctrl+C here is the countdown's own (a second press within the cooldown still shuts down first).
    const pop = deps.router?.push(() => end('keep'))
    const onShutdown = () => end('shutdown')
    deps.router?.shutdownSignal.addEventListener('abort', onShutdown)
    function end(how: CountdownEnd): void {
      if (ended) return
      ended = true
      clearTimeout(timer)
      stop()
      unkey?.()
      pop?.()
      deps.router?.shutdownSignal.removeEventListener('abort', onShutdown)
      resolve(how)
    }
  })
}
