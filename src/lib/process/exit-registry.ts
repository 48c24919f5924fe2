// What must not outlive jp, undone however jp exits. A `finally` or a
// graceful path cleans up on the ordinary way out, but process.exit (the
// third Ctrl+C, the shutdown watchdog) and an uncaught exception skip every
// pending `finally`. An exit registry is the floor under those paths: each
// thing is registered while it lives, and whatever is still registered is
// undone synchronously in an 'exit' listener. A SIGKILL of jp is the one way
// out it cannot cover.
//
// On globalThis: oclif can load this module twice (src and dist); both
// copies share one set per name.

interface State<T> {
  items: Set<T>
  hooked: boolean
}

export interface ExitRegistry<T> {
  /** Registers `item` until the returned function is called. */
  add(item: T): () => void
  /** What is registered now (for tests and diagnostics). */
  items(): T[]
  /** Undoes and unregisters everything registered now (synchronous: safe in an 'exit' listener); returns what it undid. */
  undoAll(): T[]
}

/**
 * The registry called `name`; `undo` must be synchronous and must not throw.
 * `onUncaughtException` also undoes before an uncaught exception is reported
 * (not only at the exit after it).
 */
export function exitRegistry<T>(name: string, undo: (item: T) => void, opts: {onUncaughtException?: boolean} = {}): ExitRegistry<T> {
  const g = globalThis as unknown as Record<symbol, State<T> | undefined>
  const state = (g[Symbol.for(`jp.exitRegistry.${name}`)] ??= {items: new Set(), hooked: false})
  const undoAll = (): T[] => {
    const undone = [...state.items]
    state.items.clear()
    for (const item of undone) undo(item)
    return undone
  }
  return {
    add(item) {
      if (!state.hooked) {
        state.hooked = true
        // 'exit' also runs after an uncaught exception and after process.exit().
        process.on('exit', undoAll)
        if (opts.onUncaughtException) process.on('uncaughtExceptionMonitor', undoAll)
      }
      state.items.add(item)
      return () => {
        state.items.delete(item)
      }
    },
    items: () => [...state.items],
    undoAll,
  }
}
