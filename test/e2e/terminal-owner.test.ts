// One owner of the terminal (SPEC §17, issue 17 findings 5, 6, 8, 9, 10):
// bin/run.js in a real pseudo-terminal rendered by xterm, real key bytes and
// real script editors that misbehave the way real editors do (killed in raw
// mode in the alternate screen; a client whose server tears the terminal
// down after the client exited). The assertions are on what the user sees.
import {expect} from 'chai'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {keys} from '../helpers/pty.js'
import type {SlowResponse, SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun, REPLY_EDITOR, startAgainst, type JpRunOptions} from '../fixtures/e2e/interrupt-run.js'

const MENU = 'Interrupted [c,r,q,s,a,?]'
const KILLED_RAW = join(ROOT, 'test/fixtures/editors/killed-raw.sh')
const LATE_TEARDOWN = join(ROOT, 'test/fixtures/editors/late-teardown.sh')
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
/** A long answer holding after its 24th word (never released: every test cuts it with a reply). */
const SLOW: SlowResponse = {text: words(60), intervalMs: 5, hold: 24}
const SHORT: SlowResponse = {text: ['short ', 'answer.'], intervalMs: 5}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Msg = {role: string; content: unknown}

describe('e2e: one owner of the terminal (issue 17)', function () {
  this.timeout(60_000)
  let server: SlowServer
  let run: JpRun | undefined

  afterEach(async () => {
    try {
      run?.dispose()
    } catch {
      // A jp that hung (on the old code) may still be writing its sandbox.
    }
    run = undefined
    await server?.close()
  })

  async function start(script: SlowResponse[], opts: Omit<JpRunOptions, 'baseUrl'> = {}): Promise<JpRun> {
    ;({server, run} = await startAgainst(script, opts))
    return run
  }

  /** Streams a few words, Ctrl+C, `r`, types `text` at the reply prompt. */
  const atReply = (r: JpRun, text: string) => r.replyAtMenu(text, {submit: false})

  const rows = (r: JpRun, re: RegExp) => r.term.screen().filter((l) => re.test(l))
  const lastUserMessage = (i: number) => (server.requests[i].json().messages as Msg[]).at(-1)

  it('finding 5: vi mode — Esc and a mode key repaint the prompt only; the streamed answer above stays on screen', async () => {
    const r = await start([SLOW, SHORT], {args: ['--cfg', 'editor.inline.edit_mode="vi"']})
    await atReply(r, 'abc')
    r.term.markOutput()
    r.term.send(keys.escape)
    await sleep(150)
    r.term.send('i')
    await sleep(150)
    r.term.send(keys.escape)
    await r.term.waitForText('vi normal')
    expect(r.term.outputSinceMark()).not.to.include('\x1b[2J')
    expect(r.term.screenText()).to.include('w0 w1 w2 w3')
    expect(rows(r, /^Reply: abc/)).to.have.length(1)
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUserMessage(1)).to.deep.equal({role: 'user', content: 'abc'})
  })

  it('finding 6: a notice while the reply prompt is open prints above it on its own line; the prompt is redrawn intact with the cursor in it', async () => {
    // Configured, so it is tried; it cannot be spawned.
    const r = await start([SLOW, SHORT], {toml: '[editor]\ncmd = "/nonexistent/jp-editor-xyz"\n'})
    await atReply(r, 'keep me')
    r.term.send(keys.ctrlX)
    await r.term.waitForText("Couldn't open your editor")
    await r.term.settle(200)
    const screen = r.term.screen()
    const notice = screen.findIndex((l) => l.includes("Couldn't open your editor"))
    expect(screen[notice], r.term.screenText()).to.match(/^⚠ Couldn't open your editor/)
    expect(screen.filter((l) => l.includes('keep me') && l.includes("Couldn't")), 'prompt and notice on one row').to.deep.equal([])
    const prompt = screen.findIndex((l) => /^Reply: keep me$/.test(l))
    expect(prompt, r.term.screenText()).to.be.greaterThan(notice)
    expect(rows(r, /^Reply:/), 'copies of the prompt').to.have.length(1)
    expect(r.term.cursor()).to.deep.equal({x: 'Reply: keep me'.length, y: prompt})
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUserMessage(1)).to.deep.equal({role: 'user', content: 'keep me'})
  })

  it('finding 8: an editor killed in raw mode in the alternate screen leaves no trace — the prompt is back on the main screen, modes off, Ctrl+C and line feeds work, stty as before', async () => {
    // Paragraphs of their own: the answer is rendered as markdown on the terminal.
    const lines: SlowResponse = {text: ['line one\n\n', 'line two\n\n', ...words(60, 'x')], intervalMs: 5, hold: 26}
    const r = await start([SLOW, lines], {env: {JP_EDITOR: KILLED_RAW}})
    await atReply(r, 'keep me')
    r.term.markOutput()
    r.term.send(keys.ctrlX)
    await r.term.waitFor(() => r.term.outputSinceMark().includes('EDITOR SCREEN'), 'the editor')
    await r.term.waitFor(() => r.term.terminal.buffer.active.type === 'normal' && /^Reply: keep me$/m.test(r.term.screenText()), 'the prompt back on the main screen')
    const after = r.term.outputSinceMark()
    for (const off of ['\x1b[?1004l', '\x1b[>4m', '\x1b[?1l', '\x1b>']) expect(after, JSON.stringify(off)).to.include(off)
    expect(rows(r, /^Reply:/), 'copies of the prompt').to.have.length(1)
    r.term.send(keys.enter)
    await r.term.waitForText('x1 ')
    // Line feeds get their carriage return again.
    expect(rows(r, /^line two$/), r.term.screenText()).to.have.length(1)
    // Ctrl+C is a signal again.
    r.term.send(keys.ctrlC)
    await r.term.waitFor(() => r.term.screen().filter((l) => l.includes(MENU)).length === 2, 'the menu for the second answer')
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUserMessage(1)).to.deep.equal({role: 'user', content: 'keep me'})
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 9: a client whose server tears the terminal down after it exited (emacsclient) — jp takes the terminal back; typing and Enter work; one prompt', async () => {
    const r = await start([SLOW, SHORT], {env: {JP_EDITOR: LATE_TEARDOWN}})
    await atReply(r, 'keep me')
    r.term.markOutput()
    r.term.send(keys.ctrlX)
    await r.term.waitFor(() => r.term.outputSinceMark().includes('EMACS FRAME'), 'the editor')
    // The daemon's teardown comes 0.4 s after the client exited.
    await sleep(1500)
    r.term.type(' more')
    await r.term.waitForText('Reply: keep me more')
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUserMessage(1)).to.deep.equal({role: 'user', content: 'keep me more'})
    expect(r.term.terminal.buffer.active.type).to.equal('normal')
    expect(rows(r, /^Reply:/), 'copies of the prompt').to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 10: an editor round trip redraws the prompt in place — no stale `Reply: <old text>` line', async () => {
    const r = await start([SLOW, SHORT], {env: {JP_EDITOR: REPLY_EDITOR, REPLY_TEXT: 'from the editor'}})
    await atReply(r, 'typed inline')
    r.term.send(keys.ctrlX)
    await r.term.waitForText('Reply: from the editor')
    await r.term.settle(150)
    expect(rows(r, /^Reply:/), r.term.screenText()).to.deep.equal(['Reply: from the editor'])
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
  })

  it('finding 10: with no editor configured, Ctrl+X adds no copy of the prompt', async () => {
    const r = await start([SLOW, SHORT])
    await atReply(r, 'stay')
    r.term.send(keys.ctrlX)
    await sleep(150)
    r.term.send(keys.ctrlX)
    await r.term.settle(200)
    expect(rows(r, /^Reply:/), r.term.screenText()).to.deep.equal(['Reply: stay'])
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUserMessage(1)).to.deep.equal({role: 'user', content: 'stay'})
  })
})
