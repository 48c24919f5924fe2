// Issue 26 finding 8: when the selected editor backend is a plugin's, a
// failing hook is named in the error (not only "unknown editor backend"), and
// a factory with no editor to offer is named as the backend, not as
// editor.cmd / JP_EDITOR / VISUAL / EDITOR.
import {expect} from 'chai'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, before, beforeEach, describe, it} from 'mocha'
import {makeSandbox, runJp, snapshotSandbox, type Sandbox} from '../helpers/cli.js'

describe('plugin editor backends: errors that say why (finding 8)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  const plugin = async (name: string, hook: string) => {
    const dir = join(sb.dir, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({name, version: '1.0.0', type: 'module', oclif: {hooks: {'jp:editor-backends': './hook.js'}}}))
    writeFileSync(join(dir, 'hook.js'), hook)
    const r = await runJp(['plugins', 'link', dir, '--no-install'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
  }
  // The plugins linked and a conversation made once per file; put back before each case.
  let kept: ReturnType<typeof snapshotSandbox>
  before(async () => {
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0', OCLIF_DISABLE_LINKED_ESM_WARNING: '1'})
    await plugin('jp-plugin-broken', "export default async function () { throw new Error('boom: cannot reach the IDE') }\n")
    await plugin('jp-plugin-none', "export default async function ({registry}) { registry.register('nothing', () => undefined) }\n")
    expect((await runJp(['query', '-n', 'hi'], {sandbox: sb})).code).to.equal(0)
    kept = snapshotSandbox(sb)
  })
  after(() => kept.cleanup())
  beforeEach(() => kept.reset())

  for (const args of [['query', '-e', 'x'], ['conversation', 'edit']]) {
    it(`jp ${args.join(' ')} with the broken plugin's backend names the plugin and why it failed`, async () => {
      const r = await runJp([...args, '-c', 'editor.backend=typed'], {sandbox: sb})
      expect(r.code).to.equal(1)
      expect(r.stderr).to.include(
        'Error: config: editor.backend: unknown editor backend "typed"; registered: terminal, nothing; plugin jp-plugin-broken: jp:editor-backends hook failed: boom: cannot reach the IDE\n',
      )
    })

    it(`jp ${args.join(' ')} with a backend that has no editor names that backend, not editor.cmd`, async () => {
      const r = await runJp([...args, '-c', 'editor.backend=nothing'], {sandbox: sb})
      expect(r.code).to.equal(1)
      expect(r.stderr).to.match(/^Error: the editor backend "nothing" \(editor\.backend\) has no editor to offer/m)
      expect(r.stderr).to.not.match(/JP_EDITOR|VISUAL|editor\.cmd/)
    })
  }
})
