// Inline-first query composition (SPEC §17 "Query composition", JP RFD 093)
// and drafts that survive a crash, end to end: bin/run.js in a real
// pseudo-terminal, real key bytes in, a real script editor
// (test/query/fixtures/scripted-editor.sh) and a local server speaking the
// OpenAI wire format.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, BIN, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {keys, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {SCRIPTED_EDITOR, scriptedEditorRuns, userMessagesOf, writeServerConfig} from '../fixtures/e2e/scripted-query.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'

const EDITOR = SCRIPTED_EDITOR
const MARKER = '---- EVERYTHING BELOW THIS LINE IS IGNORED ----'

/** Shell for an editor step: replace everything above the cut marker's frame with `text`. */
function setQuery(text: string): string {
  const printf = text.split('\n').map((l) => `printf '%s\\n' '${l.replaceAll("'", `'\\''`)}'`).join('; ')
  return `f="$1"; { ${printf}; printf '\\n'; sed -n '/8</,$p' "$f"; } > "$f.tmp" && cat "$f.tmp" > "$f" && rm "$f.tmp"\n`
}

describe('e2e: composing the query inline first', function () {
  this.timeout(60_000)
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

  function useServer(url: string, extra = ''): void {
    writeServerConfig(sb, url, extra)
  }

  function step(n: number, script: string): void {
    writeFileSync(join(editorDir, `step-${n}.sh`), script)
  }
  const editorRuns = () => scriptedEditorRuns(editorDir)
  const seen = (n: number) => readFileSync(join(editorDir, `seen-${n}`), 'utf8')

  /** Starts `jp ARGS` in a pty; `editor: false` leaves every editor variable unset. */
  async function start(args: string[], opts: {editor?: boolean} = {}): Promise<PtySession> {
    const env = {...sb.env, EDITOR_DIR: editorDir, ...(opts.editor === false ? {} : {JP_EDITOR: EDITOR})}
    term = await spawnPty([BIN, ...args], {cwd: sb.cwd, env, cols: 100, rows: 40})
    return term
  }

  /** The real inline prompt is up (not bin/run.js's early picture of it, drawn before the CLI loads): it switched bracketed paste on. */
  const realPrompt = (t: PtySession) => t.waitFor(() => t.output().includes('\u001B[?2004h'), 'the inline prompt (bracketed paste on)')

  async function finish(t: PtySession): Promise<number> {
    const {exitCode} = await t.waitForExit(30_000)
    return exitCode
  }

  const userMessages = (i: number) => userMessagesOf(server!, i)

  function draftFiles(): string[] {
    const found: string[] = []
    const walk = (d: string) => {
      if (!existsSync(d)) return
      for (const e of readdirSync(d, {withFileTypes: true})) {
        if (e.isDirectory()) walk(join(d, e.name))
        else found.push(join(d, e.name))
      }
    }
    walk(join(sb.env.JP_USER_DATA_DIR!, 'workspaces'))
    return found
  }

  /** Where a bare `jp query` outside any workspace keeps the draft of a new conversation. */
  async function newDraftPath(): Promise<string> {
    const ws = await findWorkspace({cwd: sb.cwd, env: sb.env})
    return new ConversationStore(ws, {env: sb.env}).draftPath(null)
  }

  it('a bare jp query with no editor configured composes inline and sends what was typed', async () => {
    server = await startReplayServer([{body: openaiText(['fine'])}])
    useServer(server.url)
    const t = await start(['query'], {editor: false})
    await realPrompt(t)
    // No editor: the inline prompt does not advertise an escape that cannot work.
    expect(t.screenText()).not.to.include("Couldn't open your editor")
    t.type('what is a monad?')
    t.send(keys.altEnter)
    t.type('in one line')
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(server.requests).to.have.length(1)
    expect(userMessages(0)).to.deep.equal(['what is a monad?\nin one line'])
    expect(editorRuns()).to.equal(0)
    // The draft is consumed once the turn succeeded.
    expect(draftFiles()).to.deep.equal([])
  })

  it('keys typed before the prompt appears are kept and drawn once, not left as an echo beside it', async () => {
    server = await startReplayServer([{body: openaiText(['fine'])}])
    useServer(server.url)
    const t = await start(['query'], {editor: false})
    // Typed while jp starts: the terminal still echoes (it is not in raw mode yet).
    t.type('early words')
    await t.waitForText('Query:')
    await t.settle(300)
    const line = t.screen().find((l) => l.includes('Query:'))!
    expect(line.trimEnd(), t.screenText()).to.equal('Query: early words')
    expect(t.screenText().split('early words'), t.screenText()).to.have.length(2)
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(userMessages(0)).to.deep.equal(['early words'])
  })

  it('Ctrl+X opens QUERY_MESSAGE.md seeded with the buffer; the saved document is sent', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    step(1, setQuery('rewritten in the editor'))
    const t = await start(['query'])
    await t.waitForText('Query:')
    t.type('typed inline')
    await t.waitForText('typed inline')
    t.send(keys.ctrlX)
    expect(await finish(t), t.screenText()).to.equal(0)
    const doc = seen(1)
    expect(doc.startsWith('typed inline\n')).to.equal(true)
    expect(doc).to.include(MARKER)
    expect(doc).to.include('# Active Configuration')
    expect(userMessages(0)).to.deep.equal(['rewritten in the editor'])
    expect(draftFiles()).to.deep.equal([])
  })

  it('a cancelled or emptied editor returns to the inline prompt with the buffer intact', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    step(1, 'exit 1\n')
    step(2, setQuery(''))
    const t = await start(['query'])
    await t.waitForText('Query:')
    t.type('keep me')
    await t.waitForText('keep me')
    t.send(keys.ctrlX)
    await t.waitFor(() => editorRuns() === 1, 'the first editor run')
    await t.settle(300)
    t.send(keys.ctrlX)
    await t.waitFor(() => editorRuns() === 2, 'the second editor run')
    await t.settle(300)
    expect(t.screen().filter((l) => l.includes('Query:'))).to.have.length(1)
    t.type(' please')
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(userMessages(0)).to.deep.equal(['keep me please'])
  })

  it('an empty Enter prints the notice, sends nothing and keeps the draft', async () => {
    server = await startReplayServer([{body: openaiText(['unused'])}])
    useServer(server.url)
    const path = await newDraftPath()
    const draft = `a thought for later\n\n-------- 8< --------\n${MARKER}\n-------- >8 --------\n`
    mkdirSync(join(path, '..'), {recursive: true})
    writeFileSync(path, draft)
    const t = await start(['query'])
    // The draft seeds the buffer; the user clears it and presses Enter.
    await t.waitForText('a thought for later')
    t.send(keys.ctrlU)
    await t.settle(200)
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(t.screenText()).to.include('Query is empty, ignoring.')
    expect(server.requests).to.have.length(0)
    expect(readFileSync(path, 'utf8')).to.equal(draft)
  })

  it('compose_in_editor = true opens the editor first; without an editor it falls back to the inline prompt', async () => {
    server = await startReplayServer([{body: openaiText(['a'])}, {body: openaiText(['b'])}])
    useServer(server.url, '[query]\ncompose_in_editor = true\n')
    step(1, setQuery('from the editor'))
    let t = await start(['query'])
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(editorRuns()).to.equal(1)
    expect(userMessages(0)).to.deep.equal(['from the editor'])
    t.dispose()

    t = await start(['query'], {editor: false})
    // (The early Query: picture shows before the CLI loads: the notice comes with the real prompt.)
    await t.waitForText("Couldn't open your editor")
    await t.waitForText('Query:')
    t.type('inline after all')
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(userMessages(1).at(-1)).to.equal('inline after all')
  })

  it('compose_in_editor = "always" without an editor is an error and never shows the inline prompt', async () => {
    server = await startReplayServer([{body: openaiText(['unused'])}])
    useServer(server.url, '[query]\ncompose_in_editor = "always"\n')
    const t = await start(['query'], {editor: false})
    expect(await finish(t)).to.equal(1)
    expect(t.screenText()).to.match(/Error: .*editor/)
    expect(t.screenText()).not.to.include('Query:')
    expect(server.requests).to.have.length(0)
  })

  it('compose_in_editor = "never" leaves Ctrl+X unbound', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url, '[query]\ncompose_in_editor = "never"\n')
    const t = await start(['query'])
    await realPrompt(t)
    expect(t.screenText()).not.to.include('Ctrl+X')
    t.type('stay here')
    t.send(keys.ctrlX)
    await t.settle(300)
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(editorRuns()).to.equal(0)
    expect(userMessages(0)).to.deep.equal(['stay here'])
  })

  it('-e prefers the editor for one invocation, seeded with the query given', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    step(1, 'exit 0\n')
    const t = await start(['query', '-e', 'seeded words'])
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(editorRuns()).to.equal(1)
    expect(seen(1).startsWith('seeded words\n')).to.equal(true)
    expect(userMessages(0)).to.deep.equal(['seeded words'])
  })

  it('a draft whose TOML block does not parse goes to the editor with the error, never silently rebuilt', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    const path = await newDraftPath()
    mkdirSync(join(path, '..'), {recursive: true})
    const broken = `my precious query\n\n-------- 8< --------\n${MARKER}\n-------- >8 --------\n\n# Active Configuration\n\n\`\`\`toml\n[assistant.model\nid = "llamacpp/x"\n\`\`\`\n`
    writeFileSync(path, broken)

    // No editor: the error is printed, the draft kept byte for byte, and the way out named.
    let t = await start(['query'], {editor: false})
    expect(await finish(t)).to.equal(1)
    const screen = t.screenText().replace(/\n/g, ' ')
    expect(screen).to.include('QUERY_MESSAGE.md')
    expect(screen).to.match(/jp query -e|editor\.cmd/)
    expect(readFileSync(path, 'utf8')).to.equal(broken)
    expect(server.requests).to.have.length(0)
    t.dispose()

    // With an editor: it opens on the document with the error; fixing it sends the query.
    step(1, `f="$1"; sed -i 's/^\\[assistant.model$/[assistant.model]/' "$f"\n`)
    t = await start(['query'])
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(seen(1)).to.include('> ERROR:')
    expect(seen(1)).to.include('my precious query')
    expect(userMessages(0)).to.deep.equal(['my precious query'])
  })

  it('text typed inline survives a SIGKILL: the next bare jp query starts with it, and sending clears it', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    let t = await start(['query'])
    await t.waitForText('Query:')
    t.type('words I must not lose')
    await t.waitForText('words I must not lose')
    // At most about half a second behind.
    await new Promise((r) => setTimeout(r, 900))
    t.kill('SIGKILL')
    await finish(t)
    t.dispose()
    const saved = draftFiles()
    expect(saved, 'an inline draft on disk').to.have.length.greaterThan(0)
    for (const f of saved) expect(statSync(f).mode & 0o777, f).to.equal(0o600)

    t = await start(['query'])
    await t.waitForText('words I must not lose')
    t.send(keys.enter)
    expect(await finish(t), t.screenText()).to.equal(0)
    expect(userMessages(0)).to.deep.equal(['words I must not lose'])
    expect(draftFiles()).to.deep.equal([])
  })
})
