// The controlling terminal, reached through /dev/tty so that prompts and
// terminal restoration never touch stdout or stderr (SPEC §1.3). A leaf
// module: the printer, the signal router and the prompts all open the
// terminal through it. Opening it
// fails where there is no terminal (CI, cron, a setsid child): callers then
// get undefined and skip whatever needed a terminal.
import {closeSync, openSync, writeSync} from 'node:fs'

export const TTY_PATH = '/dev/tty'

/** Opens /dev/tty (for writing by default); undefined when there is no terminal. The one place jp opens it. */
export function openTtyFd(flags: 'w' | 'r' | 'r+' | number = 'w'): number | undefined {
  if (process.platform === 'win32') return undefined
  try {
    return openSync(TTY_PATH, flags)
  } catch {
    return undefined
  }
}

/** Closes a tty fd, ignoring errors (already closed, or the terminal went away). */
export function closeTtyFd(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // already gone
  }
}

/** Runs `fn` with /dev/tty open and closes it after; undefined (and `fn` not run) without a terminal. */
export function withTtyFd<T>(flags: 'w' | 'r' | 'r+' | number, fn: (fd: number) => T): T | undefined {
  const fd = openTtyFd(flags)
  if (fd === undefined) return undefined
  try {
    return fn(fd)
  } finally {
    closeTtyFd(fd)
  }
}

let cachedHasTerminal: boolean | undefined

/** True when this process has a controlling terminal it can open. Cached. */
export function hasControllingTerminal(): boolean {
  if (cachedHasTerminal === undefined) {
    const fd = openTtyFd('r+')
    cachedHasTerminal = fd !== undefined
    if (fd !== undefined) closeTtyFd(fd)
  }
  return cachedHasTerminal
}

/** Writes synchronously to a tty fd, ignoring errors (the terminal may be gone). */
export function writeTtySync(fd: number, data: string): void {
  try {
    writeSync(fd, data)
  } catch {
    // A hung-up terminal (SIGHUP) is not a reason to fail an exit path.
  }
}
