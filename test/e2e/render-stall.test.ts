// Saving never waits for the screen, and no signal waits for a render (SPEC
// §19, issue 34): with the render worker stalled forever (the
// JP_TEST_STALL_RENDER fault seam in markdown/render-thread.ts: alive, still
// beating, so it is never taken for dead — anything that waits for it waits
// forever), every received event is still journalled — the saved answer runs
// ahead of the screen — Ctrl+C opens the menu while the render is still
// stalled, SIGTERM and SIGHUP end jp gracefully, SIGKILL loses at most the
// last second. (How long an answer takes is a bench row: bench/signal-stall.ts.)
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

  /**
   * Waits until the saved answer (read from the journal while jp runs) holds
   * slow paragraphs the screen does not — the renderer is stalled: where
   * depends on when the worker booted, so the first unshown one is looked
   * for — and returns the text of one of them (`Slow pN here.`).
   */
  async function savedAheadOfScreen(r: JpRun): Promise<string> {
    const end = Date.now() + 30_000
    for (;;) {
      const saved = await r.savedAnswer().catch(() => '')
      const shown = r.term.output()
      const unshown = [...saved.matchAll(/Slow p(\d+) here\.\n/g)].map((m) => Number(m[1])).filter((n) => !shown.includes(`Slow p${n} `))
      if (unshown.length >= 5) return `Slow p${unshown[4]} here.`
      if (Date.now() > end) throw new Error(`never saved ahead of the screen; screen:\n${r.term.screenText()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  it('Ctrl+C opens the menu while the render is still stalled; s saves the partial answer, and shows it plain', async () => {
    const r = await start()
    const ahead = await savedAheadOfScreen(r)
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    // The menu did not wait for the render (nor give it up and show its text plain first).
    expect(r.term.output().split(MENU)[0], 'shown before the menu').not.to.include(ahead)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(await r.savedAnswer()).to.include(ahead)
    // What the stuck render had is shown plain once the answer is cut: nothing saved is missing from the screen.
    expect(r.term.output().split(MENU).at(-1)).to.include(ahead)
  })

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: a graceful exit (${code}) with the partial answer saved, the stalled render not waited for`, async () => {
      const r = await start()
      const ahead = await savedAheadOfScreen(r)
      r.term.kill(signal)
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(code)
      expect(await r.savedAnswer()).to.include(ahead)
    })
  }

  it('SIGKILL: what was journalled before it is kept', async () => {
    const r = await start()
    const ahead = await savedAheadOfScreen(r)
    r.term.kill('SIGKILL')
    await r.finish().catch(() => undefined)
    expect(await r.savedAnswer()).to.include(ahead)
  })
})
