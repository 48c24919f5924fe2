// The example plugin as a user gets it: packed (`npm pack`), installed from
// the tarball into a fresh data dir with `jp plugins install`, offline, and
// used. Nothing but the plugin is installed, so it must take jp's run-time
// API from its hook's options, never from an import of jp's package
// (issue 33: `Cannot find package 'jp-llm-cli'`). Uses the dist/ that
// `npm test` built.
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'

import {pluginApi} from '../../src/lib/editor/plugin-api.js'
import {createEditorBackendRegistry} from '../../src/lib/editor/registry.js'
import {isEditorError} from '../../src/lib/editor/types.js'
import {pathToFileURL} from 'node:url'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'

const EXAMPLE = join(ROOT, 'examples', 'editor-backend-plugin')

describe('the example plugin installed from its packed tarball', function () {
  this.timeout(120_000)
  let packs: string
  let tarball: string
  let sandbox: Sandbox
  let log: string

  before(async function () {
    packs = mkdtempSync(join(tmpdir(), 'jp-plugin-pack-'))
    execFileSync('npm', ['pack', '--pack-destination', packs, '--silent'], {cwd: EXAMPLE, stdio: 'ignore', env: {...process.env, npm_config_offline: 'true'}})
    tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!)
    log = join(packs, 'record.log')
    // Offline: the install may not reach a registry, so the plugin can have no dependencies.
    sandbox = makeSandbox({JP_ECHO_DELAY_MS: '0', JP_RECORD_EDITOR_LOG: log, npm_config_offline: 'true'})
    const r = await runJp(['plugins', 'install', tarball], {sandbox})
    expect(r.code, r.stderr).to.equal(0)
  })
  after(() => {
    sandbox?.cleanup()
    if (packs) rmSync(packs, {recursive: true, force: true})
  })

  it('has no dependencies (it is installed with nothing else)', () => {
    const manifest = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest.dependencies ?? {}).to.deep.equal({})
    expect(readFileSync(join(EXAMPLE, 'hooks', 'backends.js'), 'utf8')).to.not.match(/from ['"]jp-llm-cli['"]|import\(['"]jp-llm-cli/)
  })

  it('is listed, and its backend edits the query file', async () => {
    const listed = await runJp(['plugins'], {sandbox})
    expect(listed.stdout).to.include('jp-plugin-record-editor')

    const r = await runJp(['query', '-e', '-c', 'editor.backend=record', 'hello'], {sandbox})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.include('You said: hello')
    expect(r.stderr).to.not.match(/Cannot find package|warning/i)
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as {method: string; paths: string[]})
    expect(entries.map((e) => e.method)).to.deep.equal(['editFile'])
    expect(entries[0].paths[0]).to.match(/QUERY_MESSAGE\.md$/)
  })

  it("rejects with the EditorError of the jp that runs it (options.jp), not an imported one", async () => {
    const installed = join(sandbox.env.JP_DATA_DIR!, 'node_modules', 'jp-plugin-record-editor', 'hooks', 'backends.js')
    const hook = ((await import(pathToFileURL(installed).href)) as {default: (o: object) => Promise<void>}).default
    const registry = createEditorBackendRegistry()
    const jp = pluginApi('0.0.0-test')
    await hook({registry, jp})
    const backend = registry.get('record')!({env: {JP_RECORD_EDITOR_LOG: log}} as never)!
    const error: unknown = await backend.editFile({paths: ['/nonexistent-jp-dir/x/y']}).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(jp.EditorError)
    expect(isEditorError(error) && error.kind).to.equal('io')
  })
})
