// The one restore registry under SIGTERM and SIGHUP, in a real pseudo-terminal:
// an open prompt's undo is registered there (not in listeners of its own),
// one set of signal listeners exists at a time (the signal router's, or the
// registry's stand-in where no router runs), and the terminal comes back as
// it was with the exit status the signal means.
import {expect} from 'chai'
import {fixture, ptyTestContext, spawnPty, TSX, type PtySession} from '../helpers/pty.js'

describe('terminal: one restore registry under terminating signals (pty)', function () {
  this.timeout(30_000)
  const ctx = ptyTestContext()

  const script = 'stty -a > before; "$NODE" --import "$TSX" "$FIX" "$ARG"; echo "exit=$?" > status; stty -a > after'

  async function openPrompt(router: boolean, keyReader = false): Promise<PtySession> {
    const {tmp} = ctx
    const term = (ctx.term = await spawnPty(['-c', script], {
      file: '/bin/sh',
      cwd: tmp.dir,
      env: {JP_TEST_DIR: tmp.dir, NODE: process.execPath, TSX, FIX: fixture('prompt-signals.ts'), ARG: JSON.stringify({router, keyReader})},
    }))
    await term.waitForText('Reply:')
    await term.settle(100)
    // The prompt really changed the settings (raw mode): "equal after" means restored.
    expect(term.stty()).to.not.equal(tmp.read('before').split('\n').slice(1).join('\n'))
    return term
  }

  async function restored(t: PtySession): Promise<string> {
    await t.waitForExit()
    expect(ctx.tmp.read('after')).to.equal(ctx.tmp.read('before'))
    const out = t.output()
    const tail = out.slice(out.lastIndexOf('\x1b[>1u'))
    expect(tail).to.contain('\x1b[<u').and.contain('\x1b[?2004l').and.contain('\x1b[?25h')
    return ctx.tmp.read('status').trim()
  }

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} without a signal router: the registry's stand-in is the one listener, restores and the signal still ends the process (${code})`, async () => {
      const t = await openPrompt(false)
      expect(JSON.parse(ctx.tmp.read('open.json'))).to.deep.equal({sigterm: 1, sighup: 1, pending: ['prompt']})
      process.kill(Number(ctx.tmp.read('pid')), signal)
      expect(await restored(t)).to.equal(`exit=${code}`)
    })

    it(`${signal} under the signal router: the router is the one listener; the prompt ends as cancelled through the registry; exit ${code}`, async () => {
      const t = await openPrompt(true)
      expect(JSON.parse(ctx.tmp.read('open.json'))).to.deep.equal({sigterm: 1, sighup: 1, pending: ['prompt']})
      process.kill(Number(ctx.tmp.read('pid')), signal)
      expect(await restored(t)).to.equal(`exit=${code}`)
      expect(JSON.parse(ctx.tmp.read('result.json'))).to.include({type: 'cancelled'})
    })
  }

  // Every way the process can end with a prompt open and the Ctrl+C key
  // reader's mode held: both undos are in the one registry, and whichever
  // path ends the process runs them (the stty settings compared whole).
  const EXIT_PATHS: Array<{how: string; signal: NodeJS.Signals; router: boolean; code: number}> = [
    {how: 'SIGTERM, no router', signal: 'SIGTERM', router: false, code: 143},
    {how: 'SIGHUP under the router', signal: 'SIGHUP', router: true, code: 129},
    {how: 'SIGQUIT under the router', signal: 'SIGQUIT', router: true, code: 131},
    {how: 'process.exit (the third Ctrl+C, the watchdog)', signal: 'SIGUSR2', router: true, code: 7},
    {how: 'process.exit, no router', signal: 'SIGUSR2', router: false, code: 7},
    {how: 'an uncaught exception', signal: 'SIGUSR1', router: false, code: 1},
  ]
  for (const {how, signal, router, code} of EXIT_PATHS) {
    it(`every exit path restores the terminal: ${how} with a prompt open and the key reader's mode held (exit ${code})`, async () => {
      const t = await openPrompt(router, true)
      expect(JSON.parse(ctx.tmp.read('open.json')).pending).to.deep.equal(['interrupt-key', 'prompt'])
      process.kill(Number(ctx.tmp.read('pid')), signal)
      expect(await restored(t)).to.equal(`exit=${code}`)
    })
  }
})
