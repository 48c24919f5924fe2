// Which test files take the time: `npm test -- --require test/helpers/file-times.ts`
// with JP_TEST_FILE_TIMES=PATH appends one line per file, "<ms> <file>",
// hooks included (sort -n PATH | tail). Under mocha --parallel root hooks run
// around each file, so each line is one file's wall time in its worker; in a
// serial run there is one line for the whole run.
import {appendFileSync} from 'node:fs'
import {relative} from 'node:path'
import type {Context} from 'mocha'

const out = process.env.JP_TEST_FILE_TIMES
let started = 0

export const mochaHooks = {
  beforeAll() {
    started = performance.now()
  },
  afterAll(this: Context) {
    if (!out) return
    const files = new Set((this.test?.parent?.suites ?? []).map((s) => s.file).filter((f): f is string => f !== undefined))
    appendFileSync(out, `${Math.round(performance.now() - started)} ${[...files].map((f) => relative(process.cwd(), f)).join(' ')}\n`)
  },
}
