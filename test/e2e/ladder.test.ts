// The Ctrl+C ladder end to end (SPEC §17, JP RFD 092): bin/run.js in a real
// pseudo-terminal, real Ctrl+C bytes, a local server, and a real tool that
// will not die of SIGTERM. Each test is one of the findings of issue 17 and
// failed on the code before the fix.
import {expect} from 'chai'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys, shQuote} from '../helpers/pty.js'
import {startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'

const STREAM_MENU = 'Interrupted [c,r,q,s,a,?]'
const TOOL_MENU = 'Interrupted [c,r,q,s,t,?]'
const SHUTTING_DOWN = /Shutting down/
const STUBBORN = join(ROOT, 'test/fixtures/tools/stubborn.sh')
const CONSUMER = join(ROOT, 'test/fixtures/e2e/pipe-consumer.mjs')
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
/** `n` words holding after the 24th until released (never, where the test cuts the answer). */
const held = (n: number, tag = 'w'): SlowResponse => ({text: words(n, tag), intervalMs: 5, hold: 24})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The tool runner's private arguments directories in `dir`. */
const toolArgumentDirs = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('jp-tool-'))

/** Running (a zombie waiting for a reaper counts as gone: it has stopped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

describe('e2e: the Ctrl+C ladder (issue 17)', function () {
  this.timeout(60_000)
  let slow: SlowServer | undefined
  let replay: ReplayServer | undefined
  let run: JpRun | undefined
  let toolPids: number[] = []
  let jpTmp: string | undefined

  afterEach(async () => {
    // A failing test must not leave the stubborn tool behind.
    for (const pid of toolPids) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
    }
    toolPids = []
    if (jpTmp) rmSync(jpTmp, {recursive: true, force: true})
    jpTmp = undefined
    run?.dispose()
    run = undefined
    await slow?.close()
    await replay?.close()
    slow = undefined
    replay = undefined
  })

  async function streaming(script: SlowResponse[], toml?: string): Promise<JpRun> {
    slow = await startSlowServer(script)
    run = new JpRun({baseUrl: slow.baseUrl, toml})
    return run.start()
  }

  /** jp with the stubborn tool (run unattended), called once by the model, then a text answer. */
  async function withStubbornTool(): Promise<{r: JpRun; pidFile: string; jpTmp: string}> {
    replay = await startReplayServer([{body: openaiToolCall('call_1', 'stubborn', {})}, {body: openaiText(['after ', 'the tool.'])}])
    const pidFile = join(tmpdir(), `jp-stubborn-${process.pid}-${Date.now()}`)
    // jp's own temporary directory, to see what a run leaves in it (the tool's arguments dir).
    jpTmp = mkdtempSync(join(tmpdir(), 'jp-ladder-tmp-'))
    run = new JpRun({
      baseUrl: `${replay.url}/v1`,
      toml: `[conversation.tools.stubborn]\ncommand = "${STUBBORN}"\nrun = "unattended"\n`,
      env: {TOOL_PID_FILE: pidFile, TMPDIR: jpTmp},
    })
    const r = await run.start('use the tool')
    await r.poll(() => existsSync(pidFile), 'the tool to start')
    toolPids = readFileSync(pidFile, 'utf8').trim().split(/\s+/).map(Number)
    rmSync(pidFile)
    expect(toolPids.every((p) => alive(p))).to.equal(true)
    expect(toolArgumentDirs(jpTmp), 'the arguments dir while the tool runs').to.have.length(1)
    return {r, pidFile, jpTmp}
  }

  it('finding 1: a fast user is not shut down — answering the menu resets the ladder, the next Ctrl+C is a first press', async () => {
    // An escalation window no run outlasts: the second press below is inside
    // the first's window however slow the machine (no clock read here).
    const r = await streaming([held(60), held(60, 'x')], '[interrupt]\nescalation_cooldown_secs = 600\n')
    await r.term.waitForText('w3 ')
    await r.replyAtMenu('go on', {ready: async () => {}})
    await r.term.waitForText('x1 ')
    r.term.markOutput()
    r.term.send(keys.ctrlC)
    await r.term.waitFor(() => r.term.outputSinceMark().includes('Interrupted'), 'the menu again')
    expect(r.term.screenText()).not.to.match(SHUTTING_DOWN)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(slow!.requests).to.have.length(2)
  })

  it('finding 2: Ctrl+C at the tool menu begins a graceful shutdown at once and says so; the tool group is gone; exit 130', async () => {
    const {r, jpTmp} = await withStubbornTool()
    r.term.send(keys.ctrlC)
    await r.term.waitForText(TOOL_MENU)
    r.term.send(keys.ctrlC)
    await r.term.waitFor(() => SHUTTING_DOWN.test(r.term.screenText()), 'the shutdown message', 1500)
    const res = await r.finish(15_000)
    expect(res.code, r.term.screenText()).to.equal(130)
    expect(toolPids.filter((p) => alive(p)), 'tool processes still alive').to.deep.equal([])
    expect(toolArgumentDirs(jpTmp), 'arguments dirs left in TMPDIR').to.deep.equal([])
    // The cancelled call is answered in the stored conversation; no second request.
    expect(replay!.requests).to.have.length(1)
    const events = (await r.events()) as Array<{type: string}>
    expect(events.some((e) => e.type === 'tool_call_response')).to.equal(true)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 2: the third Ctrl+C exits 130 at once and still takes the tool group and its arguments dir with it', async () => {
    const {r, jpTmp} = await withStubbornTool()
    r.term.send(keys.ctrlC)
    await r.term.waitForText(TOOL_MENU)
    r.term.send(keys.ctrlC)
    await r.term.waitFor(() => SHUTTING_DOWN.test(r.term.screenText()), 'the shutdown message', 1500)
    r.term.send(keys.ctrlC)
    const res = await r.finish(5000)
    expect(res.code, r.term.screenText()).to.equal(130)
    await sleep(100)
    expect(toolPids.filter((p) => alive(p)), 'tool processes still alive').to.deep.equal([])
    // process.exit skipped the runner's `finally`: the exit hook removed it (it stayed in /tmp before).
    expect(toolArgumentDirs(jpTmp), 'arguments dirs left in TMPDIR').to.deep.equal([])
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 4: `jp query … | consumer` — Ctrl+C is read as a key: the consumer is not signalled and the answer to the reply reaches the pipe', async () => {
    slow = await startSlowServer([held(60), {text: ['the ', 'answer ', 'to the reply.'], intervalMs: 5}])
    run = new JpRun({baseUrl: slow.baseUrl, redirect: 'pipe', consumer: `${shQuote(process.execPath)} ${shQuote(CONSUMER)}`})
    const r = await run.start()
    await r.replyAtMenu('go on', {ready: () => r.poll(() => r.stdoutSoFar().includes('w3 '), 'w3 through the pipe')})
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(res.stdout).to.include('the answer to the reply.')
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 4: Ctrl+\\ still quits (SIGQUIT from the terminal, exit 131) and the terminal is restored', async () => {
    const r = await streaming([held(60)])
    await r.term.waitForText('w3 ')
    r.term.send('\x1c')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(131)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  for (const key of ['s', 'r'] as const) {
    it(`finding 7: text that arrived while the menu was open is not saved by \`${key}\` — what is stored is what the user saw`, async () => {
      slow = await startSlowServer([{...held(30), hold: 8}, {text: ['ok.'], intervalMs: 5}])
      run = new JpRun({baseUrl: slow.baseUrl, redirect: 'files'})
      const r = await run.start()
      await r.poll(() => r.stdoutSoFar().includes('w3 '), 'w3 in stdout')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(STREAM_MENU)
      // The rest of the answer arrives behind the menu.
      slow!.release()
      await r.poll(() => slow!.completed[0] === true, 'the server to finish the answer')
      await sleep(100)
      r.term.send(key)
      if (key === 'r') {
        await r.term.waitForText('Reply:')
        r.term.type('go on')
        r.term.send(keys.enter)
      }
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      const seen = res.stdout.split('ok.')[0].trimEnd()
      expect(seen.length).to.be.lessThan(words(30).join('').trimEnd().length)
      const events = (await r.events()) as Array<{type: string; message?: string}>
      const stored = events.filter((e) => e.type === 'chat_response' && typeof e.message === 'string').map((e) => e.message!)
      expect(stored[0].trimEnd()).to.equal(seen)
      if (key === 'r') {
        const sent = (slow!.requests[1].json().messages as Array<{role: string; content: unknown}>).at(-2)
        expect(sent).to.deep.equal({role: 'assistant', content: stored[0]})
      }
    })
  }

  for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
    it(`finding 3: ${sig} while a tool runs ends the turn without another model request`, async () => {
      const {r} = await withStubbornTool()
      process.kill(r.jpPid(), sig)
      const res = await r.finish(15_000)
      expect(res.code, r.term.screenText()).to.equal(sig === 'SIGTERM' ? 143 : 129)
      expect(replay!.requests, 'model requests').to.have.length(1)
      expect(r.term.screenText()).not.to.include('after the tool.')
      const events = (await r.events()) as Array<{type: string}>
      expect(events.some((e) => e.type === 'tool_call_response')).to.equal(true)
      expect(toolPids.filter((p) => alive(p)), 'tool processes still alive').to.deep.equal([])
    })
  }
})
