// Losing the terminal (issue 23, finding 2): the terminal window is closed —
// the pty's master side goes away, the kernel hangs the terminal up (SIGHUP
// to the session, EOF on reads, EIO on writes and mode changes) — while the
// answer streams, at a menu, at a tool prompt and while the user's editor
// runs. jp is the pty's session leader (no shell around it), as under a
// closed terminal emulator or `tmux kill-server`. Each case must be a
// graceful shutdown: what arrived is saved, and jp exits 129 — not killed by
// SIGABRT/SIGSEGV after Node's `ResetStdio()` assertion on a terminal that
// is gone.
import {expect} from 'chai'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys} from '../helpers/pty.js'
import {startSlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun, type JpRunOptions, type JpRunResult} from '../fixtures/e2e/interrupt-run.js'
import {startReplayServer} from '../llm/replay-server.js'
import {teardownAfterEach} from '../helpers/teardown.js'
import {RECORD_TOOL} from '../fixtures/e2e-tools/tool-session.js'

const GATED_EDITOR = join(ROOT, 'test/fixtures/e2e/gated-editor.sh')
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
const HANGUP = 129

describe('e2e: the terminal goes away (issue 23, finding 2)', function () {
  this.timeout(60_000)
  const teardown = teardownAfterEach()

  async function streaming(opts: Omit<JpRunOptions, 'baseUrl'> = {}): Promise<JpRun> {
    const slow = teardown.server(await startSlowServer([{text: words(300), intervalMs: 5, hold: 24 /* held until the test ends jp: no pacing to wait through */}]))
    return teardown.run(new JpRun({baseUrl: slow.baseUrl, direct: true, ...opts})).start()
  }

  /** Closes the window and waits for jp: a graceful exit 129, no native assertion. */
  async function closeWindow(r: JpRun): Promise<JpRunResult> {
    r.term.closeMaster()
    const res = await r.finish(20_000)
    expect(res.signal, 'jp died of a signal').to.equal(0)
    expect(res.code).to.equal(HANGUP)
    expect(res.stderr).not.to.match(/Assertion|ResetStdio|node::|Native stack/)
    return res
  }

  for (const redirect of ['tty', 'files'] as const) {
    it(`while the answer streams (stdout and stderr ${redirect === 'tty' ? 'the terminal' : 'in files'}): 129, the answer so far saved`, async () => {
      const r = await streaming({redirect})
      await r.poll(() => (redirect === 'tty' ? r.term.screenText() : r.stdoutSoFar()).includes('w3 '), 'w3')
      await closeWindow(r)
      const saved = await r.savedAnswer()
      expect(saved.startsWith('w0 w1 w2 w3 ')).to.equal(true)
      expect(saved.length).to.be.lessThan(words(300).join('').length)
    })
  }

  for (const redirect of ['tty', 'files'] as const) {
    it(`SIGHUP, then the window closes (tmux kill-server; stdout and stderr ${redirect === 'tty' ? 'the terminal' : 'in files'}): 129, stderr holds no native assertion`, async () => {
      const r = await streaming({redirect})
      await r.poll(() => (redirect === 'tty' ? r.term.screenText() : r.stdoutSoFar()).includes('w3 '), 'w3')
      // The hang-up signal first, while the terminal still answers; the terminal goes right after (as tmux kill-server does).
      process.kill(r.term.pid, 'SIGHUP') // direct: jp is the session's process
      r.term.closeMaster()
      const res = await r.finish(20_000)
      expect(res.signal, 'jp died of a signal').to.equal(0)
      expect(res.code).to.equal(HANGUP)
      // Beside jp's own one-line notice of the hang-up, only the start-up notices of a directory outside a workspace.
      const startup = /^jp: (no \.jp\/ workspace here|a conversation of its own for )/
      if (redirect === 'files') expect(res.stderr.split('\n').filter((l) => l.trim() !== '' && !startup.test(l)).length, res.stderr).to.be.at.most(1)
      expect(res.stderr).not.to.match(/Assertion|ResetStdio|node::|Native stack/)
      expect((await r.savedAnswer()).startsWith('w0 w1 w2 w3 ')).to.equal(true)
    })
  }

  it('at the streaming menu: 129, the partial answer saved', async () => {
    const r = await streaming()
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Interrupted [c,r,q,s,a,?]')
    await closeWindow(r)
    expect((await r.savedAnswer()).startsWith('w0 w1 w2 w3 ')).to.equal(true)
  })

  it('at a tool permission prompt: 129, the tool never ran and the call is answered in the saved conversation', async () => {
    const replay = teardown.server(await startReplayServer([{body: openaiToolCall('call_1', 'record', {n: 1})}, {body: openaiText(['never'])}]))
    const recordFile = join(tmpdir(), `jp-record-${process.pid}-${Date.now()}`)
    teardown.add(() => rmSync(recordFile, {force: true}))
    const run = teardown.run(new JpRun({
      baseUrl: `${replay.url}/v1`,
      direct: true,
      toml: `[conversation.tools.record]\ncommand = "${RECORD_TOOL}"\n`,
      env: {RECORD_FILE: recordFile},
    }))
    const r = await run.start('use the tool')
    await r.term.waitForText('Run local tool record?')
    await closeWindow(r)
    expect(existsSync(recordFile)).to.equal(false)
    expect(replay.requests).to.have.length(1)
    const events = (await r.events()) as Array<{type: string; id?: string}>
    expect(events.filter((e) => e.type === 'tool_call_response').map((e) => e.id)).to.deep.equal(['call_1'])
  })

  it('while the editor runs (a reply composed in the editor): 129, the partial answer saved', async () => {
    const gateDir = mkdtempSync(join(tmpdir(), 'jp-gate-'))
    teardown.add(() => rmSync(gateDir, {recursive: true, force: true}))
    const slow = teardown.server(await startSlowServer([{text: words(300), intervalMs: 5, hold: 24 /* held until the test ends jp: no pacing to wait through */}]))
    const run = teardown.run(new JpRun({
      baseUrl: slow.baseUrl,
      direct: true,
      toml: `[editor]\ncmd = "${GATED_EDITOR}"\n[interrupt.streaming]\ncompose_in_editor = true\n`,
      env: {EDITOR_GATE: gateDir},
    }))
    const r = await run.start()
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Interrupted [c,r,q,s,a,?]')
    r.term.send('r')
    await r.poll(() => existsSync(join(gateDir, 'editor-started')), 'the editor to start')
    await closeWindow(r)
    expect((await r.savedAnswer()).startsWith('w0 w1 w2 w3 ')).to.equal(true)
  })
})
