// A reply typed at the interrupt menu's prompt survives the death of jp (it
// is saved as it is typed), and an editor's final newline is not part of a
// reply (SPEC §17 "Query composition"). bin/run.js in a real pty against a
// slow local server.
import {expect} from 'chai'
import {keys} from '../helpers/pty.js'
import {startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun, REPLY_EDITOR} from '../fixtures/e2e/interrupt-run.js'

const MENU = 'Interrupted [c,r,q,s,a,?]'
const words = (n: number) => Array.from({length: n}, (_, i) => `w${i} `)
/** A long answer holding after its 24th word (never released: every test cuts it with a reply). */
const SLOW: SlowResponse = {text: words(80), intervalMs: 5, hold: 24}
const SHORT: SlowResponse = {text: ['short ', 'answer.'], intervalMs: 5}

type Msg = {role: string; content: unknown}

describe('e2e: reply drafts', function () {
  this.timeout(60_000)
  let server: SlowServer
  let run: JpRun | undefined

  afterEach(async () => {
    run?.dispose()
    run = undefined
    await server?.close()
  })

  const lastUser = (i: number) => (server.requests[i].json().messages as Msg[]).filter((m) => m.role === 'user').at(-1)!.content

  it('a reply typed when jp was SIGKILLed is the first entry Up recalls at the next reply prompt', async () => {
    server = await startSlowServer([SLOW, SLOW, SHORT])
    run = new JpRun({baseUrl: server.baseUrl})
    const r = await run.start()
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.type('the reply I never sent')
    await r.term.waitForText('the reply I never sent')
    // Saved at most about half a second behind the typing.
    await new Promise((res) => setTimeout(res, 900))
    process.kill(r.jpPid(), 'SIGKILL')
    await r.term.waitForExit(10_000)
    r.term.dispose()

    await r.start('go on')
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.send(keys.up)
    await r.term.waitFor(() => /Reply: the reply I never sent/.test(r.term.screenText()), 'the unsent reply recalled by Up')
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUser(2)).to.equal('the reply I never sent')
  })

  it("an editor's trailing newline is not sent", async () => {
    server = await startSlowServer([SLOW, SHORT])
    run = new JpRun({
      baseUrl: server.baseUrl,
      args: ['--cfg', 'interrupt.streaming.compose_in_editor=true'],
      env: {JP_EDITOR: REPLY_EDITOR, REPLY_TEXT: 'vim line 1\nvim line 2\n'},
    })
    const r = await run.start()
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    r.term.send('r')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(lastUser(1)).to.equal('vim line 1\nvim line 2')
  })
})
