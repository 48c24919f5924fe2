// `@PATH` mentions and their completion list (SPEC §19 "Mentions"), end to
// end: bin/run.js in a real pseudo-terminal, real key bytes, a local server
// speaking the OpenAI wire format whose log shows what was sent.
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, BIN, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {userMessagesOf, writeServerConfig} from '../fixtures/e2e/scripted-query.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import type {SlowServer} from '../fixtures/e2e/slow-server.js'
import {startSlowServer} from '../fixtures/e2e/slow-server.js'

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

/** The files every test's workspace holds. */
function writeTree(dir: string): void {
  mkdirSync(join(dir, 'src'), {recursive: true})
  mkdirSync(join(dir, 'docs'), {recursive: true})
  writeFileSync(join(dir, 'src', 'main.ts'), 'export const main = 1\n')
  writeFileSync(join(dir, 'src', 'mail.ts'), 'export const mail = 2\n')
  writeFileSync(join(dir, 'docs', 'readme.md'), '# read me\n')
}

describe('e2e: @ mentions and their completion', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let term: PtySession | undefined

  beforeEach(() => {
    sb = makeSandbox()
    writeTree(sb.cwd)
  })
  afterEach(async () => {
    term?.dispose()
    term = undefined
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  async function start(extraToml = '', size = {cols: 80, rows: 30}): Promise<PtySession> {
    server = await startReplayServer([{body: openaiText(['fine'])}, {body: openaiText(['again'])}])
    writeServerConfig(sb, server.url, extraToml)
    term = await spawnPty([BIN, 'query'], {cwd: sb.cwd, env: sb.env, ...size})
    await term.waitForText('Query:')
    return term
  }

  const lines = (t: PtySession) => t.screen().map((l) => l.trimEnd())
  /** The rows under the Query: line, up to the help line. */
  const listRows = (t: PtySession) => {
    const all = lines(t)
    const at = all.findIndex((l) => l.startsWith('Query:'))
    const help = all.findIndex((l, i) => i > at && l.includes('to send'))
    return all.slice(at + 1, help)
  }

  it('Query: Tab after @ lists the workspace files, typing narrows, Tab accepts; the file goes with the query', async () => {
    const t = await start()
    t.type('explain @ma')
    t.send(keys.tab)
    await t.waitForText('src/mail.ts')
    // Two rows, the first chosen.
    expect(listRows(t).map((r) => r.slice(0, 2))).to.deep.equal(['› ', '  '])
    expect(listRows(t).map((r) => r.slice(2)).sort()).to.deep.equal(['src/mail.ts', 'src/main.ts'])
    t.type('in')
    await t.waitFor(() => listRows(t).length === 1, 'the list narrowed to one file')
    expect(listRows(t)).to.deep.equal(['› src/main.ts'])
    t.send(keys.tab)
    await t.waitFor(() => lines(t).some((l) => l === 'Query: explain @src/main.ts') && listRows(t).length === 0, 'the path taken and the list gone')
    t.send(keys.enter)
    const {exitCode} = await t.waitForExit(30_000)
    expect(exitCode, t.screenText()).to.equal(0)
    expect(userMessagesOf(server!, 0)).to.deep.equal(['explain @src/main.ts\n\nAttached file src/main.ts:\n```\nexport const main = 1\n```'])
  })

  it('Esc and Ctrl+G close the list and leave the buffer as it was; Down moves and Enter accepts without sending', async () => {
    const t = await start()
    t.type('@ma')
    t.send(keys.tab)
    await t.waitForText('src/mail.ts')
    t.send(keys.down)
    t.send(keys.escape)
    await t.waitFor(() => listRows(t).length === 0, 'the list closed')
    expect(lines(t)).to.include('Query: @ma')
    t.send(keys.tab)
    await t.waitForText('src/mail.ts')
    t.send(keys.ctrl('g'))
    await t.waitFor(() => listRows(t).length === 0, 'the list closed by Ctrl+G')
    expect(lines(t)).to.include('Query: @ma')
    t.send(keys.tab)
    await t.waitForText('src/mail.ts')
    const second = listRows(t)[1].slice(2)
    t.send(keys.down + keys.enter)
    await t.waitFor(() => lines(t).includes(`Query: @${second}`), 'the second file taken')
    expect(server!.requests).to.have.length(0)
  })

  it('a mention that does not resolve stops the send with one line naming it; nothing is sent and the buffer is kept', async () => {
    const t = await start()
    t.type('see @nope.md please')
    t.send(keys.enter)
    await t.waitForText('⚠ @nope.md: no such file')
    await t.settle(300)
    expect(server!.requests).to.have.length(0)
    expect(lines(t)).to.include('Query: see @nope.md please')
    // The next key takes the line away; fixing the mention sends.
    t.send(keys.ctrlU)
    await t.waitFor(() => !t.screenText().includes('no such file'), 'the error line gone')
    t.type('see @docs/readme.md')
    t.send(keys.enter)
    expect((await t.waitForExit(30_000)).exitCode, t.screenText()).to.equal(0)
    expect(userMessagesOf(server!, 0)[0]).to.equal('see @docs/readme.md\n\nAttached file docs/readme.md:\n```\n# read me\n```')
  })

  it('an e-mail address and an @ followed by a space are plain text', async () => {
    const t = await start()
    t.type('mail me@example.com @ once')
    t.send(keys.enter)
    expect((await t.waitForExit(30_000)).exitCode, t.screenText()).to.equal(0)
    expect(userMessagesOf(server!, 0)).to.deep.equal(['mail me@example.com @ once'])
  })

  it('a gitignored file is not listed, yet completes when its path is typed', async function () {
    if (!hasGit()) this.skip() // needs git (Debian package git)
    execFileSync('git', ['init', '-q'], {cwd: sb.cwd})
    writeFileSync(join(sb.cwd, '.gitignore'), 'secret/\n')
    mkdirSync(join(sb.cwd, 'secret'))
    writeFileSync(join(sb.cwd, 'secret', 'keys.txt'), 'k\n')
    const t = await start()
    t.type('@keys')
    t.send(keys.tab)
    await t.waitForText('no matching files')
    t.send(keys.escape)
    // Apart from Esc, or the two read as Alt+Ctrl+U.
    await t.settle(100)
    t.send(keys.ctrlU)
    t.type('@secret/ke')
    t.send(keys.tab)
    await t.waitForText('› secret/keys.txt')
    t.send(keys.enter)
    await t.waitFor(() => lines(t).includes('Query: @secret/keys.txt'), 'the ignored file taken')
  })

  it('a resize while the list is open leaves no stray rows; closing it removes every row', async () => {
    const t = await start('', {cols: 80, rows: 20})
    t.type('@')
    t.send(keys.tab)
    await t.waitForText('docs/readme.md')
    // Narrower, then wider (no row wider than the new width: xterm.js reflows
    // wrapped rows unlike most terminals; see test/inquire/terminal/inline-reply.test.ts).
    t.resize(40, 20)
    await t.settle(300)
    t.type('r')
    await t.waitFor(() => listRows(t).some((r) => r.includes('readme')), 'the list redrawn after the resize')
    expect(t.screenText().match(/readme/g), t.screenText()).to.have.length(1)
    t.resize(100, 20)
    await t.settle(300)
    t.type('e')
    await t.waitFor(() => lines(t).includes('Query: @re'), 'typed after widening')
    expect(t.screenText().match(/readme/g), t.screenText()).to.have.length(1)
    expect(t.screenText().match(/Query:/g), t.screenText()).to.have.length(1)
    t.send(keys.escape)
    await t.waitFor(() => !t.screenText().includes('readme'), 'the list gone')
    expect(lines(t).filter((l) => l !== '').length, t.screenText()).to.equal(2)
  })

  it('works in vi insert mode (Esc closes the list, then goes to normal mode)', async () => {
    const t = await start('[editor.inline]\nedit_mode = "vi"\n')
    t.type('@readm')
    t.send(keys.tab)
    await t.waitForText('› docs/readme.md')
    t.send(keys.escape)
    await t.waitFor(() => listRows(t).length === 0, 'the list closed')
    expect(t.screenText()).to.include('vi insert')
    t.send(keys.tab)
    await t.waitForText('› docs/readme.md')
    t.send(keys.enter)
    await t.waitFor(() => lines(t).includes('Query: @docs/readme.md'), 'the file taken in insert mode')
  })

  it('a user binding for complete opens the list; complete_next moves', async () => {
    const t = await start('[editor.inline.keys.emacs]\n"ctrl-o" = "complete"\n"alt-j" = "complete_next"\n')
    t.type('@ma')
    t.send(keys.ctrl('o'))
    await t.waitForText('src/mail.ts')
    const second = listRows(t)[1].slice(2)
    t.send(keys.alt('j'))
    await t.waitFor(() => listRows(t)[1] === `› ${second}`, 'the second row chosen')
  })

  it('file names in the list are sanitized (a control character is shown, not sent to the terminal)', async () => {
    writeFileSync(join(sb.cwd, 'evil\x1b[31mred.txt'), 'x\n')
    const t = await start()
    t.type('@evil')
    t.send(keys.tab)
    await t.waitForText('› evil\\u001b[31mred.txt')
  })

  it('"auto" opens the list after two typed characters of a mention', async () => {
    const t = await start('[editor.inline]\ncomplete_mentions = "auto"\n')
    t.type('@r')
    await t.settle(200)
    expect(listRows(t)).to.deep.equal([])
    t.type('e')
    await t.waitForText('› docs/readme.md')
  })
})

describe('e2e: @ mentions at Reply: and Queue:', function () {
  this.timeout(60_000)
  let server: SlowServer | undefined
  let run: JpRun | undefined
  afterEach(async () => {
    run?.dispose()
    run = undefined
    await server?.close()
  })

  it('completes and attaches a mentioned file to the reply', async () => {
    server = await startSlowServer([
      // Held after its 24th word: the reply cuts it.
      {text: Array.from({length: 60}, (_, i) => `w${i} `), intervalMs: 5, hold: 24},
      {text: ['ok.'], intervalMs: 5},
    ])
    run = new JpRun({baseUrl: server.baseUrl})
    writeTree(run.sb.cwd)
    await run.start()
    const t = run.term
    await t.waitForText('w3 ')
    t.send(keys.ctrlC)
    await t.waitForText('Interrupted [')
    t.send('r')
    await t.waitForText('Reply:')
    t.type('look at @mai')
    t.send(keys.tab)
    await t.waitForText('› src/mai')
    t.type('n')
    await t.waitFor(() => !t.screenText().includes('src/mail.ts'), 'narrowed to main')
    t.send(keys.tab)
    await t.waitFor(() => /Reply: look at @src\/main\.ts/.test(t.screenText()), 'the path taken')
    t.send(keys.enter)
    const res = await run.finish()
    expect(res.code, t.screenText()).to.equal(0)
    const messages = server.requests[1].json().messages as Array<{role: string; content: string}>
    // The reply is sent as typed (the space the completion put after the path included).
    expect(messages.at(-1)).to.deep.equal({role: 'user', content: 'look at @src/main.ts \n\nAttached file src/main.ts:\n```\nexport const main = 1\n```'})
  })

  it('a queued reply carries its mentioned file; a missing one keeps Queue: open with one line', async () => {
    server = await startSlowServer([
      // Held after its 24th word until the reply is queued.
      {text: Array.from({length: 40}, (_, i) => `w${i} `), intervalMs: 5, hold: 24},
      {text: ['ok.'], intervalMs: 5},
    ])
    run = new JpRun({baseUrl: server.baseUrl, toml: '[interrupt]\nqueue_countdown_secs = 0.3\n'})
    writeTree(run.sb.cwd)
    await run.start()
    const t = run.term
    await t.waitForText('w3 ')
    t.type('then @nope.md')
    await t.waitForText('Queue: then @nope.md')
    t.send(keys.enter)
    await t.waitForText('⚠ @nope.md: no such file')
    t.send(keys.ctrlW)
    t.type('@docs/readme.md')
    t.send(keys.enter)
    await t.waitFor(() => !t.screenText().includes('Queue:'), 'the reply queued')
    server.release()
    const res = await run.finish()
    expect(res.code, t.screenText()).to.equal(0)
    const messages = server.requests[1].json().messages as Array<{role: string; content: string}>
    expect(messages.at(-1)).to.deep.equal({role: 'user', content: 'then @docs/readme.md\n\nAttached file docs/readme.md:\n```\n# read me\n```'})
  })

  it('a reply steered in at the next step carries its mentioned file, after the tool results (issue 36)', async () => {
    const replay = await startReplayServer([{body: openaiToolCall('call_1', 'slow', {})}, {body: openaiText(['read it.'])}])
    try {
      run = new JpRun({
        baseUrl: `${replay.url}/v1`,
        toml: '[interrupt]\nqueue_delivery = "next_step"\n[conversation.tools.slow]\ncommand = {program = "sh", args = ["-c", "cat > /dev/null; sleep 1.5; echo ran"]}\nrun = "unattended"\n',
      })
      writeTree(run.sb.cwd)
      await run.start('use the tool')
      const t = run.term
      await t.waitForText('Running slow')
      t.type('see @docs/readme.md')
      await t.waitForText('Queue: see @docs/readme.md')
      t.send(keys.enter)
      const res = await run.finish()
      expect(res.code, t.screenText()).to.equal(0)
      expect(replay.requests, t.screenText()).to.have.length(2)
      const messages = replay.requests[1].json() as {messages: Array<{role: string; content: string}>}
      expect(messages.messages.slice(-2)).to.deep.equal([
        {role: 'tool', tool_call_id: 'call_1', content: 'ran\n'},
        {role: 'user', content: 'see @docs/readme.md\n\nAttached file docs/readme.md:\n```\n# read me\n```'},
      ])
      const events = (await run.events()) as Array<{type: string; queued?: string; path?: string}>
      const at = events.findIndex((e) => e.type === 'chat_request' && e.queued === 'next_step')
      expect(events[at + 1], JSON.stringify(events)).to.include({type: 'attachment'})
    } finally {
      await replay.close()
    }
  })
})

describe('e2e: @ mentions in the tool prompts (the result editor, the skip reason)', function () {
  this.timeout(60_000)
  let run: JpRun | undefined
  let replay: ReplayServer | undefined
  afterEach(async () => {
    run?.dispose()
    run = undefined
    await replay?.close()
    replay = undefined
  })

  const README = 'Attached file docs/readme.md:\n```\n# read me\n```'
  async function start(tool: string): Promise<PtySession> {
    replay = await startReplayServer([{body: openaiToolCall('call_1', 'look', {})}, {body: openaiText(['seen.'])}])
    run = new JpRun({baseUrl: `${replay.url}/v1`, toml: `[conversation.tools.look]\ncommand = {program = "sh", args = ["-c", "cat > /dev/null; echo ran"]}\n${tool}`})
    writeTree(run.sb.cwd)
    await run.start('use the tool')
    return run.term
  }
  const toolMessage = () => (replay!.requests[1].json() as {messages: Array<{role: string; content: string}>}).messages.find((m) => m.role === 'tool')!

  it('the result editor: a mentioned file goes to the model with the edited result, after it; a missing one keeps the editor open with one line', async () => {
    const t = await start('run = "unattended"\nresult = "edit"\n')
    await t.waitForText('Edit result before delivery')
    t.type(' and @nope.md')
    t.send(keys.enter)
    await t.waitForText('⚠ @nope.md: no such file')
    t.send(keys.ctrlW)
    t.type('@docs/readme.md')
    t.send(keys.enter)
    const res = await run!.finish()
    expect(res.code, t.screenText()).to.equal(0)
    expect(replay!.requests).to.have.length(2)
    const content = toolMessage().content
    expect(content, content).to.match(/^ran\n? and @docs\/readme\.md\n\n/)
    expect(content.endsWith(README), content).to.equal(true)
  })

  it('the argument editor: the tool gets the JSON as typed; the mentioned file goes to the model after the call\'s result', async () => {
    const t = await start('run = "ask"\n')
    await t.waitForText('Run local tool look?')
    t.send('e')
    await t.waitForText('{}')
    t.send(keys.ctrlU)
    t.type('{"file": "@docs/readme.md"}')
    t.send(keys.enter)
    const res = await run!.finish()
    expect(res.code, t.screenText()).to.equal(0)
    const request = replay!.requests[1].json() as {messages: Array<{role: string; content: string; tool_calls?: Array<{function: {arguments: string}}>}>}
    const call = request.messages.find((m) => m.tool_calls)!
    expect(JSON.parse(call.tool_calls![0].function.arguments)).to.deep.equal({file: '@docs/readme.md'})
    expect(toolMessage().content).to.equal(`ran\n\n\n${README}`)
  })

  it('the skip reason: a mentioned file goes with the reason the model reads', async () => {
    const t = await start('run = "ask"\n')
    await t.waitForText('Run local tool look?')
    t.send('r')
    await t.waitForText('Reason for skipping (optional)')
    t.type('use @docs/readme.md instead')
    t.send(keys.enter)
    const res = await run!.finish()
    expect(res.code, t.screenText()).to.equal(0)
    expect(toolMessage().content).to.equal(`Tool run skipped by user with a message:\n\nuse @docs/readme.md instead\n\n${README}`)
  })
})
