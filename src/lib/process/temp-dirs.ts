// Private temporary directories that never outlive jp. A `finally` removes
// one on the ordinary path, but not when jp ends while the work is still
// running (process.exit from the third Ctrl+C or the shutdown watchdog, an
// uncaught exception): a tool's arguments file, or the draft an editor has
// open, would stay in /tmp. The exit registry (exit-registry.ts) removes what
// is still registered.
import {rmSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {exitRegistry} from './exit-registry.js'

const dirs = exitRegistry<string>('tempDirs', (dir) => {
  try {
    rmSync(dir, {recursive: true, force: true})
  } catch {
    // An exit listener must not throw; what cannot be removed stays.
  }
})

/** Directories currently registered (for tests and diagnostics). */
export function tempDirs(): string[] {
  return dirs.items()
}

export interface PrivateTempDir {
  path: string
  /** Removes the directory and unregisters it; never throws. */
  remove(): Promise<void>
}

/** A fresh 0700 directory under `parent` (default: the system temp dir), removed on every exit path jp controls. */
export async function makePrivateTempDir(prefix: string, parent: string = tmpdir()): Promise<PrivateTempDir> {
  // mkdtemp creates 0700 whatever the umask.
  const path = await mkdtemp(join(parent, prefix))
  const unregister = dirs.add(path)
  return {
    path,
    async remove() {
      await rm(path, {recursive: true, force: true}).catch(() => {})
      unregister()
    },
  }
}
