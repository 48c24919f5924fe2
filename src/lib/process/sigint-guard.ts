// While a child owns the terminal (the user's editor), a Ctrl+C belongs to
// it, not to jp. This leaf module is the one place that records that, so the
// editor service can say it without importing the interrupt machinery and the
// signal router can honour it. The count is a process-wide slot (./slots.ts).
import {listenToSignal} from './lifecycle.js'
import {slot} from './slots.js'

function state(): {depth: number} {
  return slot('sigintGuard', () => ({depth: 0}))
}

/** True while some `ignoreSigintDuring` call is in progress. */
export function isSigintIgnored(): boolean {
  return state().depth > 0
}

/**
 * Runs `fn` with SIGINT ignored by jp. A no-op listener is installed so that
 * Node's default action (exit) cannot fire when no router is listening.
 */
export async function ignoreSigintDuring<T>(fn: () => Promise<T>): Promise<T> {
  const s = state()
  const stop = listenToSignal('SIGINT', () => {})
  s.depth++
  try {
    return await fn()
  } finally {
    s.depth--
    stop()
  }
}
