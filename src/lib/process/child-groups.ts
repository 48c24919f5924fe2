// Tools never outlive jp (SPEC §17). A tool runs in its own process group so
// that the terminal's Ctrl+C does not reach it behind jp's back; the price is
// that nothing kills that group when jp goes away. Its exit registry
// (exit-registry.ts) is the kill-on-exit list: the tool runner registers each group while it lives,
// and every way out of the process (normal exit, process.exit from the
// third Ctrl+C or the shutdown watchdog, an uncaught exception) SIGKILLs
// whatever is still registered. The graceful paths (SIGTERM, then SIGKILL
// after a grace period) stay the runner's job; this is the floor.
import {exitRegistry} from './exit-registry.js'

/** Sends `signal` to the process group led by `pgid`; false when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    if (process.platform === 'win32') process.kill(pgid, signal)
    else process.kill(-pgid, signal)
    return true
  } catch {
    // ESRCH: the whole group is gone already.
    return false
  }
}

const groups = exitRegistry<number>('childGroups', 'children', (pgid) => signalGroup(pgid, 'SIGKILL'), {onUncaughtException: true})

/** SIGKILLs every registered group now (synchronous: safe in an 'exit' listener). */
export function killChildGroups(): number[] {
  return groups.undoAll()
}

/** Groups currently registered (for tests and diagnostics). */
export function childGroups(): number[] {
  return groups.items()
}

/**
 * Registers a process group to be SIGKILLed if jp exits while it lives;
 * returns the function that unregisters it (call it once the group is reaped).
 */
export function trackChildGroup(pgid: number): () => void {
  return groups.add(pgid)
}
