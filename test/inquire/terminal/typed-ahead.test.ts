// Keys typed before a prompt is on the screen count (upstream @inquirer/core
// discards them for a terminal input; the vendored core is patched): the
// fixture blocks its event loop before opening the prompt while the test
// types, as a user does who answers before the menu is drawn.
import {expect} from 'chai'
import {fixture, keys, spawnPty, tempDir, tsxArgs, type PtySession} from '../../helpers/pty.js'

describe('keys typed ahead of a prompt (pty)', function () {
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

  async function typedAhead(name: string, config: Record<string, unknown>, early: string): Promise<PtySession> {
    term = await spawnPty(tsxArgs(fixture(name), JSON.stringify({...config, busyMs: 1500})), {env: {JP_TEST_DIR: tmp.dir}})
    await term.waitForText('BUSY')
    term.send(early)
    return term
  }

  it('inlineReply: text typed before the prompt opened is in the buffer', async () => {
    const t = await typedAhead('reply.ts', {message: 'Reply:'}, 'early')
    // (The terminal echoed the early keys before raw mode; only the outcome is asserted.)
    await t.waitForText('Enter to send')
    await t.settle(100)
    t.send(' late' + keys.enter)
    await t.waitForExit()
    expect(JSON.parse(tmp.read('result.json'))).to.deep.equal({type: 'submit', text: 'early late'})
  })

  it('inlineSelect: a key pressed before the menu was drawn answers it', async () => {
    const t = await typedAhead('select.ts', {message: 'Interrupted', options: [{key: 'c', description: 'Continue'}, {key: 's', description: 'Stop'}]}, 's')
    await t.waitForExit()
    expect(JSON.parse(tmp.read('result.json'))).to.deep.equal({key: 's'})
  })
})
