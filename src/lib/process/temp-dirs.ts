// Private temporary directories that never outlive jp. A `finally` removes
// one on the ordinary path, but not when jp ends while the work is still
// running: process.exit from the third Ctrl+C or the shutdown watchdog, or
// an uncaught exception, skip every pending `finally` (a tool's arguments
// file would stay in /tmp). This registry is the floor under those paths:
// each directory is registered while it lives and removed synchronously on
// 'exit'. A SIGKILL of jp is the one way out it cannot cover.
//
// On globalThis: oclif can load this module twice (src and dist).
import {rmSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

interface Registry {
  dirs: Set<string>
  hooked: boolean
}

const KEY = Symbol.for('jp.tempDirs')

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>
  return (g[KEY] ??= {dirs: new Set(), hooked: false})
}

/** Removes every registered directory now (synchronous: safe in an 'exit' listener). */
export function removeTempDirs(): void {
  const r = registry()
  for (const dir of r.dirs) {
    try {
      rmSync(dir, {recursive: true, force: true})
    } catch {
      // An exit listener must not throw; what cannot be removed stays.
    }
  }
  r.dirs.clear()
}

/** Directories currently registered (for tests and diagnostics). */
export function tempDirs(): string[] {
  return [...registry().dirs]
}

export interface PrivateTempDir {
  path: string
  /** Removes the directory and unregisters it; never throws. */
  remove(): Promise<void>
}

/** A fresh 0700 directory under the system temp dir, removed on every exit path jp controls. */
export async function makePrivateTempDir(prefix: string): Promise<PrivateTempDir> {
  const r = registry()
  if (!r.hooked) {
    r.hooked = true
    // 'exit' also runs after an uncaught exception and after process.exit().
    process.on('exit', removeTempDirs)
  }
  // mkdtemp creates 0700 whatever the umask.
  const path = await mkdtemp(join(tmpdir(), prefix))
  r.dirs.add(path)
  return {
    path,
    async remove() {
      await rm(path, {recursive: true, force: true}).catch(() => {})
      r.dirs.delete(path)
    },
  }
}
