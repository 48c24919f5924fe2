// The resume picker's lean start-up (src/lib/cli/pick-first.ts, issue 39):
// `jp conversation use` / `jp c use` with no ID on a terminal is answered by
// dist/pick.cjs without loading the CLI bundle (V8's coverage of the run says
// which scripts ran), and the CLI answers whenever something could change
// what the command does: a user or linked plugin, DEBUG, more words. The
// picker's behaviour itself is test/e2e/conversation-pick.test.ts's, which
// runs on this path.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {bundleSites, coverageIn} from '../helpers/coverage.js'
import {BIN, makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {keys, spawnPty} from '../helpers/pty.js'

const PICK = join(ROOT, 'dist', 'pick.cjs')

describe('e2e: the resume picker without loading the CLI', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(async () => {
    sb = makeSandbox()
    await runJp(['init', '--yes'], {sandbox: sb})
    for (let i = 0; i < 3; i++) {
      writeConversation(sb.cwd, `jp-c${100 + i}`, {title: `Topic ${i}`, created_at: new Date(Date.now() - (10 - i) * 3600_000).toISOString()}, [])
    }
  })
  afterEach(() => sb.cleanup())

  const active = () => readFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'utf8').trim()

  /** Runs `jp ARGS` on a pty with V8's coverage on; `act` drives it; resolves to the exit, the screen and which scripts ran. */
  async function covered(args: string[], act: (s: Awaited<ReturnType<typeof spawnPty>>) => Promise<void>, env: NodeJS.ProcessEnv = {}) {
    const dir = join(sb.dir, `coverage-${Math.random().toString(36).slice(2)}`)
    mkdirSync(dir)
    const s = await spawnPty([BIN, ...args], {cwd: sb.cwd, env: {...sb.env, ...env, NODE_V8_COVERAGE: dir}, cols: 100})
    await act(s)
    const status = await s.waitForExit()
    const coverage = coverageIn(dir)
    return {status, screen: s.screenText(), output: s.output(), ranAt: coverage.ranAt, bundleRan: coverage.bundleRan, pickRan: coverage.urls.some((u) => u === PICK || u === pathToFileURL(PICK).href)}
  }

  const chooseTopic1 = async (s: Awaited<ReturnType<typeof spawnPty>>) => {
    await s.waitForText('Topic 2 ·')
    s.type('topic 1')
    await s.waitForText('❯ Topic 1 ·')
    s.send(keys.enter)
  }

  for (const args of [['conversation', 'use'], ['c', 'use']]) {
    it(`jp ${args.join(' ')}: the list, the choice and its write, with no CLI bundle loaded`, async () => {
      const r = await covered(args, chooseTopic1)
      expect(r.status.exitCode, r.screen).to.equal(0)
      expect(r.screen).to.include('Active conversation: jp-c101')
      expect(active()).to.equal('jp-c101')
      expect([r.pickRan, r.bundleRan]).to.deep.equal([true, false])
    })
  }

  it('Ctrl+C in the lean picker: exit 130, nothing changes', async () => {
    await runJp(['c', 'use', 'jp-c100'], {sandbox: sb})
    const r = await covered(['c', 'use'], async (s) => {
      await s.waitForText('Topic 2 ·')
      s.send(keys.ctrlC)
    })
    expect([r.status.exitCode, r.pickRan, r.bundleRan], r.screen).to.deep.equal([130, true, false])
    expect(active()).to.equal('jp-c100')
  })

  it('a broken config stops the lean picker with its one line, as the CLI does', async () => {
    writeFileSync(join(sb.cwd, '.jp', 'config.toml'), '[assistant\n')
    const r = await covered(['c', 'use'], async () => {})
    const cli = await covered(['c', 'use'], async () => {}, {DEBUG: 'jp-test-nothing-logs-here'})
    expect([r.status.exitCode, r.pickRan, r.bundleRan]).to.deep.equal([1, true, false])
    expect(r.output).to.match(/^Error: [^\n]*config\.toml[^\n]*\r?\n$/)
    expect(r.output).to.equal(cli.output)
    expect(cli.bundleRan).to.equal(true)
  })

  const fallbacks: Array<[string, string[], NodeJS.ProcessEnv, () => void]> = [
    ['a user or linked plugin is installed', ['c', 'use'], {}, () => {
      mkdirSync(sb.env.JP_DATA_DIR!, {recursive: true})
      writeFileSync(join(sb.env.JP_DATA_DIR!, 'package.json'), JSON.stringify({private: true, oclif: {schema: 1, plugins: []}}))
    }],
    ['DEBUG is set', ['c', 'use'], {DEBUG: 'jp-test-nothing-logs-here'}, () => {}],
    ['a global flag is given', ['c', 'use', '-w', '.'], {}, () => {}],
  ]
  for (const [why, args, env, setUp] of fallbacks) {
    it(`when ${why}, the CLI runs the picker (the same list and choice)`, async () => {
      setUp()
      const r = await covered(args, chooseTopic1, env)
      expect(r.status.exitCode, r.screen).to.equal(0)
      expect(active()).to.equal('jp-c101')
      expect(r.bundleRan).to.equal(true)
    })
  }

  it('jp query --resume: the list drawn and the choice made before the CLI loads, which then runs the query in the chosen conversation', async () => {
    const r = await covered(['query', '--resume', 'and now?'], chooseTopic1, {JP_ECHO_DELAY_MS: '0'})
    expect(r.status.exitCode, r.screen).to.equal(0)
    expect(active()).to.equal('jp-c101')
    const events = JSON.parse(readFileSync(join(sb.cwd, '.jp', 'conversations', 'jp-c101', 'events.json'), 'utf8')) as Array<{type: string; content?: string}>
    expect(events.filter((e) => e.type === 'chat_request').at(-1)?.content).to.equal('and now?')
    // The CLI's copy of the rows (conversation/resume.ts) never ran: the list was the chunk's.
    const [rows] = bundleSites(/async function resumeRows\([^)]*\) \{\n/)
    expect(rows, 'resumeRows in the bundle').to.not.equal(undefined)
    expect(r.ranAt(rows.offset + 40), 'the CLI built the rows').to.equal(false)
    expect([r.pickRan, r.bundleRan]).to.deep.equal([true, true])
  })

  it('jp query --resume, Esc: nothing sent, exit 0, without the CLI', async () => {
    const r = await covered(['q', '--resume', 'x'], async (s) => {
      await s.waitForText('Topic 2 ·')
      s.send(keys.escape)
    })
    expect([r.status.exitCode, r.pickRan, r.bundleRan], r.screen).to.deep.equal([0, true, false])
    expect(r.screen).to.include('No conversation chosen; nothing was sent.')
  })

  it('with an ID, the CLI runs the command', async () => {
    const r = await covered(['c', 'use', 'jp-c102'], async () => {})
    expect([r.status.exitCode, r.pickRan, r.bundleRan], r.screen).to.deep.equal([0, false, true])
    expect(active()).to.equal('jp-c102')
  })
})
