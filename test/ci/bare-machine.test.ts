// The README's `npm install && npm test` on a machine with only Node and npm
// (issue 33): the test files that need zsh, fish or jq run as `npm test` runs
// them (mocha --parallel, .mocharc.json), with a PATH holding none of zsh,
// fish, jq, flock or tmux. They must pass, each missing program's tests
// counted as skipped with one line naming it and its Debian package; and
// under JP_TEST_REQUIRE_ALL=1 (what .ci/run sets) a missing program fails.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, symlinkSync} from 'node:fs'
import {delimiter, join} from 'node:path'
import {after, before, describe, it} from 'mocha'

import {ROOT, scrubbedEnv} from '../helpers/cli.js'
import {MISSING_PROGRAM} from '../helpers/programs.js'
import {tempDir, type TempDir} from '../editor/helpers.js'

const ABSENT = new Set(['zsh', 'fish', 'jq', 'flock', 'tmux'])
const MOCHA = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js')
/** The files that call for zsh, fish and jq, narrowed to the tests that do. */
const FILES = ['test/cli/completion.test.ts', 'test/cli/completion-hostile.test.ts', 'test/docs/readme-commands.test.ts', 'test/e2e/queued-replies.test.ts']
const GREP = 'jp completion (zsh|fish)|Tab in (zsh|fish)|README command lines|\\| jq'

/** One directory of links to every program on PATH except ABSENT's. */
function pathWithout(dir: string): string {
  mkdirSync(dir)
  for (const from of (process.env.PATH ?? '').split(delimiter)) {
    if (from === '' || !existsSync(from)) continue
    for (const name of readdirSync(from)) {
      if (ABSENT.has(name) || existsSync(join(dir, name))) continue
      symlinkSync(join(from, name), join(dir, name))
    }
  }
  return dir
}

function mocha(path: string, env: NodeJS.ProcessEnv, args: string[]) {
  const run = spawnSync(process.execPath, [MOCHA, '--parallel', '--jobs', '2', '--no-colors', ...args], {
    cwd: ROOT,
    env: {...scrubbedEnv(), ...env, PATH: path},
    encoding: 'utf8',
    timeout: 240_000,
  })
  return {code: run.status, out: `${run.stdout}${run.stderr}`}
}

describe('npm test on a machine without zsh, fish, jq, flock and tmux', function () {
  this.timeout(300_000)
  let t: TempDir
  let path: string

  before(() => {
    t = tempDir('jp-bare-')
    path = pathWithout(t.path('bin'))
    for (const name of ABSENT) expect(existsSync(join(path, name)), name).to.equal(false)
  })
  after(() => t?.cleanup())

  it('passes, each missing program skipping its tests with one line naming it and its Debian package', () => {
    const r = mocha(path, {}, ['--grep', GREP, ...FILES])
    expect(r.code, r.out).to.equal(0)
    const skips = r.out.split('\n').filter((l) => l.includes(MISSING_PROGRAM))
    expect(skips.map((l) => l.replace(/ — .*/, '').trim()).sort()).to.deep.equal([
      `${MISSING_PROGRAM} fish (Debian package: fish)`,
      `${MISSING_PROGRAM} fish (Debian package: fish)`,
      `${MISSING_PROGRAM} jq (Debian package: jq)`,
      `${MISSING_PROGRAM} jq (Debian package: jq)`,
      `${MISSING_PROGRAM} zsh (Debian package: zsh)`,
      `${MISSING_PROGRAM} zsh (Debian package: zsh)`,
    ])
    // Counted as skipped (mocha's pending), never as failing.
    expect(r.out).to.match(/^ {2}\d+ pending$/m)
    expect(r.out).to.not.match(/failing/)
  })

  it('fails instead under JP_TEST_REQUIRE_ALL=1 (.ci/run), naming the program', () => {
    const r = mocha(path, {JP_TEST_REQUIRE_ALL: '1'}, ['--grep', 'jp completion zsh', FILES[0]])
    expect(r.code, r.out).to.not.equal(0)
    expect(r.out).to.include('zsh is not on PATH (Debian package: zsh)')
    expect(r.out).to.not.include(MISSING_PROGRAM)
  })
})
