// Private temporary directories and files that never outlive jp, made by
// `tmp` (SPEC §16): a 0700 directory under the system temp dir, the files in
// it 0600 and created exclusively. A `finally` removes one on the ordinary
// path, but not when jp ends while the work is still running (process.exit
// from the third Ctrl+C or the shutdown watchdog, an uncaught exception): a
// tool's arguments file, or the draft an editor has open, would stay in /tmp.
// The exit registry (exit-registry.ts), jp's one list of what to undo at
// exit, removes what is still registered with tmp's own synchronous removal.
// (tmp's graceful clean-up is not switched on: it would be a second 'exit'
// listener doing the same, outside the registry.)
import {writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {promisify} from 'node:util'
import tmp from 'tmp'

import {exitRegistry} from './exit-registry.js'

interface Made {
  path: string
  /** tmp's removal: synchronous, once (later calls do nothing); throws if the directory is already gone. */
  removeSync: () => void
}

const dirs = exitRegistry<Made>('tempDirs', 'temporary files', (made) => {
  try {
    made.removeSync()
  } catch {
    // An exit listener must not throw; what cannot be removed (or is gone) stays so.
  }
})

/** Directories currently registered (for tests and diagnostics). */
export function tempDirs(): string[] {
  return dirs.items().map((made) => made.path)
}

export interface PrivateTempDir {
  path: string
  /** Creates `name` in the directory (0600, failing if it exists) holding `content`; returns its path. */
  file(name: string, content: string): Promise<string>
  /** Removes the directory and unregisters it; never throws. */
  remove(): Promise<void>
}

const makeFile = promisify((opts: tmp.FileOptions, cb: (err: Error | null, path?: string) => void) => tmp.file(opts, (err, path) => cb(err, path)))

/**
 * A fresh 0700 directory under `parent` (default: the system temp dir),
 * named `<prefix>-<pid>-<random>`, removed on every exit path jp controls.
 */
export async function makePrivateTempDir(prefix: string, parent: string = tmpdir()): Promise<PrivateTempDir> {
  // dirSync: the one form whose removal is synchronous, as an exit listener needs.
  const {name: path, removeCallback} = tmp.dirSync({prefix: prefix.replace(/-$/, ''), tmpdir: parent, mode: 0o700, unsafeCleanup: true, keep: true})
  const made: Made = {path, removeSync: removeCallback}
  const unregister = dirs.add(made)
  return {
    path,
    async file(name, content) {
      // Created O_CREAT|O_EXCL, 0600, in the 0700 directory only jp can enter;
      // kept: the directory's removal takes it.
      const file = (await makeFile({tmpdir: path, name, mode: 0o600, keep: true, discardDescriptor: true}))!
      await writeFile(file, content, 'utf8')
      return file
    },
    async remove() {
      try {
        made.removeSync()
      } catch {
        // already gone
      }
      unregister()
    },
  }
}
