// inlineSelect in a real pseudo-terminal: single-key answers, help, invalid
// keys, the default, Ctrl+C vs Esc, multi-line messages.
import {expect} from 'chai'
import {fixture, keys, spawnPty, tempDir, TSX, tsxArgs, type PtySession} from '../../helpers/pty.js'

const MENU = {
  message: 'Interrupted',
  options: [
    {key: 'c', description: 'Continue'},
    {key: 'r', description: 'Reply'},
    {key: 's', description: 'Stop'},
    {key: 'a', description: 'Abort'},
  ],
}

describe('inlineSelect (pty)', function () {
  this.timeout(20_000)
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

  async function run(config: unknown): Promise<PtySession> {
    term = await spawnPty(tsxArgs(fixture('select.ts'), JSON.stringify(config)), {env: {JP_TEST_DIR: tmp.dir}})
    await term.waitForText('[c,r,s,a,?]'.replace('c,r,s,a', (config as typeof MENU).options.map((o) => o.key).join(',')))
    return term
  }

  async function result(t: PtySession): Promise<unknown> {
    const status = await t.waitForExit()
    expect(status.exitCode).to.equal(0)
    return JSON.parse(tmp.read('result.json'))
  }

  for (const key of ['c', 'r', 's', 'a']) {
    it(`answers '${key}' on a single key press, without Enter`, async () => {
      const t = await run(MENU)
      expect(t.screen()[0]).to.equal('Interrupted [c,r,s,a,?] ')
      t.send(key)
      expect(await result(t)).to.deep.equal({key})
      expect(t.screen()[0]).to.equal(`Interrupted [c,r,s,a,?] ${key}`)
    })
  }

  it('prints key - description lines on ? and asks again', async () => {
    const t = await run(MENU)
    t.send('?')
    await t.waitForText('? - print help')
    const screen = t.screenText()
    expect(screen).to.contain('c - Continue\nr - Reply\ns - Stop\na - Abort\n? - print help\nInterrupted [c,r,s,a,?]')
    t.send('s')
    expect(await result(t)).to.deep.equal({key: 's'})
  })

  it('prints Invalid option and the help on an unknown key, then still answers', async () => {
    const t = await run(MENU)
    t.send('z')
    await t.waitForText('Invalid option')
    expect(t.screenText()).to.match(/Invalid option\nc - Continue\n[\s\S]*\? - print help\nInterrupted \[c,r,s,a,\?\] $/m)
    t.send('c')
    expect(await result(t)).to.deep.equal({key: 'c'})
  })

  it('picks the default on Enter', async () => {
    const t = await run({...MENU, default: 'r'})
    t.send(keys.enter)
    expect(await result(t)).to.deep.equal({key: 'r'})
  })

  it('asks again on Enter without a default', async () => {
    const t = await run(MENU)
    t.send(keys.enter)
    await t.waitFor(() => t.screen().filter((l) => l.startsWith('Interrupted [')).length === 2, 'second prompt')
    t.send('a')
    expect(await result(t)).to.deep.equal({key: 'a'})
  })

  it('rejects Ctrl+C as interrupted and Esc as cancelled', async () => {
    let t = await run(MENU)
    t.send(keys.ctrlC)
    expect(await result(t)).to.include({error: 'PromptCancelledError', reason: 'interrupted'})
    t.dispose()
    t = await run(MENU)
    t.send(keys.escape)
    expect(await result(t)).to.include({error: 'PromptCancelledError', reason: 'cancelled'})
  })

  it('treats an Alt-prefixed key as not-Esc (ESC followed by a key within the timeout)', async () => {
    const t = await run(MENU)
    t.send('\x1bx')
    await t.waitForText('Invalid option')
    t.send('c')
    expect(await result(t)).to.deep.equal({key: 'c'})
  })

  it('prints a multi-line message body first and prompts on its last line', async () => {
    const t = await run({...MENU, message: 'diff --git a/x b/x\n+added line\nApply this change?'})
    expect(t.screen().slice(0, 3)).to.deep.equal(['diff --git a/x b/x', '+added line', 'Apply this change? [c,r,s,a,?] '])
    t.send('?')
    await t.waitForText('? - print help')
    // The body is not repeated when asking again.
    expect(t.screenText().match(/diff --git/g)).to.have.length(1)
    t.send('a')
    expect(await result(t)).to.deep.equal({key: 'a'})
  })

  it('accepts case-distinct keys (y/Y/n/N)', async () => {
    const t = await run({
      message: 'Run local tool x?',
      options: [
        {key: 'y', description: 'Run tool'},
        {key: 'Y', description: 'Run tool, remember'},
        {key: 'n', description: 'Skip'},
      ],
    })
    t.send('Y')
    expect(await result(t)).to.deep.equal({key: 'Y'})
  })

  it('leaves the terminal settings as it found them', async () => {
    term = await spawnPty(['-c', `stty -a > before; "$0" --import "$1" "$2" "$3"; stty -a > after`, process.execPath, TSX, fixture('select.ts'), JSON.stringify(MENU)], {
      file: '/bin/sh',
      cwd: tmp.dir,
      env: {JP_TEST_DIR: tmp.dir},
    })
    await term.waitForText('[c,r,s,a,?]')
    expect(term.stty()).to.not.equal(tmp.read('before').split('\n').slice(1).join('\n'))
    term.send('c')
    await term.waitForExit()
    expect(tmp.read('after')).to.equal(tmp.read('before'))
  })
})
