// Issue 24 end to end: bin/run.js in a real pseudo-terminal, a local server
// speaking the OpenAI wire format, a scripted editor. The inline query
// prompt's help line names the editor Ctrl+X opens (or offers none), Ctrl+G
// opens it, Ctrl+R searches this conversation and then the workspace's
// others, and `editor.inline.keys` from the config files is what the keys do.
import {expect} from 'chai'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, BIN, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {keys, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {SCRIPTED_EDITOR, scriptedEditorRuns, userMessagesOf, writeServerConfig} from '../fixtures/e2e/scripted-query.js'

const EDITOR = SCRIPTED_EDITOR

describe('e2e: the inline prompt keys (issue 24)', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let editorDir: string
  let term: PtySession | undefined

  beforeEach(() => {
    sb = makeSandbox()
    editorDir = join(sb.dir, 'editor')
    mkdirSync(editorDir)
  })
  afterEach(async () => {
    term?.dispose()
    term = undefined
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  function userConfig(url: string, extra = ''): void {
    writeServerConfig(sb, url, extra)
  }

  const editorRuns = () => scriptedEditorRuns(editorDir)

  async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<PtySession> {
    term = await spawnPty([BIN, ...args], {cwd: sb.cwd, env: {...sb.env, EDITOR_DIR: editorDir, ...env}, cols: 120, rows: 30})
    return term
  }

  const userMessages = (i: number) => userMessagesOf(server!, i)

  async function runQuick(args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
    const t = await start(args, env)
    const {exitCode} = await t.waitForExit(30_000)
    expect(exitCode, t.screenText()).to.equal(0)
    t.dispose()
    term = undefined
  }

  const helpRow = (t: PtySession) => t.screen().find((l) => l.startsWith('Enter to send')) ?? ''

  it('the help line names the editor from editor.cmd, from the variable, and offers no Ctrl+X without one', async () => {
    server = await startReplayServer([{body: openaiText(['a'])}, {body: openaiText(['b'])}, {body: openaiText(['c'])}])
    userConfig(server.url, `[editor]\ncmd = "${EDITOR}"\n`)
    let t = await start(['query'])
    // (The early Query: picture, drawn before the CLI loads, has the default help line: the editor's name comes with the real prompt.)
    await t.waitForText('Ctrl+X to edit in')
    expect(helpRow(t)).to.equal('Enter to send · Alt+Enter for newline · Ctrl+X to edit in scripted-editor.sh')
    t.type('one' + keys.enter)
    expect((await t.waitForExit(30_000)).exitCode).to.equal(0)
    t.dispose()

    userConfig(server.url)
    t = await start(['query', '-n'], {VISUAL: EDITOR})
    await t.waitForText('Ctrl+X to edit in')
    expect(helpRow(t)).to.equal('Enter to send · Alt+Enter for newline · Ctrl+X to edit in $VISUAL (scripted-editor.sh)')
    t.type('two' + keys.enter)
    expect((await t.waitForExit(30_000)).exitCode).to.equal(0)
    t.dispose()

    // No editor anywhere, and compose_in_editor asking for one: the notice
    // says so and the prompt does not offer Ctrl+X after it.
    userConfig(server.url, '[query]\ncompose_in_editor = true\n')
    t = await start(['query', '-n'])
    await t.waitForText("Couldn't open your editor")
    // The real prompt (its bracketed paste on), not the early picture.
    await t.waitFor(() => t.output().includes('\u001B[?2004h'), 'the inline prompt')
    await t.waitForText('Enter to send')
    expect(helpRow(t)).to.equal('Enter to send · Alt+Enter for newline')
    t.type('three' + keys.ctrlX + keys.ctrl('g') + keys.enter)
    expect((await t.waitForExit(30_000)).exitCode).to.equal(0)
    term = t
    expect(editorRuns()).to.equal(0)
    expect(userMessages(2)).to.deep.equal(['three'])
  })

  it('Ctrl+G opens the editor on the query document like Ctrl+X', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    userConfig(server.url)
    writeFileSync(join(editorDir, 'step-1.sh'), `f="$1"; { printf 'from the editor\\n\\n'; sed -n '/8</,$p' "$f"; } > "$f.tmp" && cat "$f.tmp" > "$f" && rm "$f.tmp"\n`)
    const t = await start(['query'], {JP_EDITOR: EDITOR})
    await t.waitForText('Query:')
    t.type('typed')
    await t.waitForText('Query: typed')
    t.send(keys.ctrl('g'))
    expect((await t.waitForExit(30_000)).exitCode, t.screenText()).to.equal(0)
    expect(editorRuns()).to.equal(1)
    expect(readFileSync(join(editorDir, 'seen-1'), 'utf8').startsWith('typed\n')).to.equal(true)
    expect(userMessages(0)).to.deep.equal(['from the editor'])
  })

  it('Ctrl+R finds an earlier query of this conversation, then one of another conversation in the workspace', async () => {
    server = await startReplayServer([1, 2, 3, 4].map((n) => ({body: openaiText([`answer ${n}`])})))
    userConfig(server.url)
    // Another conversation, then the one we continue (the active one).
    await runQuick(['query', '-n', 'deploy the staging box'])
    await runQuick(['query', '-n', 'deploy notes for prod'])
    await runQuick(['query', 'unrelated follow-up'])
    const t = await start(['query'])
    await t.waitForText('Query:')
    t.send(keys.ctrl('r'))
    t.type('deploy')
    await t.waitForText("(reverse-i-search)`deploy': deploy notes for prod")
    t.send(keys.ctrl('r'))
    await t.waitForText("(reverse-i-search)`deploy': deploy the staging box")
    t.send(keys.enter)
    expect((await t.waitForExit(30_000)).exitCode, t.screenText()).to.equal(0)
    expect(userMessages(3)).to.deep.equal(['deploy notes for prod', 'unrelated follow-up', 'deploy the staging box'])
  })

  it('editor.inline.keys from the user config: Enter inserts a newline, Alt+Enter sends, and the help line says so', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    userConfig(server.url, '[editor.inline.keys.emacs]\n"enter" = "newline"\n"alt-enter" = "submit"\n')
    const t = await start(['query'])
    await t.waitForText('Query:')
    await t.waitForText('Alt+Enter to send')
    expect(t.screen().find((l) => l.startsWith('Alt+Enter'))).to.equal('Alt+Enter to send · Enter for newline')
    t.type('line one' + keys.enter + 'line two')
    await t.waitForText('… line two')
    t.send(keys.altEnter)
    expect((await t.waitForExit(30_000)).exitCode, t.screenText()).to.equal(0)
    expect(userMessages(0)).to.deep.equal(['line one\nline two'])
  })

  it('a binding that cannot work stops jp query before anything, naming the file, line and key', async () => {
    server = await startReplayServer([])
    userConfig(server.url, '[editor.inline.keys.vi_normal]\n"d" = "vi_delete_char"\n')
    const t = await start(['query', 'hello'])
    const {exitCode} = await t.waitForExit(30_000)
    expect(exitCode).to.equal(1)
    expect(t.screenText().replace(/\n/g, '')).to.match(/Error: .*jp\/config\.toml:6:1: editor\.inline\.keys\.vi_normal\.d: shadows the longer sequences "d d", "d w", "d e"/)
    expect(server.requests).to.have.length(0)
  })
})
