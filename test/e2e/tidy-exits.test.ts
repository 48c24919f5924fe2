// Every exit ends the terminal line cleanly, and the ladder holds from the
// command's first line (issue 23, finding 6): bin/run.js in a real
// pseudo-terminal (JpRun: `sh -c`, status and stty read inside the session),
// real keys and signals. Each test failed on the code before the fix, but
// SIGTERM at the streaming menu, which guards that a menu ends as tidily.
import {expect} from 'chai'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ROOT, runJp} from '../helpers/cli.js'
import {keys} from '../helpers/pty.js'
import {startSlowServer, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {teardownAfterEach} from '../helpers/teardown.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'

const HOLDER = join(ROOT, 'test/conversation/fixtures/store-child.ts')
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
const FALLBACK_MENU = 'Interrupted [c,s,?]'
const HELP = 'Enter to send'

describe('e2e: tidy exits and the ladder from the first line (issue 23, finding 6)', function () {
  this.timeout(60_000)
  const teardown = teardownAfterEach()

  /** jp against a local server streaming `script`. */
  async function jp(script: SlowResponse[], args: string[] = []): Promise<{server: SlowServer; run: JpRun}> {
    const server = teardown.server(await startSlowServer(script))
    return {server, run: teardown.run(new JpRun({baseUrl: server.baseUrl, args}))}
  }

  async function streaming(args: string[] = []): Promise<JpRun> {
    return (await jp([{text: words(300), intervalMs: 5, hold: 24 /* held until the test ends jp: no pacing to wait through */}], args)).run.start()
  }

  /** The line jp left the cursor on is ended: the shell's next output starts at column 0. */
  function lineEnded(r: JpRun): void {
    expect(r.term.cursor().x, JSON.stringify(r.term.screen())).to.equal(0)
  }

  for (const how of ['Ctrl+\\', 'SIGQUIT'] as const) {
    it(`${how} with the reply prompt open: 131, the prompt's line ended and its help line gone`, async () => {
      const r = await streaming()
      await r.replyAtMenu('abc', {submit: false})
      await r.term.waitForText(HELP)
      if (how === 'SIGQUIT') process.kill(r.jpPid(), 'SIGQUIT')
      else r.term.send('\x1c')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(131)
      expect(r.term.screenText()).to.match(/^Reply: abc$/m)
      expect(r.term.screenText()).not.to.include(HELP)
      lineEnded(r)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })
  }

  it('SIGTERM while the answer streams: 143, and the cut answer ends its line', async () => {
    const r = await streaming()
    await r.term.waitForText('w5 ')
    process.kill(r.jpPid(), 'SIGTERM')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(143)
    lineEnded(r)
  })

  it('SIGTERM with the streaming menu open: 143, the menu line ended, the answer so far saved', async () => {
    const r = await streaming()
    await r.term.waitForText('w3 ')
    r.term.send(keys.ctrlC)
    await r.term.waitForText('Interrupted [c,r,q,s,a,?]')
    process.kill(r.jpPid(), 'SIGTERM')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(143)
    expect(r.term.screenText()).to.match(/^Interrupted \[c,r,q,s,a,\?\]\s*$/m)
    lineEnded(r)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
    expect(await r.savedAnswer()).to.include('w0 w1 w2 w3')
  })

  describe('the lock wait', () => {
    async function heldConversation(): Promise<{r: JpRun; release(): void}> {
      const {run} = await jp([{text: ['first.'], intervalMs: 5}, {text: ['second.'], intervalMs: 5}])
      const sb = run.sb
      expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
      expect((await runJp(['query', 'one'], {sandbox: sb})).code).to.equal(0)
      const id = (await new ConversationStore(await findWorkspace({cwd: sb.cwd, env: sb.env}), {env: sb.env}).activeId())!
      const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER, 'hold', sb.cwd, id], {cwd: ROOT, env: sb.env, stdio: ['pipe', 'pipe', 'inherit']})
      teardown.add(() => holder.kill())
      await new Promise<void>((resolve) => holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()))
      const r = await run.start('two')
      await r.term.waitForText('Conversation in use by another jp, waiting')
      return {r, release: () => holder.stdin.write('release\n')}
    }

    it('Ctrl+C is a first press (the fallback menu); Ctrl+C there shuts down: 130, the status line gone', async () => {
      const {r} = await heldConversation()
      r.term.send(keys.ctrlC)
      await r.term.waitForText(FALLBACK_MENU)
      r.term.send(keys.ctrlC)
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(130)
      expect(r.term.screenText()).not.to.include('⏱')
      lineEnded(r)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('s at that menu stops (q means nothing there): nothing sent, 130, the status line gone', async () => {
      const {r} = await heldConversation()
      r.term.send(keys.ctrlC)
      await r.term.waitForText(FALLBACK_MENU)
      r.term.send('q')
      await r.term.waitForText('Invalid option')
      r.term.send('s')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(130)
      expect(r.term.screenText()).not.to.include('second.')
      expect(r.term.screenText()).not.to.include('⏱')
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })

    it('c at that menu goes on waiting; the lock comes free and the query runs: 0', async () => {
      const {r, release} = await heldConversation()
      r.term.send(keys.ctrlC)
      await r.term.waitForText(FALLBACK_MENU)
      r.term.send('c')
      release()
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(r.term.screenText()).to.include('second.')
      expect(r.term.screenText()).not.to.include('⏱')
    })
  })

  describe('the config load', () => {
    /** One of jp's threads is blocked opening the FIFO (the kernel's wait for a writer). */
    function reading(r: JpRun): boolean {
      try {
        const pid = r.jpPid()
        return readdirSync(`/proc/${pid}/task`).some((tid) => {
          try {
            return readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8') === 'wait_for_partner'
          } catch {
            return false
          }
        })
      } catch {
        // jp not started yet
        return false
      }
    }

    /** `--cfg FIFO`: reading the config blocks until the test writes it. */
    function fifo(): string {
      const dir = mkdtempSync(join(tmpdir(), 'jp-fifo-'))
      teardown.add(() => rmSync(dir, {recursive: true, force: true}))
      const path = join(dir, 'late.toml')
      expect(spawnSync('mkfifo', [path]).status).to.equal(0)
      return path
    }

    it('Ctrl+C while the config is read is a first press (the fallback menu); c goes on and the query runs once it is read: 0', async () => {
      const cfg = fifo()
      const r = await (await jp([{text: ['configured.'], intervalMs: 5}], ['--cfg', cfg])).run.start('hi')
      await r.poll(() => reading(r), 'jp reading the config')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(FALLBACK_MENU)
      r.term.send('c')
      writeFileSync(cfg, 'interrupt.escalation_cooldown_secs = 1\n')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(r.term.screenText()).to.include('configured.')
    })

    it('… and Ctrl+C twice there: a graceful shutdown (130) that sends nothing, the terminal as it was', async () => {
      const cfg = fifo()
      const {server, run} = await jp([{text: ['never'], intervalMs: 5}], ['--cfg', cfg])
      const r = await run.start('hi')
      await r.poll(() => reading(r), 'jp reading the config')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(FALLBACK_MENU)
      r.term.send(keys.ctrlC)
      await r.term.waitForText('Shutting down')
      // Node's exit waits for the read blocked on the FIFO: the slow disk answers at last.
      writeFileSync(cfg, 'interrupt.escalation_cooldown_secs = 1\n')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(130)
      expect(server.requests).to.have.length(0)
      lineEnded(r)
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })
  })
})
