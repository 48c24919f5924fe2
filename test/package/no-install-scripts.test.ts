// The packed package has no install-time script (issue 33: npm 11 warned on
// `npm install -g ./jp-llm-cli-*.tgz`: "install scripts not yet covered by
// allowScripts: jp-llm-cli (prepare)"). The clone keeps `prepare` (its
// `npm install` builds dist/, the README's quick start); `prepack` builds and
// strips the install scripts from package.json, `postpack` puts it back.
// Checked on a copy of package.json: a test never packs (that builds).
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {copyFileSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'

import {ROOT} from '../helpers/cli.js'

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare']
type Manifest = {scripts: Record<string, string>; bin: unknown; exports: unknown; files: string[]}

describe('the packed package.json', function () {
  this.timeout(60_000)
  let dir: string
  const original = readFileSync(join(ROOT, 'package.json'), 'utf8')
  const script = join(ROOT, 'scripts', 'pack-manifest.js')

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-pack-manifest-'))
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'))
  })
  after(() => rmSync(dir, {recursive: true, force: true}))

  it('the clone builds on npm install (prepare); packing builds, strips and restores (prepack, postpack)', () => {
    const {scripts} = JSON.parse(original) as Manifest
    expect(scripts.prepare).to.equal('npm run build')
    expect(scripts.prepack).to.equal('npm run build && node scripts/pack-manifest.js strip')
    expect(scripts.postpack).to.equal('node scripts/pack-manifest.js restore')
  })

  it('has no install-time script once stripped, and is otherwise the same', () => {
    execFileSync(process.execPath, [script, 'strip', dir])
    const packed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
    const source = JSON.parse(original) as Manifest
    expect(Object.keys(packed.scripts).filter((s) => INSTALL_SCRIPTS.includes(s))).to.deep.equal([])
    expect({...packed, scripts: undefined}).to.deep.equal({...source, scripts: undefined})
    execFileSync(process.execPath, [script, 'restore', dir])
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).to.equal(original)
  })

  it('ships neither the saved original nor the script', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})
    const files = (JSON.parse(out) as Array<{files: Array<{path: string}>}>)[0].files.map((f) => f.path)
    expect(files).to.include('package.json')
    expect(files.filter((f) => f.includes('.package.json.orig') || f.startsWith('scripts/'))).to.deep.equal([])
  })
})
