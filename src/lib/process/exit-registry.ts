// What must not outlive jp, undone however jp exits. A `finally` or a
// graceful path cleans up on the ordinary way out, but process.exit (the
// third Ctrl+C, the shutdown watchdog) and an uncaught exception skip every
// pending `finally`. An exit registry is the floor under those paths: each
// thing is registered while it lives, and whatever is still registered is
// undone synchronously at exit, in its stage of the process lifecycle
// (./lifecycle.ts). A SIGKILL of jp is the one way out it cannot cover.
//
// In a process-wide slot (./slots.ts): oclif can load this module twice (src
// and dist); both copies share one set per name.
import {type CleanupStage, onCleanup} from './lifecycle.js'
import {slot} from './slots.js'

export interface ExitRegistry<T> {
  /** Registers `item` until the returned function is called. */
  add(item: T): () => void
  /** What is registered now (for tests and diagnostics). */
  items(): T[]
  /** Undoes and unregisters everything registered now (synchronous: safe in an 'exit' listener); returns what it undid. */
  undoAll(): T[]
}

/**
 * The registry called `name`, undone in `stage`; `undo` must be synchronous
 * and must not throw. `onUncaughtException` also undoes before an uncaught
 * exception is reported (not only at the exit after it).
 */
export function exitRegistry<T>(name: string, stage: CleanupStage, undo: (item: T) => void, opts: {onUncaughtException?: boolean} = {}): ExitRegistry<T> {
  const registries = slot('exitRegistries', () => new Map())
  let state = registries.get(name) as {items: Set<T>; hooked: boolean} | undefined
  if (!state) registries.set(name, (state = {items: new Set<T>(), hooked: false}))
  const s = state
  const undoAll = (): T[] => {
    const undone = [...s.items]
    s.items.clear()
    for (const item of undone) undo(item)
    return undone
  }
  return {
    add(item) {
      if (!s.hooked) {
        s.hooked = true
        // At exit: also after an uncaught exception and after process.exit().
        onCleanup(stage, name, () => void undoAll(), {alsoOnCrash: opts.onUncaughtException})
      }
      s.items.add(item)
      return () => {
        s.items.delete(item)
      }
    },
    items: () => [...s.items],
    undoAll,
  }
}
