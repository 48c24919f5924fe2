// Issue 42, finding 1: `jp config set` must not lose a parallel set's key nor
// break the file it edits: it locks the file, reads it again under the lock,
// writes atomically, keeps the file's mode, line endings and symbolic link,
// and refuses a read-only file with one line naming it.
import {expect} from 'chai'
import {chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {parse} from 'smol-toml'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'

describe('jp config set: writes that lose and break nothing (issue 42)', function () {
  this.timeout(180_000)
  let sb: Sandbox
  let file: string
  beforeEach(() => {
    sb = makeSandbox()
    file = join(sb.home, '.config', 'jp', 'config.toml')
    mkdirSync(join(sb.home, '.config', 'jp'), {recursive: true})
  })
  afterEach(() => sb.cleanup())

  const set = (key: string, value: string) => runJp(['config', 'set', '--user', key, value], {sandbox: sb, timeoutMs: 120_000})

  it('50 sets in parallel on one file: every key is there and the file is valid TOML', async () => {
    writeFileSync(file, '# my settings\n[editor]\ncmd = "vi"\n')
    const n = 50
    const results = await Promise.all(Array.from({length: n}, (_, i) => set(`conversation.tools.k${i}.summary`, `v${i}`)))
    for (const r of results) expect(r.code, r.stderr).to.equal(0)
    const text = readFileSync(file, 'utf8')
    const parsed = parse(text) as {conversation: {tools: Record<string, {summary: string}>}; editor: {cmd: string}}
    for (let i = 0; i < n; i++) expect(parsed.conversation.tools[`k${i}`]?.summary, `k${i}`).to.equal(`v${i}`)
    expect(parsed.editor.cmd).to.equal('vi')
    expect(text.startsWith('# my settings\n')).to.equal(true)
    expect(() => statSync(`${file}.lock`)).to.throw(/ENOENT/)
  })

  it('a linked config file (a dotfiles repository) is edited at its target; the link stays a link', async () => {
    const dotfiles = join(sb.home, 'dotfiles')
    mkdirSync(dotfiles)
    const target = join(dotfiles, 'jp.toml')
    writeFileSync(target, '[editor]\ncmd = "vi"\n')
    symlinkSync(target, file)
    const r = await set('editor.cmd', 'nano')
    expect(r.code, r.stderr).to.equal(0)
    expect(lstatSync(file).isSymbolicLink()).to.equal(true)
    expect(readlinkSync(file)).to.equal(target)
    expect(readFileSync(target, 'utf8')).to.include('cmd = "nano"')
  })

  it('keeps the file mode (0640 stays 0640)', async () => {
    writeFileSync(file, '[editor]\ncmd = "vi"\n')
    chmodSync(file, 0o640)
    const r = await set('editor.cmd', 'nano')
    expect(r.code, r.stderr).to.equal(0)
    expect(statSync(file).mode & 0o777).to.equal(0o640)
  })

  it('a read-only file (0444) is an error naming it; nothing is written, the mode is unchanged', async () => {
    const before = '[editor]\ncmd = "vi"\n'
    writeFileSync(file, before)
    chmodSync(file, 0o444)
    const r = await set('editor.cmd', 'nano')
    expect(r.code).to.equal(1)
    const lines = r.stderr.trim().split('\n')
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.include(file).and.include('read-only')
    expect(readFileSync(file, 'utf8')).to.equal(before)
    expect(statSync(file).mode & 0o777).to.equal(0o444)
  })

  it('a CRLF file stays CRLF: no lone LF line in the middle', async () => {
    writeFileSync(file, '# mine\r\n[editor]\r\ncmd = "vi"\r\n\r\n[style]\r\nmarkdown = true\r\n')
    const r = await set('editor.envs', '["VISUAL"]')
    expect(r.code, r.stderr).to.equal(0)
    const text = readFileSync(file, 'utf8')
    expect(text).to.include('VISUAL')
    expect(text.replace(/\r\n/g, '')).not.to.include('\n')
  })
})
