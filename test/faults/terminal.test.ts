// Fault suite in a real terminal (SPEC §1 invariants 6 and 7): a provider
// that breaks off mid-stream, and an editor killed with SIGKILL while the
// user composes a reply. What the user typed survives, and `stty -a` after
// jp exits is what it was before.
import {expect} from 'chai'
import {readFileSync, rmSync} from 'node:fs'
import {keys} from '../helpers/pty.js'
import {openaiText} from '../helpers/openai-stream.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {startSlowServer, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {type GatedServer, startGatedServer} from './harness.js'
import {PROBE, readProbe} from './probe.js'

describe('faults: in a terminal', function () {
  this.timeout(60_000)
  let run: JpRun | undefined
  let gated: GatedServer | undefined
  let slow: SlowServer | undefined
  /** Files a test made outside any sandbox: removed after it, passed or failed. */
  const leftovers: string[] = []

  afterEach(async () => {
    for (const f of leftovers.splice(0)) rmSync(f, {force: true})
    run?.dispose()
    run = undefined
    await gated?.close()
    await slow?.close()
    gated = undefined
    slow = undefined
  })

  it('a connection dropped mid-stream: one error line on the terminal, partial stored, terminal restored', async () => {
    const body = openaiText(['visible ', 'then gone'])
    const cut = body.lastIndexOf('data: {', body.indexOf('then gone'))
    gated = await startGatedServer(async (_n, _req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write(body.slice(0, cut))
      await new Promise((r) => setTimeout(r, 50))
      res.socket?.destroy()
    })
    run = await new JpRun({baseUrl: `${gated.url}/v1`}).start('hello')
    const res = await run.finish()
    const screen = run.term.screenText()
    expect(res.code, screen).to.equal(1)
    expect(screen).to.include('visible')
    const errors = screen.split('\n').filter((l) => l.startsWith('Error: '))
    expect(errors, screen).to.have.length(1)
    expect(errors[0]).to.match(/^Error: llamacpp: (connection lost mid-stream|the stream ended before the response was complete)/)
    const stored = (await run.events()).filter((e) => e.type === 'chat_response').map((e) => (e as {message?: string}).message)
    expect(stored).to.deep.equal(['visible '])
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('the editor is SIGKILLed during Ctrl+X at the reply prompt: the typed reply is kept and sent, terminal restored', async () => {
    const words = Array.from({length: 60}, (_, i) => `w${i} `)
    slow = await startSlowServer([{text: words, intervalMs: 80}, {text: ['ok.'], intervalMs: 5}])
    const record = `${process.env.TMPDIR ?? '/tmp'}/jp-fault-probe-${process.pid}-${Date.now()}.log`
    leftovers.push(record)
    run = await new JpRun({baseUrl: slow.baseUrl, env: {JP_EDITOR: PROBE, PROBE_SIGNAL: 'KILL', PROBE_RECORD: record}}).start()
    await run.term.waitForText('w3 ')
    run.term.send(keys.ctrlC)
    await run.term.waitForText('Interrupted [c,r,q,s,a,?]')
    run.term.send('r')
    await run.term.waitForText('Ctrl+X')
    run.term.type('my precious reply')
    run.term.markOutput()
    run.term.send(keys.ctrlX)
    // The editor ran (and died) on a temp file; the prompt comes back with the buffer.
    await run.poll(() => {
      try {
        return readProbe(record).path !== undefined
      } catch {
        return false
      }
    }, 'the probe editor to run')
    // Keys typed while the editor owns the terminal would go to it: wait for the prompt to be drawn again.
    const replyLines = () => run!.term.screenText().split('\n').filter((l) => l.startsWith('Reply: my precious reply'))
    // Drawn again in place after the editor: one copy (issue 17, finding 10).
    await run.term.waitFor(
      () => run!.term.outputSinceMark().includes('my precious reply') && replyLines().length === 1,
      'the reply prompt re-shown with the typed text',
    )
    run.term.send(keys.enter)
    const res = await run.finish()
    expect(res.code, run.term.screenText()).to.equal(0)
    const last = slow.requests[1].json().messages.at(-1)
    expect(last).to.deep.equal({role: 'user', content: 'my precious reply'})
    const seen = readProbe(record)
    expect(seen.file_mode).to.equal('600')
    expect(() => readFileSync(seen.path)).to.throw(/ENOENT/)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })
})
