// jp's start-up is CommonJS from bin/run.js on (issue 40): on the common
// paths Node never sets up its ES-module loader (15-25 ms of CPU at every
// start on this machine). A preloaded probe (NODE_OPTIONS=--require, itself
// CommonJS) writes Node's list of its internal modules loaded by the end of
// the run (process.moduleLoadList); the loader is
// node:internal/modules/esm/loader. Only an import() sets it up (an
// ES-module plugin), which the last test shows the probe sees. Node 22.12+
// (require of ES modules) sets it up for every script, a bare CommonJS one
// too: the rule is that jp's run sets up the loader only where a bare
// CommonJS script on the same Node does (on Node 20: never).
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {keys, spawnPty} from '../helpers/pty.js'

const ESM_LOADER = 'NativeModule internal/modules/esm/loader'

describe('start-up: no ES-module loader on the common paths', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let out: string
  let env: NodeJS.ProcessEnv
  beforeEach(() => {
    sb = makeSandbox()
    out = join(sb.dir, 'modules.json')
    const probe = join(sb.dir, 'probe.cjs')
    // The main thread's list only (a render worker has its own), written at exit (process.exit() included).
    writeFileSync(
      probe,
      `if (require('node:worker_threads').isMainThread) process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)))\n`,
    )
    env = {...sb.env, NODE_OPTIONS: `--require ${probe}`, JP_ECHO_DELAY_MS: '0'}
  })
  afterEach(() => sb.cleanup())

  /** Node's internal modules the run loaded (the probe's list). */
  const loaded = (): string[] => {
    expect(existsSync(out), 'the probe wrote its list').to.equal(true)
    return JSON.parse(readFileSync(out, 'utf8')) as string[]
  }
  /** The loader, when the run set it up and a bare CommonJS script on this Node does not (else nothing). */
  const loaderBeyondBare = (): string[] => {
    const jp = loaded().includes(ESM_LOADER)
    const bare = join(sb.dir, 'bare.cjs')
    writeFileSync(bare, '')
    const r = spawnSync(process.execPath, [bare], {env, encoding: 'utf8'})
    expect(r.status, r.stderr).to.equal(0)
    return jp && !loaded().includes(ESM_LOADER) ? [ESM_LOADER] : []
  }

  for (const args of [['--version'], ['--help'], ['query', '-n', 'hi']]) {
    it(`jp ${args.join(' ')} (stdout a pipe)`, async () => {
      const r = await runJp(args, {sandbox: sb, env})
      expect(r.code, r.stderr).to.equal(0)
      expect(loaded()).to.include('NativeModule internal/modules/cjs/loader')
      expect(loaderBeyondBare()).to.deep.equal([])
    })
  }

  it('jp query on a terminal: the early prompt, then the CLI behind it', async () => {
    const term = await spawnPty([BIN, 'query'], {cwd: sb.cwd, env, cols: 100, rows: 30})
    try {
      await term.waitForText('Query:')
      term.type('zqj')
      await term.waitForText('Query: zqj')
      term.send(keys.ctrlC)
      await term.waitForExit(20_000)
    } finally {
      term.dispose()
    }
    expect(loaderBeyondBare()).to.deep.equal([])
  })

  it('jp c use on a terminal: the resume picker', async () => {
    await runJp(['init', '--yes'], {sandbox: sb})
    writeConversation(sb.cwd, 'jp-c100', {title: 'Topic 0', created_at: new Date().toISOString()}, [])
    const term = await spawnPty([BIN, 'c', 'use'], {cwd: sb.cwd, env, cols: 100, rows: 30})
    try {
      await term.waitForText('Topic 0 ·')
      term.send(keys.enter)
      expect((await term.waitForExit(20_000)).exitCode, term.screenText()).to.equal(0)
    } finally {
      term.dispose()
    }
    expect(loaderBeyondBare()).to.deep.equal([])
  })

  it('the probe works: a run that imports an ES module lists the loader', async () => {
    const r = await runJp(['--version'], {sandbox: sb, env: {...env, NODE_OPTIONS: `${env.NODE_OPTIONS} --import data:text/javascript,0`}})
    expect(r.code, r.stderr).to.equal(0)
    expect(loaded()).to.include(ESM_LOADER)
  })
})
