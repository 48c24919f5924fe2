// The resume picker: `jp conversation use` with no ID on a terminal lists
// the conversations (title, age, turns, the last query), filters as you type,
// Enter chooses, Esc cancels; at most 10 rows. Without a terminal: a usage
// error naming ID.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {keys, spawnPty} from '../helpers/pty.js'

const ts = new Date(Date.now() - 3 * 3600_000).toISOString()

describe('e2e: the resume picker (jp conversation use with no ID)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(async () => {
    sb = makeSandbox()
    await runJp(['init', '--yes'], {sandbox: sb})
    for (let i = 0; i < 15; i++) {
      const created = new Date(Date.now() - (20 - i) * 3600_000).toISOString()
      writeConversation(sb.cwd, `jp-c${100 + i}`, {title: `Topic ${i}`, created_at: created}, [
        {timestamp: ts, type: 'turn_start'},
        {timestamp: ts, type: 'chat_request', content: `first query ${i}`},
        {timestamp: ts, type: 'turn_start'},
        {timestamp: ts, type: 'chat_request', content: `\nlast query of ${i}\nsecond line`},
      ])
    }
    writeConversation(sb.cwd, 'jp-c900', {title: 'Regex \u001b[2J backtracking', created_at: new Date().toISOString()}, [])
  })
  afterEach(() => sb.cleanup())

  const active = () => readFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'utf8').trim()

  it('lists at most 10 rows, most recent first, filters fuzzily as you type, and Enter makes the choice active', async () => {
    const s = await spawnPty([BIN, 'c', 'use'], {cwd: sb.cwd, env: sb.env, cols: 100, rows: 30})
    await s.waitForText('Topic 14 · 6h · 2 turns · last query of 14')
    const screen = s.screen()
    const used = screen.findLastIndex((l) => l.trim() !== '') - screen.findIndex((l) => l.trim() !== '') + 1
    expect(used, s.screenText()).to.be.at.most(10)
    expect(s.screenText()).to.include('esc cancel')
    expect(s.screenText()).to.include('Regex \\u001b[2J backtracking · now · 0 turns')
    s.type('tpc3')
    // The filtered list is drawn whole before it is checked (a redraw erases first, then draws).
    await s.waitFor(() => !s.screenText().includes('Topic 14') && s.screenText().includes('Topic 3 ·'), 'the list filtered to Topic 3')
    expect(s.screenText()).to.include('Topic 3 ·').and.not.include('Topic 14')
    s.send(keys.enter)
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(active()).to.equal('jp-c103')
  })

  it('typed ahead: the filter and Enter in one write choose the filtered row (Enter is not lost while the list refilters)', async () => {
    const s = await spawnPty([BIN, 'c', 'use'], {cwd: sb.cwd, env: sb.env, cols: 100, rows: 30})
    await s.waitForText('Topic 14 · 6h')
    s.send('tpc3' + keys.enter)
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(active()).to.equal('jp-c103')
  })

  it('Esc cancels: nothing changes', async () => {
    await runJp(['c', 'use', 'jp-c105'], {sandbox: sb})
    const s = await spawnPty([BIN, 'c', 'use'], {cwd: sb.cwd, env: sb.env, cols: 100})
    await s.waitForText('Topic 14')
    s.send(keys.escape)
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(s.screenText()).to.include('No conversation chosen; the active one is unchanged.')
    expect(active()).to.equal('jp-c105')
  })

  it('jp query --resume: the chosen conversation is continued and made active', async () => {
    const s = await spawnPty([BIN, 'query', '--resume', 'and now?'], {cwd: sb.cwd, env: {...sb.env, JP_ECHO_DELAY_MS: '0'}, cols: 100})
    await s.waitForText('Topic 14')
    s.type('topic 4')
    await s.waitForText('❯ Topic 4 ·') // the best match first (Topic 14 matches too, with a gap)
    s.send(keys.enter)
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(active()).to.equal('jp-c104')
    const events = JSON.parse(readFileSync(join(sb.cwd, '.jp', 'conversations', 'jp-c104', 'events.json'), 'utf8'))
    expect(events.filter((e: {type: string}) => e.type === 'chat_request').at(-1).content).to.equal('and now?')
    const piped = await runJp(['query', '--resume', 'x'], {sandbox: sb})
    expect(piped.code).to.equal(2)
    expect(piped.stderr).to.include('Error: --resume needs a terminal to pick from a list (use --id ID)')
  })

  it('without a terminal, no ID is a usage error naming ID', async () => {
    const r = await runJp(['c', 'use'], {sandbox: sb})
    expect(r.code).to.equal(2)
    expect(r.stderr).to.equal("Error: missing argument ID (without a terminal there is no list to pick from)\nSee 'jp conversation use --help'.\n")
  })
})
