// A per-conversation lock: a file created exclusively (O_EXCL) holding the
// owner's pid and the time that process started. A second process polls
// until `waitMs` has passed and then fails naming the conversation and the
// holder. A lock whose holder no longer exists on this host is taken over —
// also when its pid was reused by another process since (issue 28): a
// process whose start time differs from the one recorded (or, for a lock
// written by an older jp, that started after the lock was taken) is not the
// holder. The takeover itself is serialised by an
// exclusive mkdir so two waiters cannot both steal it. Something at the lock
// path that is not a lock file (a directory, say), or a stale lock that
// cannot be removed, fails at once with an error naming the path: waiting
// cannot fix either, and retrying in a loop would only burn CPU.
import {hostname} from 'node:os'
import {lstat, mkdir, open, rmdir, unlink} from 'node:fs/promises'
import {readFileSync, unlinkSync} from 'node:fs'
import {readText} from './files.js'
import {onCleanup} from '../process/lifecycle.js'
import {slot} from '../process/slots.js'

export class ConversationLockedError extends Error {
  constructor(
    readonly conversationId: string,
    readonly holderPid: number | undefined,
  ) {
    const who = holderPid === undefined ? 'another jp process' : `another jp process (pid ${holderPid})`
    super(`conversation ${conversationId} is in use by ${who}; wait for it to finish or pick another conversation`)
    this.name = 'ConversationLockedError'
  }
}

/** The lock path holds something jp cannot use or remove; the message names it and what to do. */
export class LockPathError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`cannot lock ${path}: ${problem}`)
    this.name = 'LockPathError'
  }
}

interface LockInfo {
  pid: number
  host: string
  since: string
  /** When the holder started (`processStartToken`); absent in locks older jp versions wrote. */
  start?: string
}

/**
 * Locks held by this process, released at exit (the lifecycle's 'locks'
 * stage) even if nobody calls release. A process-wide slot: a second copy of
 * this module (src and dist) holds the same set, and registers no second undo.
 */
function locks(): {held: Set<string>; exitHooked: boolean} {
  return slot('conversationLocks', () => ({held: new Set(), exitHooked: false}))
}
function releaseAllSync(): void {
  const {held} = locks()
  for (const p of held) {
    try {
      unlinkSync(p)
    } catch {
      // already gone
    }
  }
  held.clear()
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** `/proc/PID/stat` fields after the command name (which may hold spaces and parentheses). */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

let bootId: string | undefined
function currentBootId(): string {
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    bootId = 'unknown-boot'
  }
  return bootId
}

/**
 * Identifies one run of process `pid`: the boot and its start time in clock
 * ticks since that boot (Linux /proc). A pid reused later gets another
 * token. Undefined where the platform does not say (then only liveness counts).
 */
export function processStartToken(pid: number): string | undefined {
  const ticks = procStat(pid)?.[19] // field 22, starttime
  return ticks && /^\d+$/.test(ticks) ? `${currentBootId()}:${ticks}` : undefined
}

/** When process `pid` started (ms since the epoch, to about a second), where the platform says. */
function processStartedAt(pid: number): number | undefined {
  const ticks = Number(procStat(pid)?.[19])
  let btime: number | undefined
  try {
    btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1])
  } catch {
    return undefined
  }
  // /proc reports in USER_HZ, 100 on every Linux ABI.
  return Number.isFinite(ticks) && btime ? btime * 1000 + ticks * 10 : undefined
}

/** Clock slack when comparing a process's start with a lock's `since` (btime is whole seconds). */
const START_SLACK_MS = 2000

/** Whether the lock's holder is still the process running under its pid. */
function holderAlive(info: LockInfo): boolean {
  if (!alive(info.pid)) return false
  if (info.start !== undefined) {
    const now = processStartToken(info.pid)
    return now === undefined || now === info.start
  }
  // A lock from an older jp: its holder started before it took the lock.
  const started = processStartedAt(info.pid)
  const since = Date.parse(info.since)
  return started === undefined || !Number.isFinite(since) || started <= since + START_SLACK_MS
}

async function readInfo(path: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse((await readText(path)) ?? '') as LockInfo
    return typeof info.pid === 'number' ? info : undefined
  } catch {
    return undefined
  }
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    const fh = await open(path, 'wx', 0o600)
    const info: LockInfo = {pid: process.pid, host: hostname(), since: new Date().toISOString()}
    const start = processStartToken(process.pid)
    if (start !== undefined) info.start = start
    await fh.writeFile(JSON.stringify(info) + '\n')
    await fh.close()
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw e
  }
}

/** Removes the lock at `path` if its holder is dead; true when it did. */
async function takeOverStale(path: string, info: LockInfo | undefined): Promise<boolean> {
  if (!info) {
    // Unreadable content: a holder that died between create and write, or a
    // writer still writing. Only treat it as stale once it is old.
    try {
      if (Date.now() - (await lstat(path)).mtimeMs < 2000) return false
    } catch {
      return true
    }
  } else if (info.host !== hostname() || holderAlive(info)) return false
  const guard = `${path}.takeover`
  try {
    await mkdir(guard)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    // Another process is taking over; a guard left by a crash expires.
    try {
      if (Date.now() - (await lstat(guard)).mtimeMs > 10_000) await rmdir(guard)
    } catch {
      // raced with its owner
    }
    return false
  }
  try {
    const again = await readInfo(path)
    if (again?.pid !== info?.pid) return true // someone else took it over meanwhile: try again
    try {
      await unlink(path)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        const who = info ? `its holder (pid ${info.pid}) is gone` : 'it is stale'
        throw new LockPathError(path, `${who} but it cannot be removed (${(e as Error).message}); remove it by hand`)
      }
    }
    return true
  } finally {
    await rmdir(guard).catch(() => undefined)
  }
}

/** Throws LockPathError when `path` exists but is not a regular file (a directory never becomes a lock). */
async function mustBeLockFile(path: string): Promise<void> {
  let isFile: boolean
  try {
    isFile = (await lstat(path)).isFile()
  } catch {
    return // gone meanwhile: the next round creates it
  }
  if (!isFile) throw new LockPathError(path, 'it exists and is not a lock file (a directory?); remove it')
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** How long a jp that writes a conversation waits for another jp writing it. */
export const WRITER_LOCK_WAIT_MS = 3000

/**
 * Acquires the lock file at `path` for `conversationId`. Resolves to a
 * release function; rejects with ConversationLockedError after `waitMs`.
 */
export async function acquireLock(
  path: string,
  conversationId: string,
  opts: {waitMs?: number; pollMs?: number; onWait?: (deadline: number) => void} = {},
): Promise<() => Promise<void>> {
  const deadline = Date.now() + (opts.waitMs ?? 0)
  const poll = opts.pollMs ?? 100
  let waiting = false
  for (;;) {
    if (await tryCreate(path)) break
    await mustBeLockFile(path)
    const info = await readInfo(path)
    if (await takeOverStale(path, info)) continue
    if (Date.now() >= deadline) throw new ConversationLockedError(conversationId, info?.pid)
    // Someone else holds it: say so once (the status line's countdown).
    if (!waiting) opts.onWait?.(deadline)
    waiting = true
    await sleep(Math.min(poll, Math.max(1, deadline - Date.now())))
  }
  const state = locks()
  state.held.add(path)
  if (!state.exitHooked) {
    state.exitHooked = true
    onCleanup('locks', 'conversation locks', releaseAllSync)
  }
  let released = false
  return async () => {
    if (released) return
    released = true
    state.held.delete(path)
    const info = await readInfo(path)
    if (info?.pid === process.pid) await unlink(path).catch(() => undefined)
  }
}
