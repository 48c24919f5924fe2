// Queued replies and type to queue (SPEC §18, issue 22) end to end: bin/run.js
// in a real pseudo-terminal (JpRun wraps it in `sh -c`, so stty and the exit
// status are read from inside the session), real key bytes, a local server
// streaming slowly. Each test checks what the user sees, what the next
// request carries, what the conversation's draft (QUERY_MESSAGE.md) holds
// and the exit status. Every one of them failed on the code before issue 22.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {makeSandbox, ROOT, runJp} from '../helpers/cli.js'
import {requireProgram} from '../helpers/programs.js'
import {keys, type PtySession} from '../helpers/pty.js'
import {fullText, startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun, type JpRunOptions} from '../fixtures/e2e/interrupt-run.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {buildQueryDocument} from '../../src/lib/query/document.js'

const MENU = 'Interrupted [c,r,q,s,a,?]'
const TOOL_MENU = 'Interrupted [c,r,q,s,t,?]'
const COUNTDOWN = /Sending your queued reply in \d+s \(Enter: now, Ctrl\+C: keep it as a draft and exit\)/
const KEPT = "Your queued reply is kept as the draft: 'jp query' starts with it."
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const SHORT: SlowResponse = {text: ['short ', 'answer.'], intervalMs: 5}
/**
 * Long enough to queue, interrupt and look at leisure: it holds after its
 * 24th, 44th and 64th words until the test releases it (slow-server.ts
 * `hold`), so no test waits out a paced stream and none races its end.
 */
const LONG: SlowResponse = {text: words(80), intervalMs: 5, hold: [24, 44, 64]}
/** `n` words, holding after the `at`-th until released (enough for a line the renderer shows before the rest comes). */
const held = (n: number, at = 24, tag = 'w'): SlowResponse => ({text: words(n, tag), intervalMs: 5, hold: at})
const SLOW_FSYNC = pathToFileURL(join(ROOT, 'test/fixtures/e2e/slow-fsync.mjs')).href
/** A countdown the tests need not wait for. */
const FAST_COUNTDOWN = '[interrupt]\nqueue_countdown_secs = 0.3\n'

type Msg = {role: string; content: unknown}

/** Every row the terminal holds, scrollback included, right-trimmed. */
function allRows(term: PtySession): string[] {
  const buf = term.terminal.buffer.active
  const rows: string[] = []
  for (let i = 0; i < buf.length; i++) rows.push(buf.getLine(i)?.translateToString(true) ?? '')
  while (rows.length > 0 && rows.at(-1) === '') rows.pop()
  return rows
}

/**
 * Waits until the bottom of the screen is the open prompt with `line` and
 * its help line (a write above it erases and redraws it: between the two
 * the screen may be caught without it).
 */
async function promptAtBottom(term: PtySession, line: string): Promise<string[]> {
  const bottom = () => term.screen().filter((l) => l !== '')
  await term.waitFor(() => bottom().at(-2) === line && /^Enter to send/.test(bottom().at(-1) ?? ''), `${line} at the bottom`)
  return bottom()
}

/** The answer's text as the screen shows it: its rows from the first word up to (not including) the row starting with `stop`. */
function shownAnswer(term: PtySession, first: string, stop: string): string {
  const rows = allRows(term)
  const from = rows.findIndex((r) => r.startsWith(first))
  const to = rows.findIndex((r, i) => i > from && r.startsWith(stop))
  return rows
    .slice(from, to === -1 ? undefined : to)
    .map((r) => r.trim())
    .join(' ')
}

