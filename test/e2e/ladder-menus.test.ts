// The ladder's remaining rough edges end to end (issue 23, findings 5, 7
// and 8): bin/run.js in a real pseudo-terminal (JpRun wraps it in `sh -c`
// so stty and the exit status are read from inside the session), real
// Ctrl+C bytes, a local server streaming slowly. Each test failed on the
// code before the fix.
import {expect} from 'chai'
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {ROOT} from '../helpers/cli.js'
import {keys} from '../helpers/pty.js'
import {startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun, type JpRunOptions} from '../fixtures/e2e/interrupt-run.js'
import {teardownAfterEach} from '../helpers/teardown.js'

const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** A long answer holding after its 24th word (never released: these tests end it). */
const HELD: SlowResponse = {text: words(80), intervalMs: 5, hold: 24}
const SLOW_FSYNC = pathToFileURL(join(ROOT, 'test/fixtures/e2e/slow-fsync.mjs')).href

describe('e2e: the ladder at the reply prompt and between turn phases (issue 23)', function () {
  this.timeout(60_000)
  let slow: SlowServer | undefined
  const teardown = teardownAfterEach()

  async function start(script: SlowResponse[], opts: Omit<JpRunOptions, 'baseUrl'> = {}, query?: string): Promise<JpRun> {
    slow = teardown.server(await startSlowServer(script))
    return teardown.run(new JpRun({baseUrl: slow.baseUrl, ...opts})).start(query)
  }

  it('finding 5: interrupt.streaming.action = "reply" — a second Ctrl+C 0.3 s after the first shuts down (130), it does not resume', async () => {
    const r = await start([HELD], {toml: '[interrupt.streaming]\naction = "reply"\n'})
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Reply:')
    await sleep(300)
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Shutting down')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(130)
    expect(slow!.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('finding 5: … while a Ctrl+C at that reply after the cooldown resumes the stream', async () => {
    const r = await start([{text: words(40), intervalMs: 5, hold: 24}], {toml: '[interrupt]\nescalation_cooldown_secs = 0.2\n[interrupt.streaming]\naction = "reply"\n'})
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Reply:')
    await sleep(500)
    r.term.send(keys.ctrlC)
    // The stream, held until now, can only be shown to its end if the Ctrl+C resumed it.
    slow!.release()
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(r.term.screenText()).to.include('w39')
    expect(r.term.screenText()).not.to.include('Shutting down')
  })

  it('finding 7: a reply cancelled with Ctrl+C stays above the menu marked "(cancelled)"', async () => {
    const r = await start([HELD])
    await r.replyAtMenu('draft', {submit: false})
    r.term.send(keys.ctrlC)
    await r.term.waitFor(() => r.term.screenText().split('Interrupted [c,r,q,s,a,?]').length === 3, 'the menu again')
    expect(r.term.screenText()).to.match(/^Reply: draft \(cancelled\)$/m)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
  })

  it('finding 8: a Ctrl+C between turn phases opens [c,r,q,s,?]; r sends the reply with the query, in the same request', async () => {
    const fsyncLog = join(tmpdir(), `jp-fsync-${process.pid}-${Date.now()}.log`)
    const saved = `${fsyncLog}.go`
    teardown.add(() => rmSync(fsyncLog, {force: true}))
    teardown.add(() => rmSync(saved, {force: true}))
    slow = teardown.server(await startSlowServer([{text: ['answer to both.'], intervalMs: 5}]))
    const run = teardown.run(new JpRun({
      baseUrl: slow.baseUrl,
      // Saving waits until the reply is typed (the file `saved`), however long that takes.
      env: {NODE_OPTIONS: `--import=${SLOW_FSYNC}`, JP_TEST_SLOW_FSYNC: 'events\\.log$', JP_TEST_SLOW_FSYNC_UNTIL: saved, JP_TEST_SLOW_FSYNC_LOG: fsyncLog},
    }))
    const t = await run.start('first question')
    // The turn is saving its query (a gap: no stream, no tool).
    await t.poll(() => existsSync(fsyncLog) && readFileSync(fsyncLog, 'utf8').includes('events.log'), 'the turn saving')
    t.term.send(keys.ctrlC)
    await t.term.waitForText('Interrupted [c,r,q,s,?]')
    t.term.send('r')
    await t.term.waitForText('Reply:')
    t.term.type('and also this')
    t.term.send(keys.enter)
    // The prompt closed (its help line gone): the reply is taken; now the save may end.
    await t.term.waitForText('Enter to send')
    await t.term.waitFor(() => !t.term.screenText().includes('Enter to send'), 'the reply prompt closed')
    writeFileSync(saved, '')
    const res = await t.finish(40_000)
    expect(res.code, t.term.screenText()).to.equal(0)
    expect(slow.requests).to.have.length(1)
    const users = slow.requests[0].json().messages.filter((m) => m.role === 'user').map((m) => m.content)
    expect(users).to.deep.equal(['first question', 'and also this'])
    expect(t.term.screenText()).to.include('answer to both.')
  })
})
