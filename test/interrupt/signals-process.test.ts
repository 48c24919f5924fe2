// Real signals to a real child process running the router.
import {expect} from 'chai'
import {type ChildProcess, spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownNotice} from '../../src/lib/interrupt/signals.js'

const FIXTURE = fileURLToPath(new URL('../fixtures/signals/router-child.ts', import.meta.url))
const RESTORE_SEQ = '\u001b[?25h\u001b[?2004l\u001b[<u' // newest first: cursor, paste, kitty

interface Child {
  proc: ChildProcess
  out(): string
  waitFor(text: string): Promise<void>
  exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>
  restoreOut: string
}

function start(mode: string, env: NodeJS.ProcessEnv = {}, dir: string): Child {
  const restoreOut = join(dir, `restore-${mode}-${Math.random().toString(36).slice(2)}`)
  const proc = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], {
    env: {...process.env, RESTORE_OUT: restoreOut, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout!.on('data', (b) => (out += b))
  proc.stderr!.on('data', (b) => (out += b))
  const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    proc.on('close', (code, signal) => resolve({code, signal})),
  )
  const waitFor = async (text: string) => {
    const t0 = Date.now()
    while (!out.includes(text)) {
      if (Date.now() - t0 > 15_000) throw new Error(`timed out waiting for ${JSON.stringify(text)}; output:\n${out}`)
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  return {proc, out: () => out, waitFor, exited, restoreOut}
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1
}

describe('signal router in a real process', function () {
  let dir: string
  let children: Child[] = []
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-signals-'))
  })
  afterEach(() => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL')
    children = []
    rmSync(dir, {recursive: true, force: true})
  })
  const run = (mode: string, env: NodeJS.ProcessEnv = {}) => {
    const c = start(mode, env, dir)
    children.push(c)
    return c
  }
  const restored = (c: Child) => readFileSync(c.restoreOut, 'utf8')

  it('first Ctrl+C reaches the handler; a second within the cooldown shuts down gracefully', async () => {
    const c = run('handler')
    await c.waitFor('ready')
    c.proc.kill('SIGINT')
    await c.waitFor('handler 1')
    c.proc.kill('SIGINT')
    const {code} = await c.exited
    expect(code).to.equal(130)
    const lines = c.out().trim().split('\n')
    expect(lines).to.deep.equal([
      'ready',
      'handler 1',
      `notice: ${shutdownNotice(DEFAULT_SHUTDOWN_TIMEOUT_MS)}`,
      'shutdown signal aborted',
      'cleanup start SIGINT 130',
      'cleanup saved',
      'restored raw-mode',
    ])
    expect(restored(c)).to.equal(RESTORE_SEQ)
  })

  it('a third Ctrl+C during a stuck shutdown exits 130 at once, restoring the terminal', async () => {
    const c = run('hang')
    await c.waitFor('ready')
    c.proc.kill('SIGINT')
    await c.waitFor('handler 1')
    c.proc.kill('SIGINT')
    await c.waitFor('cleanup start SIGINT')
    c.proc.kill('SIGINT')
    const {code} = await c.exited
    expect(code).to.equal(130)
    expect(c.out()).to.not.contain('cleanup saved')
    expect(count(c.out(), 'restored raw-mode')).to.equal(1)
    expect(c.out()).to.not.contain('done-already')
    expect(restored(c)).to.equal(RESTORE_SEQ)
  })

  it('after the cooldown, a second Ctrl+C is another interrupt, not an escalation', async () => {
    const c = run('handler', {COOLDOWN: '0'})
    await c.waitFor('ready')
    c.proc.kill('SIGINT')
    await c.waitFor('handler 1')
    await new Promise((r) => setTimeout(r, 20))
    c.proc.kill('SIGINT')
    await c.waitFor('handler 2')
    expect(c.out()).to.not.contain('cleanup')
    c.proc.kill('SIGTERM')
    expect((await c.exited).code).to.equal(143)
  })

  it('with no handler pushed, Ctrl+C is a graceful shutdown', async () => {
    const c = run('nohandler')
    await c.waitFor('ready')
    c.proc.kill('SIGINT')
    expect((await c.exited).code).to.equal(130)
    expect(c.out()).to.contain('cleanup start SIGINT 130\ncleanup saved\nrestored raw-mode\n')
  })

  for (const [sig, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${sig} is a graceful shutdown: steps run, terminal restored, exit ${code}`, async () => {
      const c = run('handler')
      await c.waitFor('ready')
      c.proc.kill(sig)
      const {code: exitCode} = await c.exited
      expect(exitCode).to.equal(code)
      expect(c.out()).to.not.contain('handler 1')
      expect(c.out()).to.contain(`cleanup start ${sig} ${code}\ncleanup saved\nrestored raw-mode\n`)
      expect(restored(c)).to.equal(RESTORE_SEQ)
    })
  }

  it('SIGQUIT exits 131 at once, restoring the terminal, without the shutdown steps', async () => {
    const c = run('handler')
    await c.waitFor('ready')
    c.proc.kill('SIGQUIT')
    expect((await c.exited).code).to.equal(131)
    expect(c.out()).to.not.contain('cleanup')
    expect(count(c.out(), 'restored raw-mode')).to.equal(1)
    expect(restored(c)).to.equal(RESTORE_SEQ)
  })

  for (const [mode, code, note] of [
    ['exit-normal', 0, 'normal exit'],
    ['exit130', 130, 'process.exit(130)'],
    ['throw', 1, 'an uncaught exception'],
    ['reject', 1, 'an unhandled rejection'],
  ] as const) {
    it(`restores the terminal exactly once on ${note}`, async () => {
      const c = run(mode)
      const {code: exitCode} = await c.exited
      expect(exitCode).to.equal(code)
      expect(count(c.out(), 'restored raw-mode'), c.out()).to.equal(1)
      expect(c.out()).to.not.contain('done-already')
      expect(restored(c)).to.equal(RESTORE_SEQ)
      if (mode === 'throw') {
        // Restored before Node printed the error.
        expect(c.out().indexOf('restored raw-mode')).to.be.lessThan(c.out().indexOf('boom from the fixture'))
      }
    })
  }
})
