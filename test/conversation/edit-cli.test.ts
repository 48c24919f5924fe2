// `jp conversation edit` through bin/run.js without a terminal, with real
// script editors (test/query/fixtures/scripted-editor.sh runs
// $EDITOR_DIR/step-N.sh on its N-th run and records its argv).
import {expect} from 'chai'
import {existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'

const EDITOR = join(ROOT, 'test/query/fixtures/scripted-editor.sh')

describe('jp conversation edit (no terminal)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let editorDir: string

  // One initialised workspace for the file (each case makes and edits a
  // conversation of its own); a fresh editor directory (its scripted steps
  // and run count) per case.
  before(async () => {
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
  })
  after(() => sb.cleanup())
  beforeEach(() => {
    editorDir = mkdtempSync(join(sb.dir, 'editor-'))
  })

  async function newConversation(query: string): Promise<string> {
    const r = await runJp(['query', '-n', query], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    return readFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'utf8').trim()
  }

  const dirOf = (id: string) => join(sb.cwd, '.jp', 'conversations', id)
  const files = (id: string) => ['events.json', 'metadata.json', 'base_config.json'].map((f) => join(dirOf(id), f))
  const bytes = (id: string) => files(id).map((f) => readFileSync(f))
  const step = (n: number, script: string) => writeFileSync(join(editorDir, `step-${n}.sh`), script)
  const runs = () => (existsSync(join(editorDir, 'count')) ? Number(readFileSync(join(editorDir, 'count'), 'utf8')) : 0)
  const argvOf = (n: number) => readFileSync(join(editorDir, `argv-${n}`), 'utf8').trim().split('\n')

  function edit(args: string[], env: NodeJS.ProcessEnv = {JP_EDITOR: EDITOR}) {
    return runJp(['conversation', 'edit', ...args], {sandbox: sb, env: {EDITOR_DIR: editorDir, ...env}})
  }

  it('a cancelled editor leaves every file byte-identical and fails with the pinned message', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    step(1, `for f; do printf 'garbage' >> "$f"; done; exit 1\n`)
    const r = await edit(['-e', '-m', '-b'])
    expect(r.code).to.equal(1)
    expect(r.stderr).to.equal('Error: the editor was cancelled; the conversation is unchanged\n')
    expect(bytes(id)).to.deep.equal(before)
  })

  it('invalid JSON without a terminal: reports file:line:column, restores, and fails with the pinned message', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    // Line 2 of events.json becomes `  {,` — a syntax error at its third column.
    step(1, `sed -i '2s/{/{,/' "$1"\n`)
    const r = await edit(['--events'])
    expect(r.code).to.equal(1)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines).to.have.length(2)
    expect(lines[0].startsWith(`The edited file could not be loaded back: ${join(dirOf(id), 'events.json')}:2:4: invalid JSON: `)).to.equal(
      true,
      lines[0],
    )
    expect(lines[1]).to.equal('Error: the edit could not be loaded and was discarded; the conversation is unchanged')
    expect(bytes(id)).to.deep.equal(before)
  })

  it('a corrupt events.json can be opened and repaired with edit --events (the repair tool does not refuse the broken file)', async () => {
    const id = await newConversation('hello')
    const good = readFileSync(join(dirOf(id), 'events.json'), 'utf8')
    writeFileSync(join(dirOf(id), 'events.json'), good.replace('[', '[,'))
    step(1, `printf '%s' '${good.replaceAll("'", `'\\''`)}' > "$1"\n`)
    const r = await edit([id, '--events'])
    expect(r.code, r.stderr).to.equal(0)
    expect(runs()).to.equal(1)
    expect(readFileSync(join(dirOf(id), 'events.json'), 'utf8')).to.equal(good)
    const next = await runJp(['query', 'again'], {sandbox: sb})
    expect(next.code, next.stderr).to.equal(0)
  })

  it('valid JSON of the wrong shape is refused too, naming the event', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    step(1, `sed -i '0,/"type": "chat_request"/s//"type": 7/' "$1"\n`)
    const r = await edit(['-e'])
    expect(r.code).to.equal(1)
    expect(r.stderr).to.match(/events\.json:\d+:\d+: event 1: missing string "type"\n/)
    expect(bytes(id)).to.deep.equal(before)
  })

  it('a bad base config is refused, naming the key', async () => {
    const id = await newConversation('hello')
    step(1, `printf '{"editor": {"inline": {"edit_mode": "nano"}}}\\n' > "$1"\n`)
    const r = await edit(['-b'])
    expect(r.code).to.equal(1)
    expect(r.stderr).to.match(/base_config\.json:1:\d+: editor\.inline\.edit_mode: .*nano/)
    expect(readFileSync(files(id)[2], 'utf8')).to.equal('{}\n')
  })

  it('a valid edit is kept as the editor wrote it', async () => {
    const id = await newConversation('hello')
    step(1, `printf '{\\n  "title": "Edited"\\n}\\n' > "$1"\n`)
    const r = await edit(['--metadata'])
    expect(r.code, r.stderr).to.equal(0)
    expect(readFileSync(files(id)[1], 'utf8')).to.equal('{\n  "title": "Edited"\n}\n')
  })

  it('several ids open in ONE editor run with every path, in the workspace root', async () => {
    const a = await newConversation('first')
    const b = await newConversation('second')
    const r = await edit([a, b, '-e', '-m'])
    expect(r.code, r.stderr).to.equal(0)
    expect(runs()).to.equal(1)
    expect(argvOf(1)).to.deep.equal([
      `cwd=${sb.cwd}`,
      `arg=${join(dirOf(a), 'events.json')}`,
      `arg=${join(dirOf(a), 'metadata.json')}`,
      `arg=${join(dirOf(b), 'events.json')}`,
      `arg=${join(dirOf(b), 'metadata.json')}`,
    ])
  })

  it('with no file flag the editor gets the conversation directory, and the files are still checked', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    step(1, `printf '[' > "$1/metadata.json"\n`)
    const r = await edit([])
    expect(argvOf(1)).to.deep.equal([`cwd=${sb.cwd}`, `arg=${dirOf(id)}`])
    expect(r.code).to.equal(1)
    expect(r.stderr).to.include(`${join(dirOf(id), 'metadata.json')}:1:2: invalid JSON`)
    expect(bytes(id)).to.deep.equal(before)
  })

  it('--title and --pin/--no-pin change the metadata without an editor', async () => {
    const id = await newConversation('hello')
    const meta = () => JSON.parse(readFileSync(files(id)[1], 'utf8')) as Record<string, unknown>
    let r = await edit(['--title', 'A new title', '--pin'], {JP_EDITOR: '/nonexistent/editor'})
    expect(r.code, r.stderr).to.equal(0)
    expect(meta().title).to.equal('A new title')
    expect(meta().pinned_at).to.be.a('string')
    r = await edit([id, '--no-pin'], {JP_EDITOR: '/nonexistent/editor'})
    expect(r.code, r.stderr).to.equal(0)
    expect(meta().pinned_at).to.equal(null)
    expect(meta().title).to.equal('A new title')
    expect(runs()).to.equal(0)
  })

  it('works through the alias `jp c e`', async () => {
    const id = await newConversation('hello')
    const r = await runJp(['c', 'e', '--title', 'via alias'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(JSON.parse(readFileSync(files(id)[1], 'utf8')).title).to.equal('via alias')
  })

  it('with no editor configured, fails naming editor.cmd and the variables consulted', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    const r = await edit(['-e'], {})
    expect(r.code).to.equal(1)
    expect(r.stderr).to.equal(
      'Error: no editor configured: set editor.cmd in your config or one of the environment variables JP_EDITOR, VISUAL, EDITOR\n',
    )
    expect(bytes(id)).to.deep.equal(before)
  })

  it('a spawn failure restores and reports the editor error', async () => {
    const id = await newConversation('hello')
    const before = bytes(id)
    const cfg = await runJp(['conversation', 'edit', '-e', '--cfg', `editor.cmd=${join(sb.dir, 'missing-editor')}`], {sandbox: sb})
    expect(cfg.code).to.equal(1)
    expect(cfg.stderr).to.match(/^Error: failed to spawn editor '.*missing-editor': /)
    expect(bytes(id)).to.deep.equal(before)
  })

  describe('issue 28, finding 12: an editor that deletes or empties the conversation', () => {
    const cases: [string, string, string[]][] = [
      ['deletes the conversation directory (directory mode)', 'rm -rf "$1"\n', []],
      ['empties the conversation directory', 'rm -f "$1"/*\n', []],
      ['deletes every file it was given (file mode)', 'rm -f "$@"\n', ['-e', '-m', '-b']],
    ]
    for (const [what, script, args] of cases) {
      it(`${what}: a broken edit — restored from the snapshot, one line, exit 1`, async () => {
        const id = await newConversation('hello')
        const before = bytes(id)
        step(1, script)
        const r = await edit(args)
        expect(r.code, r.stderr).to.equal(1)
        const lines = r.stderr.trimEnd().split('\n')
        expect(lines, r.stderr).to.have.length(1)
        expect(lines[0]).to.equal(`Error: the editor removed conversation ${id} (${dirOf(id)}); it was restored as it was before the edit`)
        expect(bytes(id)).to.deep.equal(before)
        const shown = await runJp(['conversation', 'show', id], {sandbox: sb})
        expect(shown.code, shown.stderr).to.equal(0)
        expect(shown.stdout).to.include('hello')
      })
    }

    it('removing one file of several is still an edit (an empty metadata.json reads as no metadata)', async () => {
      const id = await newConversation('hello')
      step(1, 'rm -f "$2"\n')
      const r = await edit(['-e', '-m'])
      expect(r.code, r.stderr).to.equal(0)
      expect(existsSync(files(id)[1])).to.equal(false)
    })
  })
})
