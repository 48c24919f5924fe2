// oclif.manifest.json is committed (SPEC §18) and shipped: oclif serves help
// and the command list from it whenever its version matches the package's,
// in development too. These tests fail when it is not what the build
// generates from the commands (scripts/manifest.js), so a changed flag cannot
// ship with stale help.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {ROOT} from '../helpers/cli.js'
import {requireProgram} from '../helpers/programs.js'

const FIX = 'run `npm run build` (it rewrites oclif.manifest.json) and commit oclif.manifest.json'

/** What scripts/manifest.js generates, here from the TypeScript sources (tsx maps the command target to src/). */
async function generated(): Promise<string> {
  const {manifestText} = (await import(pathToFileURL(join(ROOT, 'scripts/manifest.js')).href)) as {manifestText(root?: string): Promise<string>}
  return manifestText(ROOT)
}

describe('oclif.manifest.json: committed, and what the build generates', function () {
  this.timeout(60_000)

  it('the file at the top level is what scripts/manifest.js generates from the commands', async () => {
    const onDisk = readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')
    expect(onDisk, `oclif.manifest.json is stale: ${FIX}`).to.equal(await generated())
  })

  it('the committed file (git index) is the generated one, and it is not ignored', async function () {
    requireProgram(this, 'git', 'git')
    const git = (...args: string[]) => spawnSync('git', args, {cwd: ROOT, encoding: 'utf8'})
    if (git('rev-parse', '--is-inside-work-tree').stdout.trim() !== 'true') this.skip() // an unpacked tarball: nothing is committed
    expect(git('check-ignore', '-q', 'oclif.manifest.json').status, 'oclif.manifest.json must not be in .gitignore').to.equal(1)
    const committed = git('show', ':oclif.manifest.json')
    expect(committed.status, `oclif.manifest.json is not committed: ${FIX}`).to.equal(0)
    expect(committed.stdout, `the committed oclif.manifest.json is stale: ${FIX}`).to.equal(await generated())
  })

  it('is in the package and carries the package version (else oclif would ignore it)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string; files: string[]}
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {version: string}
    expect(manifest.version).to.equal(pkg.version)
    expect(pkg.files).to.include('oclif.manifest.json')
  })
})
