// jp's oclif init hook (SPEC §18 "The card, to the letter"): declared in
// package.json, it injects the editor helper through which `jp query` and
// `jp conversation edit` obtain every editor, by one route with one
// EditorConfig per command; it runs no plugin code and loads nothing on
// start-up. The plugins' `jp:editor-backends` event (fired only for a backend
// that is not built in) is covered in registry.test.ts and
// example-plugin.test.ts.
import {expect} from 'chai'
import {chmodSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {pathToFileURL} from 'node:url'
import type {EditorConfig} from '../../src/lib/config/editor.js'
import {INJECTED_BUILDER_SLOT, type InjectedBuildEditorBackend} from '../../src/lib/editor/inject.js'
import {BUNDLE, coverageOf, wrappedModules} from '../helpers/coverage.js'
import {makeSandbox, OCLIF_ANSWERS, ROOT, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {runInProcess} from '../helpers/in-process.js'
import {filesUnder} from '../helpers/source-files.js'

const slot = globalThis as unknown as Record<symbol, InjectedBuildEditorBackend | undefined>

/** Records every call of the helper the hook injects (the hook assigns the slot on every run). */
function spyOnInjectedHelper(): {calls: EditorConfig[]; restore(): void} {
  const calls: EditorConfig[] = []
  let current: InjectedBuildEditorBackend | undefined
  Object.defineProperty(globalThis, INJECTED_BUILDER_SLOT, {
    configurable: true,
    get: () => current,
    set: (helper: InjectedBuildEditorBackend) => {
      current = async (config) => {
        calls.push(config)
        return helper(config)
      }
    },
  })
  return {
    calls,
    restore: () => {
      delete (globalThis as Record<symbol, unknown>)[INJECTED_BUILDER_SLOT]
    },
  }
}

describe('init hook: the editor helper the commands obtain every editor through', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  it('is declared in package.json (oclif.hooks.init: the bundle, identifier initHook) and exported by src/hooks/init.ts and the bundle', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {oclif: {hooks?: Record<string, unknown>}}
    expect(pkg.oclif.hooks?.init).to.deep.equal({target: './dist/jp', identifier: 'initHook'})
    const src = (await import(pathToFileURL(join(ROOT, 'src/hooks/init.ts')).href)) as {initHook: unknown}
    expect(src.initHook).to.be.a('function')
    expect(readFileSync(BUNDLE, 'utf8')).to.match(/\binitHook: \(\) => initHook\b/)
  })

  it('oclif runs it before a command: the helper is in its slot afterwards', async () => {
    delete slot[INJECTED_BUILDER_SLOT]
    const r = await runInProcess(['conversation', 'ls'], {sandbox: sb})
    expect(r.exitCode, r.stderr).to.equal(0)
    expect(slot[INJECTED_BUILDER_SLOT]).to.be.a('function')
  })

  it('jp conversation edit gets its editor from the injected helper: one call, one EditorConfig, the configured editor runs', async () => {
    const spy = spyOnInjectedHelper()
    try {
      const dir = writeConversation(sb.cwd, 'jp-c1', {title: 'before'})
      const editor = join(sb.dir, 'retitle.sh')
      writeFileSync(editor, `#!/bin/sh\nfor f; do printf '{"title":"after"}' > "$f"; done\n`)
      chmodSync(editor, 0o755)
      const r = await runInProcess(['conversation', 'edit', 'jp-c1', '--metadata', '-c', `editor.cmd=${editor}`], {sandbox: sb})
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8'))).to.deep.equal({title: 'after'})
      expect(spy.calls).to.have.length(1)
      expect(spy.calls[0].cmd).to.equal(editor)
      expect(spy.calls[0].command()?.program).to.equal(editor)
    } finally {
      spy.restore()
    }
  })

  it('an unknown editor.backend is a one-line error from that route, before any lock or write', async () => {
    const spy = spyOnInjectedHelper()
    try {
      const dir = writeConversation(sb.cwd, 'jp-c1', {title: 'kept'})
      const r = await runInProcess(['conversation', 'edit', 'jp-c1', '-c', 'editor.backend=nope'], {sandbox: sb})
      expect(r.exitCode).to.equal(1)
      expect(r.stderr).to.equal('Error: config: editor.backend: unknown editor backend "nope"; registered: terminal\n')
      expect(spy.calls.map((c) => c.backend)).to.deep.equal(['nope'])
      expect(readdirSync(dir).sort()).to.deep.equal(['base_config.json', 'events.json', 'metadata.json'])
    } finally {
      spy.restore()
    }
  })

  it('no editor configured: the error names editor.cmd and the variables of the one EditorConfig', async () => {
    writeConversation(sb.cwd, 'jp-c1', {title: 'kept'})
    const r = await runInProcess(['conversation', 'edit', 'jp-c1', '-c', 'editor.envs=["NO_SUCH_EDITOR_VAR"]'], {sandbox: sb, env: {PATH: '/nonexistent'}})
    expect(r.exitCode).to.equal(1)
    expect(r.stderr).to.equal('Error: no editor configured: set editor.cmd in your config or one of the environment variables NO_SUCH_EDITOR_VAR\n')
  })

  for (const args of [['--version'], ['--help']]) {
    // When oclif answers (bin/run.js answers these itself when nothing installed could change them: test/startup/first.test.ts).
    it(`jp ${args.join(' ')} answered by oclif: the hook ran and loaded no editor module but its own slot (no registry, no plugin code)`, () => {
      const {ran} = coverageOf(args, {env: OCLIF_ANSWERS})
      expect(ran.has('initHook'), 'the init hook ran').to.equal(true)
      const editorModules = wrappedModules().filter((m) => ran.has(m) && (m.startsWith('src/lib/editor/') || m === 'src/lib/config/editor.ts'))
      expect(editorModules).to.deep.equal(['src/lib/editor/inject.ts'])
    })
  }

  it('one route: only editor/open.ts builds a command’s EditorConfig and calls the injected helper', () => {
    // The text without its comments (which may name the functions they explain).
    const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
    const uses = (pattern: RegExp) =>
      filesUnder(join(ROOT, 'src'))
        .filter((f) => pattern.test(code(readFileSync(f, 'utf8'))))
        .map((f) => relative(join(ROOT, 'src'), f).split(sep).join('/'))
        .sort()
    // build.ts keeps the library's convenience (a plain `editor` section); jp passes the command's EditorConfig.
    expect(uses(/new EditorConfig\(/)).to.deep.equal(['lib/editor/build.ts', 'lib/editor/open.ts'])
    expect(uses(/(?<!function )injectedBuildEditorBackend\(\)/)).to.deep.equal(['lib/editor/open.ts'])
    expect(uses(/\bopenEditor\(/)).to.deep.equal(['lib/conversation-edit/run-edit.ts', 'lib/editor/open.ts', 'lib/query/pipeline.ts'])
    expect(uses(/buildEditorBackendFor\(|loadPluginEditorBackends\(/)).to.deep.equal(['lib/editor/build.ts', 'lib/editor/inject.ts', 'lib/editor/plugins.ts'])
  })
})
