// The backend registry, buildEditorBackend and the plugins' hooks (SPEC §5, §13).
// Plugins are real oclif plugins linked with `jp plugins link` into a
// temporary data dir; their hooks run through a real `Config.load`, or in a
// real jp process.
import {Config} from '@oclif/core'
import {createHash} from 'node:crypto'
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, afterEach, before, beforeEach, describe, it} from 'mocha'

import {EditorConfig} from '../../src/lib/config/editor.js'
import {isConfigError} from '../../src/lib/config/errors.js'
import {buildEditorBackend, installEditorBackendBuilder, uninstallEditorBackendBuilder} from '../../src/lib/editor/build.js'
import {loadPluginEditorBackends} from '../../src/lib/editor/plugins.js'
import {MockEditorBackend} from '../../src/lib/editor/mock.js'
import {createEditorBackendRegistry, EditorBackendRegistry} from '../../src/lib/editor/registry.js'
import {TerminalEditorBackend} from '../../src/lib/editor/terminal.js'
import {assertBuilt, BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {copyExamplePlugin} from '../helpers/example-plugin.js'
import {cleanEnv, editorPath, ROOT, tempDir, type TempDir} from './helpers.js'


describe('EditorBackendRegistry and buildEditorBackend', () => {
  afterEach(() => uninstallEditorBackendBuilder())

  it('registers names in order and refuses duplicates and bad input', () => {
    const r = createEditorBackendRegistry()
    r.register('web', () => undefined)
    expect(r.names()).to.deep.equal(['terminal', 'web'])
    expect(() => r.register('web', () => undefined)).to.throw("editor backend 'web' is already registered")
    expect(() => r.register('', () => undefined)).to.throw(/non-empty/)
    expect(() => r.register('x', 'nope' as never)).to.throw(/factory must be a function/)
  })

  it('builds the terminal backend by default, without any hook (library use)', () => {
    const backend = buildEditorBackend({env: cleanEnv({EDITOR: editorPath('append.sh')})})
    expect(backend).to.be.instanceOf(TerminalEditorBackend)
    expect((backend as TerminalEditorBackend).command.source).to.equal('EDITOR')
  })

  it('returns undefined when no editor is configured', () => {
    expect(buildEditorBackend({env: cleanEnv()})).to.equal(undefined)
    expect(buildEditorBackend(new EditorConfig({}, {env: cleanEnv()}))).to.equal(undefined)
  })

  it('edits through the built backend', async () => {
    const backend = buildEditorBackend({cmd: editorPath('append.sh'), env: cleanEnv()})!
    expect(await backend.editText('a\n')).to.deep.equal({outcome: 'saved', text: 'a\nappended\n'})
  })

  it('uses the installed builder: editor.backend picks a registered backend', async () => {
    const mock = new MockEditorBackend([{outcome: 'saved', text: 'from mock'}])
    const registry = createEditorBackendRegistry()
    let seen: EditorConfig | undefined
    registry.register('mock', (config) => {
      seen = config
      return mock
    })
    installEditorBackendBuilder(registry)
    const backend = buildEditorBackend({backend: 'mock', env: cleanEnv({X: '1'})})
    expect(backend).to.equal(mock)
    expect(seen?.env.X).to.equal('1')
    expect(await backend!.editText('in')).to.deep.equal({outcome: 'saved', text: 'from mock'})
    // The default still resolves to the terminal backend.
    expect(buildEditorBackend({backend: 'terminal', env: cleanEnv({EDITOR: editorPath('append.sh')})})).to.be.instanceOf(
      TerminalEditorBackend,
    )
  })

  it('rejects an unknown editor.backend with a config error listing the registered ones', () => {
    const registry = createEditorBackendRegistry()
    registry.register('web', () => undefined)
    installEditorBackendBuilder(registry)
    let error: unknown
    try {
      buildEditorBackend({backend: 'nope', env: cleanEnv()})
    } catch (e) {
      error = e
    }
    expect(isConfigError(error)).to.equal(true)
    expect((error as Error).message).to.include('editor.backend').and.include('"nope"').and.include('terminal, web')
  })

  it('lets a factory decline (undefined = no editor)', () => {
    const registry = new EditorBackendRegistry()
    registry.register('terminal', () => undefined)
    installEditorBackendBuilder(registry)
    expect(buildEditorBackend({env: cleanEnv({EDITOR: editorPath('append.sh')})})).to.equal(undefined)
  })
})

describe('jp:editor-backends hook with linked plugins', function () {
  this.timeout(180_000)
  let sandbox: Sandbox
  let t: TempDir
  /** The example plugin, copied (examples/ is another test file's to install into), and the plugins the cases write: one per file. */
  let example: TempDir
  let EXAMPLE: string
  /**
   * What `jp plugins link DIR` recorded in a data dir's package.json for each
   * plugin directory (oclif's entry): each plugin is linked by a real `jp
   * plugins link` once per file, and a case links it into its own data dir
   * by appending that entry, as a further `jp plugins link` would.
   */
  const linked = new Map<string, {entry: unknown; packageJson: {oclif: {plugins: unknown[]}}}>()

  before(() => {
    // bin/run.js runs dist/, which `npm test` built (a test never rebuilds it).
    assertBuilt()
    example = tempDir()
    EXAMPLE = copyExamplePlugin(example.path('editor-backend-plugin'))
  })

  beforeEach(() => {
    // No OCLIF_DISABLE_LINKED_ESM_WARNING: jp must not cause that warning.
    sandbox = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    t = tempDir()
  })
  afterEach(() => {
    uninstallEditorBackendBuilder()
    sandbox.cleanup()
    t.cleanup()
  })
  after(() => {
    uninstallEditorBackendBuilder()
    example?.cleanup()
  })

  async function link(dir: string) {
    let done = linked.get(dir)
    if (done === undefined) {
      const scratch = makeSandbox()
      try {
        const r = await runJp(['plugins', 'link', dir, '--no-install'], {sandbox: scratch})
        expect(r.code, r.stderr).to.equal(0)
        const packageJson = JSON.parse(readFileSync(join(scratch.env.JP_DATA_DIR!, 'package.json'), 'utf8'))
        expect(packageJson.oclif.plugins, 'one linked plugin').to.have.length(1)
        done = {entry: packageJson.oclif.plugins[0], packageJson}
        linked.set(dir, done)
      } finally {
        scratch.cleanup()
      }
    }
    const file = join(sandbox.env.JP_DATA_DIR!, 'package.json')
    const data = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {...done.packageJson, oclif: {...done.packageJson.oclif, plugins: []}}
    data.oclif.plugins.push(done.entry)
    mkdirSync(sandbox.env.JP_DATA_DIR!, {recursive: true})
    writeFileSync(file, JSON.stringify(data, null, 2) + '\n')
  }

  /** Loads jp's oclif Config against the sandbox's data dir and runs the plugins' hooks, as a command building a plugin backend does. */
  async function runPluginHooks(): Promise<string> {
    const saved = process.env.JP_DATA_DIR
    const warnings: string[] = []
    process.env.JP_DATA_DIR = sandbox.env.JP_DATA_DIR
    try {
      const config = await Config.load({root: ROOT})
      installEditorBackendBuilder(await loadPluginEditorBackends(config, {warn: (line) => warnings.push(line)}))
    } finally {
      if (saved === undefined) delete process.env.JP_DATA_DIR
      else process.env.JP_DATA_DIR = saved
    }
    return warnings.join('\n')
  }

  /** A plugin named `name` whose jp:editor-backends hook is `hookSource`, written once per file (one directory per name and source). */
  function writePlugin(name: string, hookSource: string): string {
    const dir = example.path(`${name}-${createHash('sha256').update(hookSource).digest('hex').slice(0, 12)}`)
    if (existsSync(dir)) return dir
    mkdirSync(join(dir, 'hooks'), {recursive: true})
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({name, version: '1.0.0', type: 'module', oclif: {hooks: {'jp:editor-backends': './hooks/backends.js'}}}),
    )
    writeFileSync(join(dir, 'hooks', 'backends.js'), hookSource)
    return dir
  }

  it('discovers the example plugin linked with `jp plugins link` and edits through its backend', async () => {
    await link(EXAMPLE)
    const list = await runJp(['plugins'], {sandbox})
    expect(list.stdout).to.include('jp-plugin-record-editor')

    const warnings = await runPluginHooks()
    expect(warnings).to.not.match(/hook failed/)

    const log = t.path('record.log')
    const backend = buildEditorBackend({backend: 'record', env: {JP_RECORD_EDITOR_LOG: log}})
    expect(backend, 'the record backend should be built').to.not.equal(undefined)
    const file = t.write('note.md', 'hello\n')
    expect(await backend!.editFile({paths: ['note.md'], cwd: t.dir})).to.equal('saved')
    expect(readFileSync(file, 'utf8')).to.equal('hello\nedited by record\n')
    expect(await backend!.editText('draft')).to.deep.equal({outcome: 'saved', text: 'draft\nedited by record\n'})
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(entries).to.deep.equal([
      {method: 'editFile', paths: ['note.md'], cwd: t.dir},
      {method: 'editText', content: 'draft'},
    ])
    // Without its variable the plugin's factory declines: no editor.
    expect(buildEditorBackend({backend: 'record', env: {}})).to.equal(undefined)
  })

  it('without the plugin linked, editor.backend = "record" is an unknown backend', async () => {
    await runPluginHooks()
    expect(() => buildEditorBackend({backend: 'record', env: {}})).to.throw(/unknown editor backend "record"; registered: terminal$/)
  })

  it('warns naming a plugin whose hook throws, and keeps the other backends', async () => {
    await link(writePlugin('jp-plugin-broken', `export default async function () { throw new Error('kaboom') }\n`))
    await link(EXAMPLE)
    const warnings = await runPluginHooks()
    expect(warnings).to.include('jp-plugin-broken').and.include('kaboom')
    expect(warnings).to.not.include('jp-plugin-record-editor')
    expect(buildEditorBackend({backend: 'record', env: {JP_RECORD_EDITOR_LOG: t.path('l')}})).to.not.equal(undefined)
  })

  it('warns for a plugin using this.error() instead of letting it end jp', async () => {
    await link(writePlugin('jp-plugin-errors', `export default async function () { this.error('refused to register') }\n`))
    const warnings = await runPluginHooks()
    expect(warnings).to.include('jp-plugin-errors').and.include('refused to register')
    // The registry may come from dist/: compare by shape, not instanceof (two module copies).
    const backend = buildEditorBackend({env: cleanEnv({EDITOR: editorPath('append.sh')})}) as TerminalEditorBackend
    expect(backend.command.source).to.equal('EDITOR')
  })

  /** The lines of `stderr` that are warnings. */
  function warningLines(stderr: string): string[] {
    return stderr.split('\n').filter((l) => /warning/i.test(l))
  }

  /** `jp query -e` with the example plugin's record backend; the record log shows the backend was used. */
  async function queryThroughRecord(timeoutMs = 20_000) {
    const log = t.path('record.log')
    const r = await runJp(['query', '-e', '-c', 'editor.backend=record', 'hello'], {sandbox, env: {JP_RECORD_EDITOR_LOG: log}, timeoutMs})
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    return {...r, entries}
  }

  it('a real jp run with a throwing plugin: one warning naming it, and the selected plugin backend works', async () => {
    await link(writePlugin('jp-plugin-broken', `export default async function () { throw new Error('kaboom') }\n`))
    await link(EXAMPLE)
    const r = await queryThroughRecord()
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.include('You said: hello')
    expect(warningLines(r.stderr)).to.deep.equal(['Warning: plugin jp-plugin-broken: jp:editor-backends hook failed: kaboom'])
    expect(r.entries.map((e) => e.method)).to.deep.equal(['editFile'])
  })

  it("a plugin's log, warn and error text reach stderr without its escape sequences (a title, a clipboard write, a clear screen)", async () => {
    const hostile = (word: string) => `${word}\\x1b]0;owned\\x07\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x9b31m\\rover`
    await link(
      writePlugin(
        'jp-plugin-loud',
        `export default async function () {\n  this.log("${hostile('logged')}")\n  this.warn("${hostile('warned')}")\n  throw new Error("${hostile('thrown')}")\n}\n`,
      ),
    )
    await link(EXAMPLE)
    const r = await queryThroughRecord()
    expect(r.code, r.stderr).to.equal(0)
    for (const word of ['logged', 'warned', 'thrown']) expect(r.stderr).to.include(word)
    expect(r.stderr, 'no ESC, BEL, C1 or carriage return from the plugin').to.not.match(/[\x1b\x07\x9b\r]/)
    expect(r.stderr).to.not.include('owned\x07')
  })

  it("a plugin's log and warn lines go to the caller's sink (the printer), one sanitized line each, never straight to stderr", async () => {
    await link(writePlugin('jp-plugin-chatty', `export default async function () {\n  this.log("two\\nlines \\x1b]0;t\\x07")\n  this.warn("careful \\x1b[2J")\n}\n`))
    const written: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write
    let lines: string
    try {
      lines = await runPluginHooks()
    } finally {
      process.stderr.write = write
    }
    expect(lines.split('\n')).to.deep.equal(['two\\u000alines \\u001b]0;t\\u0007', 'Warning: careful \\u001b[2J'])
    expect(written).to.deep.equal([])
  })

  it('commands that build no plugin backend never run plugin hooks: no warning, no delay', async () => {
    await link(writePlugin('jp-plugin-broken', `export default async function () { throw new Error('kaboom') }\n`))
    for (const args of [['plugins'], ['--version'], ['query', 'hello'], ['query', '-e', '-c', 'editor.cmd=true', 'hi']]) {
      const r = await runJp(args, {sandbox})
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0)
      expect(r.stderr, args.join(' ')).to.not.include('kaboom')
    }
  })

  it('a hook that never settles cannot stop jp: --version, query and plugins uninstall all work', async () => {
    // Nothing else pending: with oclif's unref'd hook timer the process used to end with exit 13 and no message.
    await link(writePlugin('jp-plugin-hang', `export default () => new Promise(() => {})\n`))
    const version = await runJp(['--version'], {sandbox})
    expect(version.code, version.stderr).to.equal(0)
    expect(version.stdout).to.match(/^jp \d+\.\d+\.\d+ \(node /)
    const query = await runJp(['query', 'hello'], {sandbox})
    expect(query.code, query.stderr).to.equal(0)
    expect(query.stdout).to.include('You said: hello')
    const uninstall = await runJp(['plugins', 'uninstall', 'jp-plugin-hang'], {sandbox})
    expect(uninstall.code, uninstall.stderr).to.equal(0)
    expect((await runJp(['plugins'], {sandbox})).stdout).to.not.include('jp-plugin-hang')
  })

  it('a never-settling hook holding a live timer is abandoned after 10 s with one warning; the plugin backend still works', async () => {
    await link(writePlugin('jp-plugin-hang', `export default () => new Promise(() => { setInterval(() => {}, 1000) })\n`))
    await link(EXAMPLE)
    const r = await queryThroughRecord(40_000)
    expect(r.signal, 'jp must exit on its own').to.equal(null)
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.include('You said: hello')
    expect(warningLines(r.stderr)).to.deep.equal(['Warning: plugin jp-plugin-hang: jp:editor-backends hook did not finish within 10 s; ignored'])
    expect(r.entries.map((e) => e.method)).to.deep.equal(['editFile'])
  })

  it('a hook that registers but leaves a live timer does not keep jp running after the command', async () => {
    const source = `export default async function ({registry}) {
  setInterval(() => {}, 1000)
  registry.register('ticking', () => ({
    async editText(content) { return {outcome: 'saved', text: content} },
    async editFile() { return 'saved' },
  }))
}
`
    await link(writePlugin('jp-plugin-ticking', source))
    const r = await runJp(['query', '-e', '-c', 'editor.backend=ticking', 'hello'], {sandbox, timeoutMs: 20_000})
    expect(r.signal, 'jp must exit on its own').to.equal(null)
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.include('You said: hello')
    expect(warningLines(r.stderr)).to.deep.equal([])
  })

  it('a linked plain-JavaScript plugin causes no "cannot be auto-transpiled" warning', async () => {
    await link(EXAMPLE)
    const r = await queryThroughRecord()
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).to.not.include('auto-transpiled')
    expect(BIN).to.match(/run\.js$/)
  })
})
