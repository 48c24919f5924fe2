// `jp plugins install ./dir` and `/abs/dir` install the plugin in that
// directory (issue 26 finding 7; before, a path became a GitHub URL).
import {expect} from 'chai'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {localPluginArg} from '../../src/hooks/prerun-local-plugin.js'

describe('jp plugins install with a local directory', function () {
  this.timeout(120_000)
  let sb: Sandbox
  beforeEach(() => {
    sb = makeSandbox()
    const dir = join(sb.cwd, 'my-plugin')
    mkdirSync(dir)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'jp-plugin-hello', version: '1.2.3', type: 'module', oclif: {hooks: {init: './hook.js'}}}))
    writeFileSync(join(dir, 'hook.js'), "export default async function () { process.stderr.write('hello from my-plugin\\n') }\n")
  })
  afterEach(() => sb.cleanup())

  for (const form of ['./my-plugin', 'ABS']) {
    it(`jp plugins install ${form === 'ABS' ? '/abs/path/my-plugin' : form} installs it, and it runs`, async () => {
      const arg = form === 'ABS' ? join(sb.cwd, 'my-plugin') : form
      const r = await runJp(['plugins', 'install', arg], {sandbox: sb, timeoutMs: 100_000})
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stderr).to.not.match(/github/i)
      const list = await runJp(['plugins'], {sandbox: sb})
      expect(list.stdout).to.include('jp-plugin-hello 1.2.3')
      expect(list.stderr).to.include('hello from my-plugin')
    })
  }

  it('only path-like arguments become file: specs', () => {
    expect(localPluginArg('./p', '/w')).to.equal('file:/w/p')
    expect(localPluginArg('../p', '/w/x')).to.equal('file:/w/p')
    expect(localPluginArg('.', '/w')).to.equal('file:/w')
    expect(localPluginArg('/abs/p', '/w')).to.equal('file:/abs/p')
    expect(localPluginArg('~/p', '/w', '/home/u')).to.equal('file:/home/u/p')
    for (const kept of ['jp-plugin-x', '@scope/jp-plugin-x', 'user/repo', 'file:./p', 'https://example.com/p.git', '--force']) expect(localPluginArg(kept, '/w')).to.equal(kept)
  })
})
