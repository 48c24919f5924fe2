// The one restore registry under SIGTERM and SIGHUP, in a real pseudo-terminal:
// an open prompt's undo is registered there (not in listeners of its own),
// one set of signal listeners exists at a time (the signal router's, or the
// registry's stand-in where no router runs), and the terminal comes back as
// it was with the exit status the signal means.
import {expect} from 'chai'
import {fixture, spawnPty, tempDir, TSX, type PtySession} from '../helpers/pty.js'

describe('terminal: one restore registry under terminating signals (pty)', function () {
  this.timeout(30_000)
  let term: PtySession | undefined
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => {
    tmp = tempDir()
  })
  afterEach(() => {
    term?.dispose()
    term = undefined
    tmp.cleanup()
  })

  const script = 'stty -a > before; "$NODE" --import "$TSX" "$FIX" "$ARG"; echo "exit=$?" > status; stty -a > after'

  async function openPrompt(router: boolean): Promise<PtySession> {
    term = await spawnPty(['-c', script], {
      file: '/bin/sh',
      cwd: tmp.dir,
      env: {JP_TEST_DIR: tmp.dir, NODE: process.execPath, TSX, FIX: fixture('prompt-signals.ts'), ARG: JSON.stringify({router})},
    })
    await term.waitForText('Reply:')
    await term.settle(100)
    // The prompt really changed the settings (raw mode): "equal after" means restored.
    expect(term.stty()).to.not.equal(tmp.read('before').split('\n').slice(1).join('\n'))
    return term
  }

  async function restored(t: PtySession): Promise<string> {
    await t.waitForExit()
    expect(tmp.read('after')).to.equal(tmp.read('before'))
    const out = t.output()
    const tail = out.slice(out.lastIndexOf('\x1b[>1u'))
    expect(tail).to.contain('\x1b[<u').and.contain('\x1b[?2004l').and.contain('\x1b[?25h')
    return tmp.read('status').trim()
  }

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} without a signal router: the registry's stand-in is the one listener, restores and the signal still ends the process (${code})`, async () => {
      const t = await openPrompt(false)
      expect(JSON.parse(tmp.read('open.json'))).to.deep.equal({sigterm: 1, sighup: 1, pending: ['prompt']})
      process.kill(Number(tmp.read('pid')), signal)
      expect(await restored(t)).to.equal(`exit=${code}`)
    })

    it(`${signal} under the signal router: the router is the one listener; the prompt ends as cancelled through the registry; exit ${code}`, async () => {
      const t = await openPrompt(true)
      expect(JSON.parse(tmp.read('open.json'))).to.deep.equal({sigterm: 1, sighup: 1, pending: ['prompt']})
      process.kill(Number(tmp.read('pid')), signal)
      expect(await restored(t)).to.equal(`exit=${code}`)
      expect(JSON.parse(tmp.read('result.json'))).to.include({type: 'cancelled'})
    })
  }
})
