// While a child owns the terminal (the user's editor), a Ctrl+C belongs to
// it, not to jp. This leaf module is the one place that records that, so the
// editor service can say it without importing the interrupt machinery and the
// signal router can honour it.

const KEY = Symbol.for('jp.sigintGuard')

interface GuardState {
  depth: number
}

function state(): GuardState {
  const g = globalThis as unknown as Record<symbol, GuardState | undefined>
  return (g[KEY] ??= {depth: 0})
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
  const noop = () => {}
  process.on('SIGINT', noop)
  s.depth++
  try {
    return await fn()
  } finally {
    s.depth--
    process.off('SIGINT', noop)
  }
}
