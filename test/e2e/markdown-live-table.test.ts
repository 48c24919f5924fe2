// A table streams (issue 40, "rendering nobody waits for"): while its last
// line is not known, its rows so far are drawn in a live region below the
// answer (markdown/render.ts `preview`, printer.ts `setLive`), redrawn as
// rows come, and replaced by the table drawn once when it ends. bin/run.js
// in a real pty against a local OpenAI-format server that holds the rest of
// the answer until the test lets it go: the rows sent show before the table
// ends, and what the terminal holds at the end (screen and scrollback) is
// what the same answer sent at once leaves: no preview row stays behind.
import {expect} from 'chai'
import {createServer} from 'node:http'

import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {listenLocal, type LocalServer} from '../helpers/local-server.js'
import {openaiText} from '../helpers/openai-stream.js'
import {HAND_OFF_AFTER} from '../../src/lib/printer/hand-off.js'

/** The SSE of `pieces`, the events after the first `held` of them sent only once `release()` is called. */
async function gatedServer(pieces: string[], held: number): Promise<LocalServer & {release(): void}> {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const events = openaiText(pieces).split(/(?<=\n\n)/)
  // The role event comes first, then one per piece.
  const cut = held === pieces.length ? events.length : 1 + held
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'})
      res.write(events.slice(0, cut).join(''))
      void gate.then(() => res.end(events.slice(cut).join('')))
    })
  })
  return {...(await listenLocal(server)), release}
}

/** Every row the terminal holds, scrollback included, right-trimmed, trailing blank rows dropped. */
function allRows(run: JpRun): string[] {
  const buf = run.term.terminal.buffer.active
  const rows: string[] = []
  for (let i = 0; i < buf.length; i++) rows.push(buf.getLine(i)?.translateToString(true) ?? '')
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop()
  return rows
}

const TABLE_HEAD = '| Name | Size | Notes |\n|---|---:|---|\n'
const row = (n: number, name = `row${n}`) => `| ${name} | ${n} | note ${n} |\n`

