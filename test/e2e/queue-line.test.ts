// The queued reply's line (SPEC §19, issue 36) in a real pseudo-terminal:
// `⧗ queued: FIRST LINE · q to edit`, dim, on the bottom row while a reply
// is queued and not yet delivered; the answer keeps printing above it; it
// is gone once the reply is delivered (the transcript shows `> reply`
// there) or kept as the draft; it is not redrawn while nothing changes;
// and it never reaches a pipe.
import {expect} from 'chai'
import {keys} from '../helpers/pty.js'
import {startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'

const words = (n: number) => Array.from({length: n}, (_, i) => `w${i} `)
const LINE = '⧗ queued: and then the tests · q to edit'
const FAST_COUNTDOWN = '[interrupt]\nqueue_countdown_secs = 0.3\n'
const lastRow = (r: JpRun) => r.term.screen().filter((l) => l !== '').at(-1)
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1

describe('e2e: the queued reply’s line (issue 36)', function () {
  this.timeout(90_000)
  let server: SlowServer | undefined
  let replay: ReplayServer | undefined
  let run: JpRun | undefined

  afterEach(async () => {
    run?.dispose()
    run = undefined
    await server?.close()
    server = undefined
    await replay?.close()
    replay = undefined
  })

  /** Types `text` while jp works (type to queue), a second line after Ctrl+J when given, and queues it. */
  async function typeToQueue(r: JpRun, text: string, second?: string): Promise<void> {
    r.term.type(text)
    await r.term.waitForText(`Queue: ${text}`)
    if (second !== undefined) {
      r.term.send('\n')
      r.term.type(second)
      await r.term.waitForText(`… ${second}`)
    }
    r.term.send(keys.enter)
    await r.term.waitFor(() => !r.term.screenText().includes('Queue:'), 'the prompt gone')
  }

  it('shown dim on the bottom row while queued; the streaming answer keeps printing above it, intact', async () => {
    // Held until the reply is queued; then the rest streams above the line.
    const answer: SlowResponse = {text: words(60), intervalMs: 5, hold: [24, 45]}
    server = await startSlowServer([answer, {text: ['short.'], intervalMs: 5}])
    run = new JpRun({baseUrl: server.baseUrl, toml: FAST_COUNTDOWN, cols: 60})
    const r = await run.start('go')
    await r.term.waitForText('w3 ')
    await typeToQueue(r, 'and then the tests', 'second line')
    await r.term.waitFor(() => lastRow(r) === LINE, 'the queue line at the bottom')
    // Dim (SGR 2) on the terminal.
    const buf = r.term.terminal.buffer.active
    const rows = r.term.screen()
    const y = rows.findLastIndex((l) => l !== '')
    expect(buf.getLine(buf.viewportY + y)?.getCell(0)?.isDim(), 'dim').to.not.equal(0)
    // The answer goes on above it, the line stays at the bottom.
    server!.release()
    await r.term.waitForText(/\bw43\b/)
    // Held again after w44 (the renderer shows up to w43 until more comes): the screen is still, the line redrawn below what came.
    await r.term.waitFor(() => lastRow(r) === LINE, 'the line at the bottom below w43')
    const screen = r.term.screen().filter((l) => l !== '')
    expect(screen.slice(0, -1).join(' ')).to.not.include('⧗')
    server!.release()
    // The answer's words, read across the rows above the line, are whole and in order.
    await r.term.waitForText('w59')
    const text = r.term.screenText()
    const shown = [...text.matchAll(/\bw(\d+)\b/g)].map((m) => Number(m[1]))
    const from = shown.indexOf(shown.find((n) => n > 5)!)
    for (let i = from + 1; i < shown.length; i++) expect(shown[i], text).to.equal(shown[i - 1] + 1)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    // Sent after the turn: the line gave way to the reply in the transcript.
    expect(r.term.screenText()).to.include('> and then the tests')
    expect(r.term.screenText()).not.to.include('⧗')
  })

  it('removed on delivery at the next step: the transcript shows the reply there instead; not redrawn while the tool runs', async () => {
    replay = await startReplayServer([{body: openaiToolCall('call_1', 'slow', {})}, {body: openaiText(['the tool ', 'said done.'])}])
    run = new JpRun({
      baseUrl: `${replay.url}/v1`,
      toml: `[conversation.tools.slow]\ncommand = {program = "sh", args = ["-c", "cat > /dev/null; sleep 2; echo tool-finished"]}\nrun = "unattended"\n`,
    })
    const r = await run.start('use the tool')
    await r.term.waitForText('Running slow')
    await typeToQueue(r, 'and then the tests')
    // The status line ticks below it; the line itself is drawn once.
    await r.term.waitFor(() => r.term.screen().filter((l) => l !== '').at(-2) === LINE && /^⏱ Running slow/.test(lastRow(r) ?? ''), 'the queue line, the status below it')
    r.term.markOutput()
    await r.term.waitForText('slow: tool-finished')
    const meanwhile = r.term.outputSinceMark()
    expect(count(meanwhile.split('slow: tool-finished')[0], 'queued:'), 'redrawn while nothing changed').to.equal(0)
    expect(count(meanwhile.split('slow: tool-finished')[0], 'Running slow'), 'the status line ticked').to.be.greaterThan(1)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    const screen = r.term.screenText()
    expect(screen).not.to.include('⧗')
    expect(screen.indexOf('> and then the tests')).to.be.greaterThan(screen.indexOf('slow: tool-finished'))
    expect(screen.indexOf('> and then the tests')).to.be.lessThan(screen.indexOf('said done.'))
    expect(replay.requests).to.have.length(2)
  })

  it('kept as the draft (s at the menu): the line goes, the notice says where the reply is', async () => {
    server = await startSlowServer([{text: words(60), intervalMs: 5, hold: 24}])
    run = new JpRun({baseUrl: server.baseUrl})
    const r = await run.start('go')
    await r.term.waitForText('w3 ')
    await typeToQueue(r, 'and then the tests')
    await r.term.waitFor(() => lastRow(r) === LINE, 'the queue line at the bottom')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Interrupted [c,r,q,s,a,?]')
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(r.term.screenText()).to.include("Your queued reply is kept as the draft: 'jp query' starts with it.")
    expect(r.term.screenText()).not.to.include('⧗')
  })

  it('stdout piped: the line is on the terminal only, never in the pipe', async () => {
    server = await startSlowServer([{text: words(80), intervalMs: 5, hold: 24}, {text: ['short.'], intervalMs: 5}])
    run = new JpRun({baseUrl: server.baseUrl, toml: FAST_COUNTDOWN, redirect: 'pipe'})
    const r = await run.start('go')
    await r.term.waitFor(() => server!.requests.length === 1, 'the request')
    await new Promise((resolve) => setTimeout(resolve, 300))
    await typeToQueue(r, 'and then the tests')
    await r.term.waitFor(() => lastRow(r) === LINE, 'the queue line at the bottom')
    server!.release()
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(res.stdout).to.include('w79')
    expect(res.stdout).to.include('short.')
    expect(res.stdout).not.to.include('queued')
    expect(res.stderr).not.to.include('queued')
  })
})
