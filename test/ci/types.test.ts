// The tests run through tsx, which strips types without checking them: this
// is where a test (or bench) that no longer matches the code's types fails.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'

describe('ci: the tests type-check', function () {
  this.timeout(120_000)
  it('tsc -p tsconfig.test.json reports nothing', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(ROOT, 'tsconfig.test.json')], {encoding: 'utf8'})
    expect(r.stdout + r.stderr, 'tsc output').to.equal('')
    expect(r.status).to.equal(0)
  })
})
