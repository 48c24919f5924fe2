// Loaded by .mocharc.json: the whole run gets a private temporary directory
// (TMPDIR, which os.tmpdir() and every child process read), and the run
// fails if a test left anything in it. Shared /tmp cannot be checked this
// way (other runs use it at the same time); a private one can.
import {chmodSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const outer = tmpdir()
const dir = mkdtempSync(join(outer, 'jp-test-run-'))
// Searchable by others (not listable): the fault tests run jp as `nobody` on
// a sandbox inside it, as they did under the shared /tmp.
chmodSync(dir, 0o711)
process.env.TMPDIR = dir

/** Caches made by the loaders, not by a test: tsx's, and Node 22+'s module compile cache (in tmpdir() by default). */
const TOOLING = /^(tsx-\d+|node-compile-cache)$/

export const mochaHooks = {
  afterAll() {
    const left = readdirSync(dir).filter((name) => !TOOLING.test(name))
    rmSync(dir, {recursive: true, force: true})
    process.env.TMPDIR = outer
    if (left.length > 0) throw new Error(`tests left files in the temporary directory: ${left.join(', ')}`)
  },
}
