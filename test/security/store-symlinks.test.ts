// Issue 28, finding 2: a cloned repository can ship symbolic links inside
// `.jp/` (a conversation's files, a conversation directory, the
// conversations directory, `.jp` itself). No trust is needed to be written
// to, so jp must follow none of them: it refuses with one line naming the
// link, exits 1, and the files the links point at stay byte-identical, their
// modes unchanged. The built CLI (build first), the offline model.
import {expect} from 'chai'
import {lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'

const PRECIOUS = 'precious user data, no trailing newline'

describe('security: no symlink is followed inside the store', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let repo: string
  let conversations: string
  /** A file and a directory of the user's, outside every workspace. */
  let victimFile: string
  let victimDir: string

  beforeEach(() => {
    sb = makeSandbox()
    repo = join(sb.cwd, 'cloned')
    conversations = join(repo, '.jp', 'conversations')
    mkdirSync(conversations, {recursive: true})
    victimFile = join(sb.home, 'notes.txt')
    writeFileSync(victimFile, PRECIOUS, {mode: 0o644})
    victimDir = join(sb.home, 'project')
    mkdirSync(victimDir, {mode: 0o755})
    writeFileSync(join(victimDir, 'events.json'), '[]')
    writeFileSync(join(victimDir, 'metadata.json'), '{}')
    writeFileSync(join(victimDir, 'keep.json.123'), 'a file whose name looks like an old temp file')
  })
  afterEach(() => sb.cleanup())

  /** A planted conversation `id` (made active), whose files are given. */
  function plant(id: string, files: Record<string, string> = {}): string {
    const dir = join(conversations, id)
    mkdirSync(dir, {recursive: true})
    for (const [name, text] of Object.entries({'events.json': '[]', 'metadata.json': '{"title":"planted"}', 'base_config.json': '{}', ...files})) {
      writeFileSync(join(dir, name), text)
    }
    writeFileSync(join(repo, '.jp', 'active_conversation'), `${id}\n`)
    return dir
  }

  function victimDirState(): string {
    const mode = (statSync(victimDir).mode & 0o777).toString(8)
    const files = readdirSync(victimDir)
      .sort()
      .map((n) => `${n}=${readFileSync(join(victimDir, n), 'utf8')}`)
    return `${mode} ${files.join(' | ')}`
  }

  /** Exit 1 with exactly one stderr line, `Error: ...` naming `link` as a symbolic link. */
  function expectRefused(r: {code: number | null; stderr: string}, link: string): void {
    expect(r.code, r.stderr).to.equal(1)
    // (The offline model's notice may come first: the config is read before a new conversation is made.)
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('No model configured'))
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.match(/^Error: /)
    expect(lines[0]).to.include(link).and.include('symbolic link')
  }

  for (const name of ['events.log', 'events.json', 'metadata.json', 'base_config.json']) {
    it(`a conversation's ${name} linked to a file of yours: jp query refuses, the file is untouched`, async () => {
      const dir = plant('jp-c1')
      const link = join(dir, name)
      if (name !== 'events.log') writeFileSync(victimFile, name === 'events.json' ? '[]' : '{}')
      const before = readFileSync(victimFile, 'utf8')
      rmSync(link, {force: true}) // the planted file is replaced by the link
      symlinkSync(victimFile, link)
      const r = await runJp(['query', 'hello'], {sandbox: sb, cwd: repo})
      expectRefused(r, link)
      expect(readFileSync(victimFile, 'utf8')).to.equal(before)
      expect(statSync(victimFile).mode & 0o777).to.equal(0o644)
      expect(lstatSync(link).isSymbolicLink()).to.equal(true)
    })
  }

  it('a dangling events.log link (to a file that does not exist yet) is not created through', async () => {
    const dir = plant('jp-c1')
    const target = join(sb.home, 'created-by-jp')
    symlinkSync(target, join(dir, 'events.log'))
    const r = await runJp(['query', 'hello'], {sandbox: sb, cwd: repo})
    expectRefused(r, join(dir, 'events.log'))
    expect(readdirSync(sb.home)).not.to.include('created-by-jp')
  })

  it('.jp/active_conversation linked to a file of yours is not read or rewritten', async () => {
    plant('jp-c1')
    const active = join(repo, '.jp', 'active_conversation')
    rmSync(active)
    writeFileSync(victimFile, 'jp-c1')
    symlinkSync(victimFile, active)
    const r = await runJp(['query', 'hello'], {sandbox: sb, cwd: repo})
    expectRefused(r, active)
    expect(readFileSync(victimFile, 'utf8')).to.equal('jp-c1')
  })

  it('a conversation directory linked to a directory of yours: no chmod, nothing deleted or written there', async () => {
    const before = victimDirState()
    const link = join(conversations, 'jp-c1')
    symlinkSync(victimDir, link)
    writeFileSync(join(repo, '.jp', 'active_conversation'), 'jp-c1\n')
    for (const args of [['query', 'hello'], ['query', '--id', 'jp-c1', 'hello'], ['conversation', 'use', 'jp-c1'], ['conversation', 'edit', '--metadata']]) {
      const r = await runJp(args, {sandbox: sb, cwd: repo, env: {EDITOR: 'true'}})
      expectRefused(r, link)
      expect(victimDirState(), args.join(' ')).to.equal(before)
    }
  })

  it('a linked conversations directory (a parent): a new conversation is not created through it', async () => {
    rmSync(conversations, {recursive: true})
    symlinkSync(victimDir, conversations)
    const before = victimDirState()
    const r = await runJp(['query', '-n', 'hello'], {sandbox: sb, cwd: repo})
    expectRefused(r, conversations)
    expect(victimDirState()).to.equal(before)
  })

  it('.jp itself linked to a directory of yours: nothing is created or changed there', async () => {
    rmSync(join(repo, '.jp'), {recursive: true})
    symlinkSync(victimDir, join(repo, '.jp'))
    const before = victimDirState()
    const r = await runJp(['query', '-n', 'hello'], {sandbox: sb, cwd: repo})
    expectRefused(r, join(repo, '.jp'))
    expect(victimDirState()).to.equal(before)
  })

  it('control: the same conversation as real files works (the refusals above are about the links)', async () => {
    plant('jp-c1')
    const r = await runJp(['query', 'hello'], {sandbox: sb, cwd: repo})
    expect(r.code, r.stderr).to.equal(0)
  })
})