describe('e2e: queued replies and type to queue (issue 22)', function () {
  this.timeout(90_000)
  let server: SlowServer | undefined
  let replay: ReplayServer | undefined
  let run: JpRun | undefined
  const cleanups: Array<() => void> = []

  afterEach(async () => {
    for (const c of cleanups.splice(0)) c()
    run?.dispose()
    run = undefined
    await server?.close()
    server = undefined
    await replay?.close()
    replay = undefined
  })

  async function start(script: SlowResponse[], opts: Omit<JpRunOptions, 'baseUrl'> = {}, query?: string): Promise<JpRun> {
    server = await startSlowServer(script)
    run = new JpRun({baseUrl: server.baseUrl, ...opts})
    return run.start(query)
  }

  /** Waits for the run's end and checks it exited 0. */
  async function finishedOk(r: JpRun): Promise<Awaited<ReturnType<JpRun['finish']>>> {
    // Whatever is held streams to its end: the run is to end on its own.
    server?.releaseAll()
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    return res
  }

  let tools = 0
  /** A tool `slow` that runs until the test calls `finish()` (a file it waits for), then prints tool-finished. */
  function gatedTool(): {toml: string; finish(): void} {
    const go = join(tmpdir(), `jp-tool-go-${process.pid}-${Date.now()}-${++tools}`)
    cleanups.push(() => rmSync(go, {force: true}))
    const script = 'cat > /dev/null; while [ ! -e "$1" ]; do sleep 0.05; done; echo tool-finished'
    return {
      toml: `[conversation.tools.slow]\ncommand = {program = "sh", args = ['-c', '${script}', 'sh', '${go}']}\nrun = "unattended"\n`,
      finish: () => writeFileSync(go, ''),
    }
  }

  const users = (i: number) => (server!.requests[i].json().messages as Msg[]).filter((m) => m.role === 'user').map((m) => m.content)

  /** The conversation's draft (QUERY_MESSAGE.md) as jp left it; undefined when there is none. */
  async function draftOf(r: JpRun): Promise<string | undefined> {
    const store = new ConversationStore(await findWorkspace({cwd: r.sb.cwd, env: r.sb.env}), {env: r.sb.env})
    const id = await store.activeId()
    const path = store.draftPath(id ?? null)
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined
  }

  /** Queues `text` by typing it while the answer streams (type to queue), and waits until it is on disk. */
  async function typeToQueue(r: JpRun, text: string, after = 'w3 '): Promise<void> {
    await r.term.waitForText(after)
    r.term.type(text)
    await r.term.waitForText(`Queue: ${text}`)
    r.term.send(keys.enter)
    await draftHolds(r, text)
    await r.term.waitFor(() => !r.term.screenText().includes('Queue:'), 'the prompt gone')
  }

  /** Waits until the draft's first line is `text`. */
  async function draftHolds(r: JpRun, text: string): Promise<void> {
    const end = Date.now() + 10_000
    while ((await draftOf(r))?.split('\n')[0] !== text) {
      if (Date.now() > end) throw new Error(`the draft never held ${text}: ${await draftOf(r)}; screen:\n${r.term.screenText()}`)
      await sleep(20)
    }
  }

  /** Waits until the answer has gone on by two more words than the screen shows now (the stream resumed). */
  async function streamGoesOn(r: JpRun): Promise<void> {
    const shown = () => Math.max(-1, ...[...r.term.screenText().matchAll(/\bw(\d+)\b/g)].map((m) => Number(m[1])))
    const target = shown() + 2
    await r.term.waitFor(() => shown() >= target, `w${target}`)
  }

  /** The next bare `jp query` in the same sandbox: its inline prompt starts with `text`. */
  async function nextQueryStartsWith(r: JpRun, text: string): Promise<void> {
    await r.start('')
    await r.term.waitForText(`Query: ${text}`)
    r.term.send(keys.ctrlC)
    await r.finish()
  }

  describe('q in the menus', () => {
    /** Ctrl+C, `q` at `menu` (after `between`, if given, is done there), then `text` typed into Queue: and Enter. */
    async function queueThrough(r: JpRun, menu: string, text: string, between?: () => Promise<void>): Promise<void> {
      r.term.send(keys.ctrlC)
      await r.term.waitForText(menu)
      await between?.()
      r.term.send('q')
      await r.term.waitForText('Queue:')
      r.term.type(text)
      r.term.send(keys.enter)
    }

    it('q while streaming: Queue:, the stream goes on to its end, the countdown, then the reply is the next turn; the draft is gone once sent', async () => {
      const first = held(40)
      const r = await start([first, SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 1\n'})
      await r.term.waitForText('w3 ')
      await queueThrough(r, MENU, 'and now the summary', async () => {
        r.term.send('?')
        await r.term.waitForText('q - queue a reply (finish, then send it)')
      })
      // Queued on disk as soon as it was queued: while the answer still streams (held).
      await draftHolds(r, 'and now the summary')
      expect(server!.completed[0]).to.equal(false)
      server!.release()
      await r.term.waitForText(COUNTDOWN)
      const res = await finishedOk(r)
      expect(server!.requests).to.have.length(2)
      // The first answer ran to its end: queueing did not stop it.
      expect(server!.completed[0]).to.equal(true)
      const msgs = server!.requests[1].json().messages as Msg[]
      expect(msgs.slice(-2)).to.deep.equal([
        {role: 'assistant', content: fullText(first)},
        {role: 'user', content: 'and now the summary'},
      ])
      expect(r.term.screenText()).to.include('> and now the summary')
      expect(r.term.screenText()).to.include('short answer.')
      expect(await draftOf(r)).to.equal(undefined)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('q during a tool run (next_step, the default): the tool keeps running; its result and the queued reply after it go in the next request', async () => {
      replay = await startReplayServer([{body: openaiToolCall('call_1', 'slow', {})}, {body: openaiText(['the tool ', 'said done.'])}])
      const tool = gatedTool()
      run = new JpRun({baseUrl: `${replay.url}/v1`, toml: `${FAST_COUNTDOWN}${tool.toml}`})
      const r = await run.start('use the tool')
      await r.term.waitForText('Running slow')
      await queueThrough(r, TOOL_MENU, 'after the tool')
      // Queued while the tool still runs; then it finishes.
      await draftHolds(r, 'after the tool')
      tool.finish()
      const res = await finishedOk(r)
      expect(replay.requests).to.have.length(2)
      const second = replay.requests[1].json() as {messages: Msg[]}
      expect(second.messages.slice(-2)).to.deep.equal([
        {role: 'tool', tool_call_id: 'call_1', content: 'tool-finished\n'},
        {role: 'user', content: 'after the tool'},
      ])
      // The transcript shows it where it was delivered, before the answer to it; no countdown.
      const screen = r.term.screenText()
      expect(screen.indexOf('> after the tool')).to.be.greaterThan(screen.indexOf('slow: tool-finished'))
      expect(screen.indexOf('> after the tool')).to.be.lessThan(screen.indexOf('said done.'))
      expect(screen).not.to.match(COUNTDOWN)
      expect(await draftOf(r)).to.equal(undefined)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('q during a tool run, queue_delivery = "turn_end": the tool result goes to the model, then the queued reply as the next turn', async () => {
      replay = await startReplayServer([
        {body: openaiToolCall('call_1', 'slow', {})},
        {body: openaiText(['the tool ', 'said done.'])},
        {body: openaiText(['second ', 'answer.'])},
      ])
      const tool = gatedTool()
      run = new JpRun({baseUrl: `${replay.url}/v1`, toml: `${FAST_COUNTDOWN}queue_delivery = "turn_end"\n${tool.toml}`})
      const r = await run.start('use the tool')
      await r.term.waitForText('Running slow')
      await queueThrough(r, TOOL_MENU, 'after the tool')
      await draftHolds(r, 'after the tool')
      tool.finish()
      const res = await finishedOk(r)
      expect(replay.requests).to.have.length(3)
      const second = replay.requests[1].json() as {messages: Array<{role: string; content: unknown}>}
      // The tool was not cancelled: its own output is its result.
      expect(second.messages.find((m) => m.role === 'tool')?.content).to.equal('tool-finished\n')
      const third = replay.requests[2].json() as {messages: Msg[]}
      expect(third.messages.at(-1)).to.deep.equal({role: 'user', content: 'after the tool'})
      expect(r.term.screenText()).to.include('second answer.')
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('q at the turn menu between phases: [c,r,q,s,?]; the turn goes on, then the queued reply', async () => {
      const fsyncLog = join(tmpdir(), `jp-fsync-${process.pid}-${Date.now()}.log`)
      const saved = `${fsyncLog}.go`
      cleanups.push(() => rmSync(fsyncLog, {force: true}), () => rmSync(saved, {force: true}))
      server = await startSlowServer([{text: ['the first answer.'], intervalMs: 5}, SHORT])
      run = new JpRun({
        baseUrl: server.baseUrl,
        toml: FAST_COUNTDOWN,
        // Saving waits until the test has queued its reply (the file `saved`), however long that takes.
        env: {NODE_OPTIONS: `--import=${SLOW_FSYNC}`, JP_TEST_SLOW_FSYNC: 'events\\.log$', JP_TEST_SLOW_FSYNC_UNTIL: saved, JP_TEST_SLOW_FSYNC_LOG: fsyncLog},
      })
      const r = await run.start('first question')
      // The turn is saving its query (a gap: no stream, no tool).
      await r.poll(() => existsSync(fsyncLog) && readFileSync(fsyncLog, 'utf8').includes('events.log'), 'the turn saving')
      await queueThrough(r, 'Interrupted [c,r,q,s,?]', 'between the phases')
      await draftHolds(r, 'between the phases')
      writeFileSync(saved, '')
      const res = await r.finish(40_000)
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(server.requests).to.have.length(2)
      expect(users(0)).to.deep.equal(['first question'])
      expect(users(1).at(-1)).to.equal('between the phases')
      expect(r.term.screenText()).to.include('the first answer.')
    })
  })

  describe('one slot', () => {
    /** Queues `text` with q at the menu (the stream is long). */
    async function queueAtMenu(r: JpRun, text: string, opts: {clear?: boolean} = {}): Promise<void> {
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => r.term.outputSinceMark().includes('Interrupted [c,r,q,s,a,?]'), 'the menu')
      r.term.markOutput()
      r.term.send('q')
      await r.term.waitFor(() => r.term.outputSinceMark().includes('Queue:'), 'Queue:')
      if (opts.clear) r.term.send(keys.ctrlU)
      r.term.type(text)
      r.term.send(keys.enter)
      if (text !== '') {
        await draftHolds(r, text)
        // The answer was holding; let it go on to its next hold.
        server!.release()
        await streamGoesOn(r)
      }
    }

    /** A long stream with `first wish` queued at the menu (the stream resumed), output marked after it. */
    async function withFirstWish(first: SlowResponse = LONG): Promise<JpRun> {
      const r = await start([first, SHORT], {toml: FAST_COUNTDOWN})
      await r.term.waitForText('w3 ')
      r.term.markOutput()
      await queueAtMenu(r, 'first wish')
      r.term.markOutput()
      return r
    }

    /** Ctrl+C, then q at the menu: the prompt opens again, seeded with the queued `first wish`. */
    async function reopenSeeded(r: JpRun): Promise<void> {
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => r.term.outputSinceMark().includes(MENU), 'the menu again')
      r.term.markOutput()
      r.term.send('q')
      await r.term.waitForText(/Queue: first wish\s*$/m)
    }

    it('a second q seeds the prompt with the queued reply; submitted unchanged it is kept', async () => {
      const r = await withFirstWish()
      await reopenSeeded(r)
      r.term.send(keys.enter)
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('first wish')
    })

    it('… edited it replaces the queued reply', async () => {
      const r = await withFirstWish()
      await queueAtMenu(r, 'second wish', {clear: true})
      await finishedOk(r)
      expect(server!.requests).to.have.length(2)
      expect(users(1).at(-1)).to.equal('second wish')
    })

    it('… emptied it is withdrawn: back to the menu, the draft removed, nothing sent after the turn', async () => {
      const r = await withFirstWish({text: words(40), intervalMs: 5, hold: [24, 32]})
      await queueAtMenu(r, '', {clear: true})
      // An emptied submit goes back to the menu.
      await r.term.waitFor(() => r.term.outputSinceMark().split('Interrupted [c,r,q,s,a,?]').length === 2, 'the menu again')
      expect(await draftOf(r)).to.equal(undefined)
      r.term.send('c')
      await finishedOk(r)
      expect(server!.requests).to.have.length(1)
      expect(r.term.screenText()).not.to.match(COUNTDOWN)
    })

    it('… Ctrl+C at the prompt leaves it as it was (back to the menu)', async () => {
      const r = await withFirstWish()
      await reopenSeeded(r)
      r.term.send(keys.ctrlU)
      r.term.type('never mind')
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => r.term.outputSinceMark().includes(MENU), 'back at the menu')
      expect((await draftOf(r))?.trim()).to.equal('first wish')
      r.term.send('c')
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('first wish')
    })
  })

  describe('the countdown', () => {
    it('counts down on the status line, then sends the reply as the next turn; a reply can be queued in that turn too', async () => {
      const r = await start([held(40), held(40, 24, 'x'), SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 1\n'})
      await typeToQueue(r, 'second turn please')
      server!.release()
      await r.term.waitForText(COUNTDOWN)
      await typeToQueue(r, 'third turn please', 'x3 ')
      await finishedOk(r)
      expect(server!.requests).to.have.length(3)
      expect(users(1).at(-1)).to.equal('second turn please')
      expect(users(2).at(-1)).to.equal('third turn please')
      expect(r.term.screenText()).to.include('short answer.')
      expect(await draftOf(r)).to.equal(undefined)
    })

    it('Enter sends at once', async () => {
      // A countdown of an hour: a second request within this test's timeout can only be Enter's (no clock read here).
      const r = await start([held(40), SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 3600\n'})
      await typeToQueue(r, 'right away')
      server!.release()
      await r.term.waitForText(/Sending your queued reply in 3\d{3}s/)
      expect(server!.requests).to.have.length(1)
      r.term.send(keys.enter)
      await r.poll(() => server!.requests.length === 2, 'the second request', 50_000)
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('right away')
    })

    it('Ctrl+C keeps it as the draft and exits 0; the next bare jp query starts with it', async () => {
      const r = await start([held(40), SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 60\n'})
      await typeToQueue(r, 'keep me for later')
      server!.release()
      await r.term.waitForText(COUNTDOWN)
      r.term.send(keys.ctrlC)
      const res = await finishedOk(r)
      expect(server!.requests).to.have.length(1)
      expect(r.term.screenText()).to.include(KEPT)
      expect((await draftOf(r))?.trim()).to.equal('keep me for later')
      expect(res.sttyAfter).to.equal(res.sttyBefore)
      await nextQueryStartsWith(r, 'keep me for later')
    })

    it('interrupt.queue_countdown_secs = 0 sends at once', async () => {
      const r = await start([held(40), SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 0\n'})
      await typeToQueue(r, 'no waiting')
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('no waiting')
      expect(r.term.output()).not.to.match(COUNTDOWN)
    })
  })

  describe('the draft on every exit path', () => {
    it('SIGKILL after queueing: the next bare jp query starts with the queued text', async () => {
      const r = await start([LONG])
      await typeToQueue(r, 'survive a kill')
      process.kill(r.jpPid(), 'SIGKILL')
      await r.term.waitForExit()
      await nextQueryStartsWith(r, 'survive a kill')
    })

    // `s` ends cleanly and says the draft is kept; `a` aborts with 130.
    for (const {key, code, text, saysKept} of [
      {key: 's', code: 0, text: 'after a stop', saysKept: true},
      {key: 'a', code: 130, text: 'after an abort', saysKept: false},
    ]) {
      it(`${key} at the menu: exit ${code}, the draft keeps the queued reply`, async () => {
        const r = await start([LONG])
        await typeToQueue(r, text)
        r.term.send(keys.ctrlC)
        await r.term.waitForText(MENU)
        r.term.send(key)
        const res = await r.finish()
        expect(res.code, r.term.screenText()).to.equal(code)
        expect((await draftOf(r))?.trim()).to.equal(text)
        if (saysKept) expect(r.term.screenText()).to.include(KEPT)
      })
    }

    it('a provider error: exit 1, the draft keeps the queued reply, nothing is sent after it', async () => {
      const r = await start([{...held(40), drop: true}, SHORT])
      await typeToQueue(r, 'after a failure')
      server!.release()
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(1)
      expect(server!.requests).to.have.length(1)
      expect((await draftOf(r))?.trim()).to.equal('after a failure')
    })

    it('a graceful shutdown (Ctrl+C at the menu): exit 130, the draft keeps the queued reply', async () => {
      const r = await start([LONG])
      await typeToQueue(r, 'after a shutdown')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(MENU)
      r.term.send(keys.ctrlC)
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(130)
      expect((await draftOf(r))?.trim()).to.equal('after a shutdown')
    })

    for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
      it(`${signal}: exit ${code}, the draft keeps the queued reply`, async () => {
        const r = await start([LONG])
        await typeToQueue(r, `after ${signal}`)
        process.kill(r.jpPid(), signal)
        const res = await r.finish()
        expect(res.code, r.term.screenText()).to.equal(code)
        expect(server!.requests).to.have.length(1)
        expect((await draftOf(r))?.trim()).to.equal(`after ${signal}`)
      })
    }

    it("the turn's success path does not delete it: a composed query's draft becomes the queued reply, kept at the countdown", async () => {
      const r = await start([held(40), SHORT], {toml: '[interrupt]\nqueue_countdown_secs = 60\n'}, '')
      await r.term.waitForText('Query:')
      r.term.type('the composed query')
      r.term.send(keys.enter)
      await typeToQueue(r, 'queued while it ran')
      server!.release()
      await r.term.waitForText(COUNTDOWN)
      r.term.send(keys.ctrlC)
      await finishedOk(r)
      expect(users(0)).to.deep.equal(['the composed query'])
      // The composed query was answered; its draft holds the queued reply now, block and all.
      const draft = await draftOf(r)
      expect(draft?.split('\n')[0]).to.equal('queued while it ran')
      expect(draft).to.include('```toml')
      expect(draft).not.to.include('the composed query')
    })
  })

  describe('type to queue', () => {
    it('a key typed while the answer streams opens Queue: at the bottom, seeded with it; the answer keeps printing above; Enter queues', async () => {
      const first: SlowResponse = {text: words(60), intervalMs: 5, hold: [24, 50]}
      const r = await start([first, SHORT], {toml: FAST_COUNTDOWN})
      await r.term.waitForText('w3 ')
      r.term.send('t')
      await r.term.waitForText('Queue: t')
      r.term.type('hen explain')
      await r.term.waitForText('Queue: then explain')
      server!.release()
      await r.term.waitForText('w30 ')
      // At the bottom, intact, with the answer above it.
      const screen = await promptAtBottom(r.term, 'Queue: then explain')
      expect(screen.at(-3)).to.match(/w\d+/)
      r.term.send(keys.enter)
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('then explain')
      expect(server!.completed[0]).to.equal(true)
      // The prompt left nothing behind in the answer.
      expect(shownAnswer(r.term, 'w0 ', '> then explain')).to.equal(fullText(first).trim())
    })

    it('2,000 tokens stream above the open prompt: the screen shows exactly the stored answer, and the prompt its text', async () => {
      const first: SlowResponse = {text: words(2000), intervalMs: 1, hold: 24}
      const r = await start([first, SHORT], {toml: FAST_COUNTDOWN, rows: 40})
      await r.term.waitForText('w3 ')
      r.term.type('a typed question')
      await r.term.waitForText('Queue: a typed question')
      server!.release()
      // The turn is over, the prompt still open: nothing is sent while it is.
      await r.poll(() => server!.completed[0] === true, 'the stream finished', 30_000)
      await r.term.waitForText('w1999')
      await sleep(300)
      expect(server!.requests).to.have.length(1)
      await promptAtBottom(r.term, 'Queue: a typed question')
      const stored = (await r.events()).filter((e) => e.type === 'chat_response').map((e) => (e as {message?: string}).message)
      expect(stored).to.deep.equal([fullText(first)])
      expect(shownAnswer(r.term, 'w0 ', 'Queue:')).to.equal(fullText(first).trim())
      r.term.send(keys.enter)
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('a typed question')
    })

    it('Ctrl+C closes the prompt and goes back to the stream; the text is in the reply history (Up)', async () => {
      const r = await start([{text: words(150), intervalMs: 5, hold: [24, 60]}, SHORT], {toml: FAST_COUNTDOWN})
      await r.term.waitForText('w3 ')
      r.term.type('half a thought')
      await r.term.waitForText('Queue: half a thought')
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => !r.term.screenText().includes('Queue:'), 'the prompt gone')
      server!.release()
      // Back to the stream: no menu.
      await r.term.waitForText('w40 ')
      expect(r.term.screenText()).not.to.include('Interrupted')
      await sleep(2500)
      r.term.send('x')
      await r.term.waitForText('Queue: x')
      r.term.send(keys.ctrlU + keys.up)
      await r.term.waitForText('Queue: half a thought')
      r.term.send(keys.enter)
      await finishedOk(r)
      expect(users(1).at(-1)).to.equal('half a thought')
    })

    it('the ladder still holds: Ctrl+C at the prompt, Ctrl+C again at once shuts down (130)', async () => {
      const r = await start([LONG])
      await r.term.waitForText('w3 ')
      r.term.type('oops')
      await r.term.waitForText('Queue: oops')
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => !r.term.screenText().includes('Queue:'), 'the prompt gone')
      r.term.send(keys.ctrlC)
      await r.term.waitForText('Shutting down')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(130)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('while a tool runs: the prompt opens, the tool finishes, its result line prints above it', async () => {
      replay = await startReplayServer([{body: openaiToolCall('call_1', 'slow', {})}, {body: openaiText(['after ', 'the tool.'])}, {body: openaiText(['queued ', 'answer.'])}])
      const tool = gatedTool()
      run = new JpRun({baseUrl: `${replay.url}/v1`, toml: `${FAST_COUNTDOWN}${tool.toml}`})
      const r = await run.start('use the tool')
      await r.term.waitForText('Running slow')
      r.term.type('while it runs')
      await r.term.waitForText('Queue: while it runs')
      tool.finish()
      await r.term.waitForText('slow: tool-finished')
      await r.term.waitForText('after the tool.')
      await promptAtBottom(r.term, 'Queue: while it runs')
      r.term.send(keys.enter)
      await finishedOk(r)
      expect(replay.requests).to.have.length(3)
      expect((replay.requests[2].json() as {messages: Msg[]}).messages.at(-1)).to.deep.equal({role: 'user', content: 'while it runs'})
    })

    it('interrupt.type_to_queue = false: typed keys open nothing and are never echoed into the answer', async () => {
      const first = held(40)
      const r = await start([first], {toml: '[interrupt]\ntype_to_queue = false\n'})
      await r.term.waitForText('w3 ')
      r.term.type('xyzzy plugh')
      // The keys reach jp while the answer streams (held), before the rest comes.
      await r.term.settle(200)
      server!.release()
      await r.term.waitForText('w39')
      const res = await finishedOk(r)
      expect(allRows(r.term).join('\n')).not.to.include('xyzzy')
      expect(shownAnswer(r.term, 'w0 ', '\u0000')).to.equal(fullText(first).trim())
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('no key typed during a query is echoed, Ctrl+C included (no ^C in the answer)', async () => {
      const first = held(40)
      const r = await start([first])
      await r.term.waitForText('w3 ')
      // Arrow keys and Alt keys open no prompt; they must not show either.
      r.term.send(keys.up + keys.alt('b') + keys.left)
      r.term.send(keys.ctrlC)
      await r.term.waitForText(MENU)
      r.term.send('c')
      const res = await finishedOk(r)
      const all = allRows(r.term).join('\n')
      expect(all).not.to.include('^C')
      expect(all).not.to.include('^[')
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })
  })

  describe('keys typed in one go with a menu key', () => {
    it('rhello⏎ in one write: the reply prompt r opens gets "hello" and sends it', async () => {
      const r = await start([LONG, SHORT])
      await r.term.waitForText('w3 ')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(MENU)
      r.term.send('rhello\r')
      await finishedOk(r)
      expect(server!.requests).to.have.length(2)
      expect(users(1).at(-1)).to.equal('hello')
    })

    it('qhello⏎ in one write: queued', async () => {
      const r = await start([held(40), SHORT], {toml: FAST_COUNTDOWN})
      await r.term.waitForText('w3 ')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(MENU)
      r.term.send('qhello\r')
      await draftHolds(r, 'hello')
      await finishedOk(r)
      expect(server!.completed[0]).to.equal(true)
      expect(users(1).at(-1)).to.equal('hello')
    })
  })

  describe('pipes and formats', () => {
    it('without a terminal (a plain pipe, as CI) nothing changes: no slot, no type-ahead read, the draft untouched, stdout the answer alone', async () => {
      const answer: SlowResponse = {text: words(30), intervalMs: 20}
      server = await startSlowServer([SHORT, answer])
      const sb = makeSandbox()
      cleanups.push(() => sb.cleanup())
      mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
      writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml'), `[assistant.model]\nid = "llamacpp/x"\n[providers.llm.llamacpp]\nbase_url = "${server.baseUrl}"\n`)
      // A conversation whose draft an earlier run left: text and a TOML block.
      const first = await runJp(['query', '-n', 'first question'], {sandbox: sb})
      expect(first.code, first.stderr).to.equal(0)
      const store = new ConversationStore(await findWorkspace({cwd: sb.cwd, env: sb.env}), {env: sb.env})
      const draftPath = store.draftPath((await store.activeId()) ?? null)
      const draft = buildQueryDocument({query: 'left from before', configToml: '[assistant]\nsystem_prompt = "kept"'})
      mkdirSync(dirname(draftPath), {recursive: true})
      writeFileSync(draftPath, draft)
      const before = statSync(draftPath)
      // What a user types while the answer streams, on a stdin that is a pipe; runJp starts jp in a
      // session of its own, so there is no /dev/tty to read type-ahead from.
      const typed = 'qhello\nr more\n'
      const r = await runJp(['query', 'second question'], {sandbox: sb, input: typed})
      expect([r.code, r.stderr]).to.deep.equal([0, ''])
      // stdout: the answer's bytes and nothing else (no Queue: prompt, no countdown, no echo).
      expect(r.stdout).to.equal(fullText(answer) + '\n')
      // The piped keys are the query's text, as stdin always was; none went to a queued reply.
      expect(server.requests).to.have.length(2)
      expect(users(1).at(-1)).to.equal(`second question\n\n${typed.trim()}`)
      // The draft is the earlier run's, byte for byte, never rewritten.
      expect(readFileSync(draftPath, 'utf8')).to.equal(draft)
      const after = statSync(draftPath)
      expect([after.ino, after.mtimeMs]).to.deep.equal([before.ino, before.mtimeMs])
    })

    it('jp q --format json … | jq: jq survives, stdout carries only events, a queued_reply event when it is sent', async function () {
      requireProgram(this, 'jq', 'jq')
      const first = held(40)
      const r = await start([first, SHORT], {toml: FAST_COUNTDOWN, redirect: 'pipe', consumer: 'jq -c .', args: ['--format', 'json']})
      await r.term.waitFor(() => server!.requests.length === 1, 'the request')
      await sleep(300)
      r.term.type('via the pipe')
      await r.term.waitForText('Queue: via the pipe')
      r.term.send(keys.enter)
      const res = await finishedOk(r)
      const events = res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as {type: string; text?: string})
      expect(events.filter((e) => e.type === 'queued_reply')).to.deep.equal([{type: 'queued_reply', delivered: 'turn_end', text: 'via the pipe'}])
      const text = events.filter((e) => e.type === 'text').map((e) => e.text).join('')
      expect(text).to.equal(fullText(first) + 'short answer.')
      expect(users(1).at(-1)).to.equal('via the pipe')
    })
  })
})
