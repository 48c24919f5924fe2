// Saving never waits for the screen (SPEC §19, issue 34): with the render
// worker stalled forever (the JP_TEST_STALL_RENDER fault seam in
// markdown/render-thread.ts), every received event is still journalled — the saved
// answer runs ahead of the screen — and Ctrl+C opens the menu, SIGTERM ends
// jp gracefully, SIGKILL loses at most the last second.
import {expect} from 'chai'
import {startSlowServer, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {keys} from '../helpers/pty.js'

const MENU = 'Interrupted [c,r,q,s,a,?]'
// Past the hand-off to the worker (16 kB, at a blank line), then slowly: a numbered paragraph every 20 ms.
const BURST = Array.from({length: 40}, (_, i) => `Paragraph b${i} ${'words to render '.repeat(60)}\n\n`)
const SLOW = Array.from({length: 1500}, (_, i) => `Slow p${i} here.\n\n`)

describe('e2e: a render that never ends (a stalled render worker)', function () {
  this.timeout(60_000)
  let server: SlowServer | undefined
  let run: JpRun | undefined
  afterEach(async () => {
    run?.dispose()
    run = undefined
    await server?.close()
    server = undefined
  })

  async function start(): Promise<JpRun> {
    server = await startSlowServer([{text: [...BURST, ...SLOW], intervalMs: 20, burst: BURST.length}])
    run = new JpRun({baseUrl: server.baseUrl, direct: true, env: {JP_TEST_STALL_RENDER: '1'}})
    return run.start()
  }

  /** Waits until the saved answer holds `word` (read from the journal while jp runs) and checks the screen does not: the renderer is stalled. */
  async function savedAheadOfScreen(r: JpRun, word: string): Promise<void> {
    const end = Date.now() + 30_000
    for (;;) {
      const saved = await r.savedAnswer().catch(() => '')
      if (saved.includes(word)) break
      if (Date.now() > end) throw new Error(`${word} never saved; screen:\n${r.term.screenText()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(r.term.output(), 'the stalled renderer showed it').not.to.include(word)
  }

  it('Ctrl+C opens the menu; s saves the partial answer, everything received included', async () => {
    const r = await start()
    await savedAheadOfScreen(r, 'p30 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(await r.savedAnswer()).to.include('Slow p30 here.')
  })

  it('SIGTERM: a graceful exit (143) with the partial answer saved', async () => {
    const r = await start()
    await savedAheadOfScreen(r, 'p30 ')
    r.term.kill('SIGTERM')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(143)
    expect(await r.savedAnswer()).to.include('Slow p30 here.')
  })

  it('SIGKILL: what was journalled before it is kept', async () => {
    const r = await start()
    await savedAheadOfScreen(r, 'p60 ')
    r.term.kill('SIGKILL')
    await r.finish().catch(() => undefined)
    expect(await r.savedAnswer()).to.include('Slow p60 here.')
  })
})
