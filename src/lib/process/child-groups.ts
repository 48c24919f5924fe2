// Tools never outlive jp (SPEC §17). A tool runs in its own process group so
// that the terminal's Ctrl+C does not reach it behind jp's back; the price is
// that nothing kills that group when jp goes away. This leaf registry is the
// kill-on-exit list: the tool runner registers each group while it lives,
// and every way out of the process (normal exit, process.exit from the
// third Ctrl+C or the shutdown watchdog, an uncaught exception) SIGKILLs
// whatever is still registered. The graceful paths (SIGTERM, then SIGKILL
// after a grace period) stay the runner's job; this is the floor.
//
// On globalThis: oclif can load this module twice (src and dist).

interface Registry {
  groups: Set<number>
  hooked: boolean
}

const KEY = Symbol.for('jp.childGroups')

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>
  return (g[KEY] ??= {groups: new Set(), hooked: false})
}

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

/** SIGKILLs every registered group now (synchronous: safe in an 'exit' listener). */
export function killChildGroups(): number[] {
  const r = registry()
  const killed = [...r.groups]
  r.groups.clear()
  for (const pgid of killed) signalGroup(pgid, 'SIGKILL')
  return killed
}

/** Groups currently registered (for tests and diagnostics). */
export function childGroups(): number[] {
  return [...registry().groups]
}

/**
 * Registers a process group to be SIGKILLed if jp exits while it lives;
 * returns the function that unregisters it (call it once the group is reaped).
 */
export function trackChildGroup(pgid: number): () => void {
  const r = registry()
  if (!r.hooked) {
    r.hooked = true
    process.on('exit', () => killChildGroups())
    process.on('uncaughtExceptionMonitor', () => killChildGroups())
  }
  r.groups.add(pgid)
  return () => {
    r.groups.delete(pgid)
  }
}
