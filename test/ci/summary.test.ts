// .ci/summary turns mocha's spec output into "N passed, N failed, N skipped"
// (the pending count used to be dropped). Runs real mocha on a small spec.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, it} from 'mocha'

import {ROOT} from '../helpers/cli.js'

describe('.ci/summary', function () {
  this.timeout(60_000)

  it('counts passed, failed and skipped (pending) tests from a real mocha run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jp-ci-'))
    try {
      const spec = join(dir, 'sample.spec.cjs')
      writeFileSync(
        spec,
        `const assert = require('node:assert')
describe('sample', () => {
  it('passes', () => {})
  it('passes too', () => {})
  it('fails', () => assert.strictEqual(1, 2))
  it.skip('is skipped', () => {})
  it('is pending')
  it('skips itself', function () { this.skip() })
})
`,
      )
      // Plain and coloured (mocha colours its output under CI=true).
      for (const colours of ['--no-colors', '--colors']) {
        const mocha = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', colours, spec], {encoding: 'utf8'})
        expect(mocha.status).to.equal(1)
        // The coloured run must really carry colour codes (mocha may colour even
        // with --no-colors under CI=true, so only this direction is checked).
        if (colours === '--colors') expect(mocha.stdout.includes('\x1b['), colours).to.equal(true)
        const summary = spawnSync(join(ROOT, '.ci', 'summary'), {input: mocha.stdout, encoding: 'utf8'})
        expect(summary.stdout, colours).to.equal('2 passed, 1 failed, 3 skipped\n')
      }
      const none = spawnSync(join(ROOT, '.ci', 'summary'), {input: '', encoding: 'utf8'})
      expect(none.stdout).to.equal('0 passed, 0 failed, 0 skipped\n')
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
