// Loaded by .mocharc.json: each mocha process gets a private temporary
// directory (TMPDIR, which os.tmpdir() and every child process read), and a
// test file fails if it left anything in it. Shared /tmp cannot be checked
// this way (other runs use it at the same time); a private one can.
//
// `npm test` runs mocha --parallel: each worker process loads this module
// once and runs many files, and root hooks run around each file there (around
// the whole run in a serial run). So the check runs after each file, clears
// what was left for the next one, and the directory itself goes when the
// process exits.
import {chmodSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

// Beside the main process's directory, not inside it: a worker inherits the
// main process's TMPDIR, and a nested path would be longer than a test run
// alone sees (paths shown on a terminal wrap sooner).
process.env.JP_TEST_TMPDIR_PARENT ??= tmpdir()
const dir = mkdtempSync(join(process.env.JP_TEST_TMPDIR_PARENT, 'jp-test-run-'))
// Searchable by others (not listable): the fault tests run jp as `nobody` on
// a sandbox inside it, as they did under the shared /tmp.
chmodSync(dir, 0o711)
process.env.TMPDIR = dir
process.on('exit', () => rmSync(dir, {recursive: true, force: true}))

/** Caches made by the loaders, not by a test: tsx's, and Node 22+'s module compile cache (in tmpdir() by default). */
const TOOLING = /^(tsx-\d+|node-compile-cache)$/

export const mochaHooks = {
  afterAll() {
    const left = readdirSync(dir).filter((name) => !TOOLING.test(name))
    for (const name of left) rmSync(join(dir, name), {recursive: true, force: true})
    if (left.length > 0) throw new Error(`tests left files in the temporary directory: ${left.join(', ')}`)
  },
}
