import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'

describe('build', () => {
  it('emits the library entry with types and a manifest', () => {
    expect(existsSync(join(ROOT, 'dist/lib/index.js'))).to.equal(true)
    expect(existsSync(join(ROOT, 'dist/lib/index.d.ts'))).to.equal(true)
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
    expect(manifest.version).to.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version)
  })
})
