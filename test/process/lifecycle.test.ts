// The process lifecycle (issue 41): one 'exit' listener for all of jp, the
// clean-up stages run in their documented order, every owner's undo done.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {CLEANUP_STAGES} from '../../src/lib/process/lifecycle.js'
import {SLOT_KEYS, SLOT_NAMES} from '../../src/lib/process/slots.js'
import {assertBuilt, ROOT} from '../helpers/cli.js'

const FIXTURE = join(ROOT, 'test', 'fixtures', 'process', 'lifecycle-child.ts')
const SECOND_COPY = join(ROOT, 'test', 'fixtures', 'process', 'second-copy.ts')

/** Whether the process runs (a killed one its new parent has not reaped yet is a zombie: state Z in /proc). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (!existsSync('/proc')) return true
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z'
  } catch {
    return false
  }
}

describe('process lifecycle', function () {
  this.timeout(60_000)
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-lifecycle-test-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('with every module loaded and every owner holding something: one exit listener, the stages in order, each undone at exit', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, dir], {cwd: ROOT, encoding: 'utf8', timeout: 50_000})
    expect(run.status, run.stderr).to.equal(0)
    const lines = run.stdout.trim().split('\n')
    const report = JSON.parse(lines[0]) as {
      loadedAdded: {exit: number; crash: number; signals: number[]}
      added: {exit: number; crash: number; signals: number[]}
      pending: string[]
      pgid: number
      temp: string
      lock: string
    }
    // Loading listens to nothing; holding things adds exactly one 'exit' and one crash listener.
    expect(report.loadedAdded).to.deep.equal({exit: 0, crash: 0, signals: [0, 0, 0, 0, 0]})
    expect(report.added.exit, "jp's 'exit' listeners").to.equal(1)
    expect(report.added.crash, "jp's uncaughtExceptionMonitor listeners").to.equal(1)
    // With no router, the restore registry's stand-in listens for SIGINT, SIGTERM, SIGHUP, SIGQUIT (not SIGWINCH: no prompt reads).
    expect(report.added.signals).to.deep.equal([1, 1, 1, 1, 0])
    expect(report.pending).to.deep.equal([
      'prompt picture: open prompts leave their last picture',
      'prompt picture: marker prompt picture',
      'terminal modes: restore registry',
      'terminal modes: marker terminal modes',
      'children: childGroups',
      'children: marker children',
      'temporary files: tempDirs',
      'temporary files: marker temporary files',
      'locks: conversation locks',
      'locks: marker locks',
      'workers: marker workers',
      'stdio: stdio detached from a dead terminal',
      'stdio: marker stdio',
    ])
    // Registered in reverse, run in stage order; the owners' undos in their stages.
    expect(lines.slice(1)).to.deep.equal(['prompt left', 'stage prompt picture', 'terminal restored', ...CLEANUP_STAGES.slice(1).map((s) => `stage ${s}`)])
    expect(alive(report.pgid), 'the tool group was killed').to.equal(false)
    expect(existsSync(report.temp), 'the temp dir was removed').to.equal(false)
    expect(existsSync(report.lock), 'the lock was released').to.equal(false)
  })
})

describe('process-wide slots', function () {
  this.timeout(60_000)
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-slots-test-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('lists every slot, each under its own key', () => {
    expect(SLOT_NAMES).to.deep.equal([
      'lifecycle',
      'sigintGuard',
      'exitRegistries',
      'conversationLocks',
      'terminalRestore',
      'terminalGone',
      'stdioShield',
      'terminalTypeahead',
      'terminalOwner',
      'terminalBorrow',
      'signalRouter',
      'buildEditorBackend',
      'injectedBuildEditorBackend',
      'pluginHooksRan',
      'mentionIndexes',
      'bundleImport',
      'earlyPrompt',
      'resumePicked',
    ])
    const keys = SLOT_NAMES.map((n) => Symbol.keyFor(SLOT_KEYS[n]))
    expect(new Set(keys).size).to.equal(keys.length)
    for (const key of keys) expect(key).to.match(/^jp\./)
  })

  it('a second copy of the library (as a plugin bundles it) shares them: one restore registry, router, set of locks and exit listener', () => {
    assertBuilt()
    // Two copies of dist/lib in directories of their own: no module of one is a module of the other.
    for (const copy of ['a', 'b']) cpSync(join(ROOT, 'dist', 'lib'), join(dir, copy, 'lib'), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n')
    const workspace = join(dir, 'ws')
    const run = spawnSync(process.execPath, ['--import', 'tsx', SECOND_COPY, join(dir, 'a', 'lib', 'index.js'), join(dir, 'b', 'lib', 'index.js'), workspace], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 50_000,
    })
    expect(run.status, run.stderr).to.equal(0)
    const [json, ...atExit] = run.stdout.trim().split('\n')
    const report = JSON.parse(json) as {
      distinct: boolean
      restoresSeen: Record<string, string[]>
      routerSeen: Record<string, boolean>
      termWhileRouted: number
      routerAfter: Record<string, boolean>
      added: {exit: number; crash: number}
      unknownSymbols: string[]
      locks: string[]
    }
    expect(report.distinct, 'the copies are separate modules').to.equal(true)
    const both = ['from a', 'from b']
    expect(report.restoresSeen).to.deep.equal({a: both, b: both, src: both})
    expect(report.routerSeen).to.deep.equal({b: true, src: true})
    expect(report.termWhileRouted, "the router's SIGTERM listener, the stand-in's gone").to.equal(1)
    expect(report.routerAfter).to.deep.equal({b: true})
    expect(report.added).to.deep.equal({exit: 1, crash: 1})
    expect(report.unknownSymbols, 'a jp.* key on globalThis that process/slots.ts does not list').to.deep.equal([])
    // Restored once each, newest first; both copies' locks released by the one listener.
    expect(atExit).to.deep.equal(['restored from b', 'restored from a'])
    for (const lockDir of report.locks) expect(existsSync(join(lockDir, '.lock')), lockDir).to.equal(false)
  })
})
