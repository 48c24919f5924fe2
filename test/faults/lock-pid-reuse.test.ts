// Issue 28, finding 3: a stale lock whose pid was reused. jp crashed and
// left its `.lock`; the kernel later gave that pid to an unrelated,
// long-running process. The lock must count as stale — the process holding
// the pid is not the one that took the lock — in the lock format jp writes
// now (with the holder's start time) and in the older one (pid, host, since).
// A lock whose holder is really alive still stops a second writer.
import {expect} from 'chai'
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {join} from 'node:path'
import {makeSandbox, runJp, snapshotSandbox, type Sandbox} from '../helpers/cli.js'
import {processStartToken} from '../../src/lib/conversation/lock.js'
import {errLines, onlyConversation} from './harness.js'

describe('faults: a stale lock whose pid now belongs to another process', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let unrelated: ChildProcess
  let lock: string

  // One conversation made once per file, put back before each case.
  let kept: ReturnType<typeof snapshotSandbox>
  before(async () => {
    sb = makeSandbox()
    expect((await runJp(['query', 'one'], {sandbox: sb})).code).to.equal(0)
    kept = snapshotSandbox(sb)
  })
  after(() => kept.cleanup())
  beforeEach(() => {
    kept.reset()
    // An unrelated, long-running process: its pid is what the stale lock names.
    unrelated = spawn('sleep', ['120'], {stdio: 'ignore'})
    lock = join(onlyConversation(sb), '.lock')
  })
  afterEach(() => void unrelated.kill('SIGKILL'))

  const plant = (info: Record<string, unknown>) => writeFileSync(lock, JSON.stringify({pid: unrelated.pid, host: hostname(), ...info}) + '\n')
  const query = () => runJp(['query', 'two'], {sandbox: sb, timeoutMs: 20_000})

  it('the lock format jp writes (start time recorded): a different start time means the pid was reused, the lock is taken over', async () => {
    plant({since: new Date().toISOString(), start: 'boot-of-another-day:12345'})
    const r = await query()
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).not.to.include('in use')
    expect(existsSync(lock), 'released after the run').to.equal(false)
  })

  it('an older lock (pid, host, since): a process that started after `since` cannot be its holder', async () => {
    plant({since: new Date(Date.now() - 3600_000).toISOString()})
    const r = await query()
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).not.to.include('in use')
  })

  it('control: the same pid with its own start time (the holder is alive) still stops a second writer', async () => {
    const start = processStartToken(unrelated.pid!)
    expect(start, 'this platform reports process start times').to.be.a('string')
    plant({since: new Date().toISOString(), start})
    const r = await query()
    expect(r.code).to.equal(1)
    expect(errLines(r.stderr).filter((l) => l.startsWith('Error')), r.stderr).to.deep.equal([
      `Error: conversation ${onlyConversation(sb).split('/').at(-1)} is in use by another jp process (pid ${unrelated.pid}); wait for it to finish or pick another conversation`,
    ])
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).to.equal(unrelated.pid)
  })

  it('jp records its own start time in the lock it takes', async () => {
    const {startJp} = await import('./harness.js')
    const {startReplayServer} = await import('../llm/replay-server.js')
    const {openaiText} = await import('../helpers/openai-stream.js')
    const {useOpenAI} = await import('./harness.js')
    const server = await startReplayServer([{body: openaiText(['held']), hold: true}])
    try {
      const live = startJp(['query', ...useOpenAI(sb, server.url), 'three'], {sandbox: sb})
      await live.waitForStdout('held')
      const info = JSON.parse(readFileSync(lock, 'utf8')) as {pid: number; start?: string}
      expect(info.pid).to.equal(live.child.pid)
      expect(info.start).to.equal(processStartToken(live.child.pid!))
      live.child.kill('SIGKILL')
      await live.done
    } finally {
      await server.close()
    }
  })
})
