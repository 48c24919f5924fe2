// Composing the query in the editor (SPEC §9), end to end: bin/run.js in a
// real pseudo-terminal, a real script editor (test/query/fixtures/
// scripted-editor.sh, one step script per run) and a local server speaking
// the OpenAI wire format.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, BIN, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {spawnPty} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {SCRIPTED_EDITOR, scriptedEditorRuns, userMessagesOf, writeServerConfig} from '../fixtures/e2e/scripted-query.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'

const EDITOR = SCRIPTED_EDITOR
const MARKER = '---- EVERYTHING BELOW THIS LINE IS IGNORED ----'

/** Shell for a step: replace everything above the cut marker's frame with `text`. */
function setQuery(text: string): string {
  const printf = text.split('\n').map((l) => `printf '%s\\n' '${l.replaceAll("'", `'\\''`)}'`).join('; ')
  return `f="$1"; { ${printf}; printf '\\n'; sed -n '/8</,$p' "$f"; } > "$f.tmp" && cat "$f.tmp" > "$f" && rm "$f.tmp"\n`
}

describe('e2e: composing the query in the editor (query.compose_in_editor = true)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let editorDir: string

  beforeEach(() => {
    sb = makeSandbox()
    editorDir = join(sb.dir, 'editor')
    mkdirSync(editorDir)
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  function useServer(url: string): void {
    writeServerConfig(sb, url, '[query]\ncompose_in_editor = true\n')
  }

  function step(n: number, script: string): void {
    writeFileSync(join(editorDir, `step-${n}.sh`), script)
  }

  const editorRuns = () => scriptedEditorRuns(editorDir)
  const seen = (n: number) => readFileSync(join(editorDir, `seen-${n}`), 'utf8')
  const argvOf = (n: number) => readFileSync(join(editorDir, `argv-${n}`), 'utf8').trim().split('\n')

  async function jp(args: string[], cwd = sb.cwd): Promise<{code: number; screen: string}> {
    const term = await spawnPty([BIN, ...args], {
      cwd,
      env: {...sb.env, JP_EDITOR: EDITOR, EDITOR_DIR: editorDir},
      cols: 120,
      rows: 50,
    })
    try {
      const {exitCode} = await term.waitForExit(30_000)
      return {code: exitCode, screen: term.output()}
    } finally {
      term.dispose()
    }
  }

  async function store(): Promise<ConversationStore> {
    return new ConversationStore(await findWorkspace({cwd: sb.cwd, env: sb.env}), {env: sb.env})
  }

  function lastUserMessage(i: number): string {
    return userMessagesOf(server!, i).at(-1)!
  }

  function draftsOnDisk(): string[] {
    const found: string[] = []
    const walk = (d: string) => {
      if (!existsSync(d)) return
      for (const e of readdirSync(d, {withFileTypes: true})) {
        if (e.isDirectory()) walk(join(d, e.name))
        else if (e.name === 'QUERY_MESSAGE.md') found.push(join(d, e.name))
      }
    }
    walk(sb.env.JP_USER_DATA_DIR!)
    return found
  }

  it('sends exactly what the editor wrote above the marker, runs the editor in the workspace root, and removes the draft after the turn', async () => {
    server = await startReplayServer([{body: openaiText(['fine'])}])
    useServer(server.url)
    step(1, setQuery('What is the answer?\n\n  indented second paragraph'))
    // A real workspace, and jp started below its root.
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    const sub = join(sb.cwd, 'src', 'deep')
    mkdirSync(sub, {recursive: true})
    const r = await jp(['query'], sub)
    expect(r.code, r.screen).to.equal(0)
    expect(server.requests).to.have.length(1)
    expect(lastUserMessage(0)).to.equal('What is the answer?\n\n  indented second paragraph')

    const argv = argvOf(1)
    expect(argv[0]).to.equal(`cwd=${sb.cwd}`)
    expect(argv).to.have.length(2)
    expect(argv[1]).to.match(/^arg=.*QUERY_MESSAGE\.md$/)
    const doc = seen(1)
    expect(doc).to.include(MARKER)
    expect(doc).to.include('# Active Configuration')
    expect(doc).to.include('```toml\n[assistant.model]\nid = "llamacpp/x"')
    expect(doc).not.to.include('# Conversation History')
    expect(draftsOnDisk()).to.deep.equal([])
  })

  it('shows the conversation history newest first when continuing a conversation', async () => {
    server = await startReplayServer([{body: openaiText(['first answer'])}, {body: openaiText(['second answer'])}])
    useServer(server.url)
    step(1, setQuery('first question'))
    step(2, setQuery('second question'))
    expect((await jp(['query'])).code).to.equal(0)
    const r = await jp(['query'])
    expect(r.code, r.screen).to.equal(0)
    const doc = seen(2)
    expect(doc).to.include('\n# Conversation History (last 10 entries)\n')
    const history = doc.slice(doc.indexOf('# Conversation History (last 10 entries)'))
    expect(history.indexOf('first answer')).to.be.greaterThan(-1)
    expect(history.indexOf('first answer')).to.be.lessThan(history.indexOf('first question'))
    expect(lastUserMessage(1)).to.equal('second question')
  })

  it('-e seeds the document with the query given on the command line', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    // The editor saves the document as seeded.
    const r = await jp(['query', '-e', 'seeded words'])
    expect(r.code, r.screen).to.equal(0)
    expect(seen(1).startsWith('seeded words\n\n')).to.equal(true)
    expect(lastUserMessage(0)).to.equal('seeded words')
  })

  it('an empty query is ignored: notice, no request, draft removed, exit 0', async () => {
    server = await startReplayServer([{body: openaiText(['never'])}])
    useServer(server.url)
    step(1, setQuery('   '))
    const r = await jp(['query'])
    expect(r.code, r.screen).to.equal(0)
    expect(r.screen).to.include('Query is empty, ignoring.')
    expect(editorRuns()).to.equal(1)
    expect(server.requests).to.have.length(0)
    expect(draftsOnDisk()).to.deep.equal([])
  })

  it('a cancelled editor sends nothing and puts the draft back byte for byte', async () => {
    server = await startReplayServer([{body: openaiText(['never'])}])
    useServer(server.url)
    const draft = (await store()).draftPath(null)
    mkdirSync(join(draft, '..'), {recursive: true})
    const before = 'an earlier draft\n\nwith two paragraphs\n'
    writeFileSync(draft, before)
    step(1, `printf 'scribbled over\\n' > "$1"; exit 1\n`)
    const r = await jp(['query'])
    expect(r.code, r.screen).to.equal(0)
    expect(r.screen).to.include('The editor was cancelled; nothing was sent.')
    expect(server.requests).to.have.length(0)
    // The editor saw the earlier draft seeded into the document...
    expect(seen(1).startsWith('an earlier draft\n\nwith two paragraphs\n\n')).to.equal(true)
    // ...and afterwards the file is exactly what it was.
    expect(readFileSync(draft, 'utf8')).to.equal(before)
  })

  it('invalid TOML re-opens the editor with > ERROR: lines and the edits kept; the fixed model is used and recorded', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    step(1, setQuery('keep this question') + `sed -i 's|^id = "llamacpp/x"$|id = "llamacpp/y|' "$1"\n`)
    step(2, `sed -i 's|^id = "llamacpp/y$|id = "llamacpp/y"|' "$1"\n`)
    const r = await jp(['query'])
    expect(r.code, r.screen).to.equal(0)
    expect(editorRuns()).to.equal(2)
    const second = seen(2)
    expect(second.startsWith('keep this question\n')).to.equal(true)
    expect(second).to.match(/^> ERROR: .*QUERY_MESSAGE\.md \(Active Configuration\):2:\d+: invalid TOML/m)
    expect(second).to.include('id = "llamacpp/y\n')
    expect(server.requests).to.have.length(1)
    expect((server.requests[0].json() as {model: string}).model).to.equal('y')
    expect(lastUserMessage(0)).to.equal('keep this question')

    const s = await store()
    const [conv] = await s.list()
    const events = (await s.load(conv.id)).events
    const deltas = events.filter((e) => e.type === 'config_delta') as unknown as Array<{delta: {assistant: {model: {id: string}}}}>
    expect(deltas).to.have.length(1)
    expect(deltas[0].delta.assistant.model.id).to.equal('llamacpp/y')
  })

  it('a failing provider keeps the draft, and the next jp query re-seeds from it', async () => {
    server = await startReplayServer([
      {status: 400, headers: {'content-type': 'application/json'}, body: '{"error":{"message":"bad request"}}'},
      {body: openaiText(['ok'])},
    ])
    useServer(server.url)
    step(1, setQuery('do not lose me'))
    const first = await jp(['query'])
    expect(first.code, first.screen).to.equal(1)
    const drafts = draftsOnDisk()
    expect(drafts).to.have.length(1)
    expect(readFileSync(drafts[0], 'utf8').startsWith('do not lose me\n')).to.equal(true)

    // Run 2: the editor just saves what it was given.
    const second = await jp(['query'])
    expect(second.code, second.screen).to.equal(0)
    expect(seen(2).startsWith('do not lose me\n\n')).to.equal(true)
    expect(server.requests).to.have.length(2)
    expect(lastUserMessage(1)).to.equal('do not lose me')
    // The failed turn was taken back: the retry sends the query once, not once per attempt.
    expect(userMessagesOf(server!, 1)).to.deep.equal(['do not lose me'])
    expect(first.screen).not.to.contain('partial answer')
    expect(draftsOnDisk()).to.deep.equal([])
  })

  it('-E with no query and nothing on stdin fails clearly and never runs the editor', async () => {
    server = await startReplayServer([{body: openaiText(['never'])}])
    useServer(server.url)
    const r = await jp(['query', '-E'])
    expect(r.code).to.equal(1)
    expect(r.screen).to.include('no query given')
    expect(editorRuns()).to.equal(0)
    expect(server.requests).to.have.length(0)
  })
})
