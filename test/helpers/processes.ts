// Watching real processes from a test: alive (a zombie counts as dead), and waiting for a condition.
import {readFileSync} from 'node:fs'

/** Whether `pid` is a running process; a killed but unreaped one (a zombie) is dead for our purposes. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return true
  }
}

/** Polls `cond` every 20 ms; rejects naming `what` after `limitMs`. */
export async function waitFor(cond: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