describe('e2e: a table streams in a live region, replaced by the table when it ends', function () {
  this.timeout(120_000)
  const open: {server: LocalServer; run: JpRun}[] = []
  afterEach(async () => {
    for (const {server, run} of open.splice(0)) {
      run.dispose()
      await server.close()
    }
  })

  /** The rows jp leaves for `before` + `rest` (sent at once, or `rest` held until `whileHeld` resolves), from the row holding `from`. */
  async function leaves(before: string, rest: string, size: {cols: number; rows: number}, whileHeld?: (run: JpRun) => Promise<void | (() => Promise<void>)>): Promise<string[]> {
    const pieces = [...(before.match(/[^]{1,7}/g) ?? []), ...(rest.match(/[^]{1,7}/g) ?? [])]
    const server = await gatedServer(pieces, whileHeld ? (before.match(/[^]{1,7}/g) ?? []).length : pieces.length)
    const run = new JpRun({baseUrl: server.baseUrl, ...size})
    open.push({server, run})
    await run.start()
    const afterRelease = whileHeld && (await whileHeld(run))
    server.release()
    if (afterRelease) await afterRelease()
    const done = await run.finish(60_000)
    expect(done.code).to.equal(0)
    const rows = allRows(run)
    return rows.slice(rows.findIndex((r) => r.includes('Intro')))
  }

  for (const [where, prefix] of [
    ['on the main thread', ''],
    ['on the render worker (after the hand-off)', 'Padding words for the hand-off to the render worker.\n\n'.repeat(Math.ceil((HAND_OFF_AFTER * 1.5) / 52))],
  ] as const) {
    it(`${where}: rows show before the table's last line, and the end leaves what the whole table sent at once leaves`, async () => {
      const before = prefix + 'Intro line.\n\n' + TABLE_HEAD + row(1) + row(2, 'beta')
      const rest = row(3, 'gamma-with-a-much-longer-name') + '\nAfter the table.\n'
      const size = {cols: 80, rows: 24}
      const streamed = await leaves(before, rest, size, async (run) => {
        // The table is not complete (its last row and the blank line after it are held): its rows show anyway.
        await run.term.waitForText(/│ beta +│/, 20_000)
        await run.term.waitForText(/│ row1 +│/, 20_000)
      })
      const atOnce = await leaves(before, rest, size)
      expect(streamed.join('\n')).to.equal(atOnce.join('\n'))
      // The finished table, once: its header and each row on one line each, widened by the last row.
      const tableRows = streamed.filter((r) => r.includes('│'))
      expect(tableRows.filter((r) => r.includes('Name'))).to.have.length(1)
      expect(tableRows.filter((r) => r.includes('beta'))).to.have.length(1)
      expect(tableRows.find((r) => r.includes('beta'))).to.match(/│ beta {24,}│/)
      expect(streamed.filter((r) => r.includes('After the table.'))).to.have.length(1)
    })
  }

  it('Ctrl+C while a table is live: the menu opens below the table drawn once (the live rows gone), and c goes on', async () => {
    const before = 'Intro line.\n\n' + TABLE_HEAD + row(1) + row(2, 'beta')
    const rest = row(3) + '\nAfter the table.\n'
    const rows = await leaves(before, rest, {cols: 80, rows: 24}, async (run) => {
      await run.term.waitForText(/│ beta +│/, 20_000)
      run.term.send('\x03')
      await run.term.waitForText('Interrupted [c,r,q,s,a,?]')
      const screen = run.term.screen()
      const menu = screen.findIndex((r) => r.includes('Interrupted'))
      const above = screen.slice(0, menu)
      // The cut drew the table as it stood; no row of the live region is left besides it.
      expect(above.filter((r) => r.includes('Name')), above.join('\n')).to.have.length(1)
      expect(above.filter((r) => r.includes('beta'))).to.have.length(1)
      expect(screen.slice(menu + 1).filter((r) => r.includes('│'))).to.deep.equal([])
      run.term.send('c')
    })
    expect(rows.filter((r) => r.includes('After the table.'))).to.have.length(1)
  })

  it('typing opens the Queue: prompt while a table is live: the table prints above it, once, when it ends', async () => {
    const before = 'Intro line.\n\n' + TABLE_HEAD + row(1) + row(2, 'beta')
    const rest = row(3, 'gamma') + '\nAfter the table.\n'
    const rows = await leaves(before, rest, {cols: 80, rows: 24}, async (run) => {
      await run.term.waitForText(/│ beta +│/, 20_000)
      run.term.send('x')
      await run.term.waitForText('Queue: x')
      // Nothing live under a prompt: the table waits for its end.
      expect(run.term.screenText()).to.not.match(/│ beta +│/)
      return async () => {
        await run.term.waitForText('After the table.')
        // Ctrl+C closes the prompt, nothing is queued: the run ends.
        run.term.send('\x03')
      }
    })
    for (const name of ['Name', 'row1 ', 'beta', 'gamma', 'After the table.']) expect(rows.filter((r) => r.includes(name)), name).to.have.length(1)
  })

  it('a table taller than the screen shows its newest rows live, and leaves the finished table once in the scrollback', async () => {
    let body = ''
    for (let n = 1; n <= 30; n++) body += row(n)
    const before = 'Intro line.\n\n' + TABLE_HEAD + body
    const rest = row(31, 'last-row-wider-than-the-others') + '\nAfter the table.\n'
    const size = {cols: 80, rows: 12}
    const streamed = await leaves(before, rest, size, async (run) => {
      await run.term.waitForText(/│ row30 +│/, 20_000)
      // The live region fits the screen: its newest rows show, the top of the table is not yet drawn.
      expect(run.term.screenText()).to.not.include('row1 ')
    })
    const atOnce = await leaves(before, rest, size)
    expect(streamed.join('\n')).to.equal(atOnce.join('\n'))
    for (const name of ['Name', 'row1 ', 'row17 ', 'row30 ', 'last-row-wider']) expect(streamed.filter((r) => r.includes(name)), name).to.have.length(1)
  })
})
