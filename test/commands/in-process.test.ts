// Flags, help output and exit codes of every command, run in-process with
// @oclif/test (test/helpers/in-process.ts): no child process per case, so
// the whole command surface is checked in a few seconds. Terminal behaviour
// stays in the pty tests; the shipped bundle is run by the end-to-end tests.
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {COMMANDS} from '../../src/commands/index.js'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

type FlagInfo = {char?: string; hidden?: boolean}
type CommandClass = {flags?: Record<string, FlagInfo>; baseFlags?: Record<string, FlagInfo>; aliases?: string[]}

describe('commands in-process (@oclif/test): flags, help, exit codes', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  const jp = (...args: string[]) => runInProcess(args, {sandbox: sb})

  for (const [id, cls] of Object.entries(COMMANDS) as [string, CommandClass][]) {
    const words = id.split(':')
    it(`jp ${words.join(' ')} --help lists its usage and every flag, exit 0`, async () => {
      const r = await jp(...words, '--help')
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(r.stderr).to.equal('')
      expect(r.stdout).to.include(`$ jp ${words.join(' ')}`)
      for (const [name, flag] of Object.entries({...cls.baseFlags, ...cls.flags})) {
        if (flag.hidden) continue
        expect(r.stdout, `--${name}`).to.include(`--${name}`)
        if (flag.char) expect(r.stdout, `-${flag.char}`).to.include(`-${flag.char}, --${name}`)
      }
    })
  }

  it('in-process help says what the shipped bin/run.js says (same words; wrapping follows the width)', async () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean)
    const shipped = await runJp(['query', '--help'], {sandbox: sb})
    const here = await jp('query', '--help')
    expect(shipped.code).to.equal(0)
    expect(words(here.stdout)).to.deep.equal(words(shipped.stdout))
  })

  it('jp --help lists every command and topic', async () => {
    const r = await jp('--help')
    expect(r.exitCode).to.equal(0)
    for (const id of Object.keys(COMMANDS)) {
      const [first] = id.split(':')
      expect(r.stdout, id).to.include(first)
    }
  })

  it('jp --version prints the package version, exit 0', async () => {
    const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
    const r = await jp('--version')
    expect(r.exitCode).to.equal(0)
    expect(r.stdout).to.include(version)
  })

  it('an unknown flag is a usage error naming it: exit 2, nothing on stdout', async () => {
    const r = await jp('conversation', 'ls', '--bogus')
    expect(r.exitCode).to.equal(2)
    expect(r.stdout).to.equal('')
    expect(r.stderr).to.include('--bogus')
  })

  it('a flag value outside its options is a usage error: exit 2', async () => {
    const r = await jp('conversation', 'ls', '--format', 'xml')
    expect(r.exitCode).to.equal(2)
    expect(r.stderr).to.include('--format')
    expect(r.stderr).to.include('xml')
  })

  it('exclusive flags are a usage error: exit 2 (conversation path -e -m, trust --revoke --list)', async () => {
    const path = await jp('conversation', 'path', '-e', '-m')
    expect(path.exitCode).to.equal(2)
    expect(path.stderr).to.include('--metadata')
    const trust = await jp('trust', '--revoke', '--list')
    expect(trust.exitCode).to.equal(2)
  })

  it('a library error is one Error: line and exit 1 (unknown id, no active conversation)', async () => {
    const use = await jp('conversation', 'use', 'jp-c404')
    expect(use.exitCode).to.equal(1)
    expect(use.stderr.trimEnd().split('\n')).to.have.length(1)
    expect(use.stderr).to.match(/^Error: conversation 'jp-c404' not found/)
    const path = await jp('conversation', 'path')
    expect(path.exitCode).to.equal(1)
    expect(path.stderr).to.equal("Error: no active conversation; pass an ID (see 'jp conversation ls')\n")
  })

  it('a broken -c value stops before any work: exit 1, the key named', async () => {
    const r = await jp('conversation', 'edit', 'jp-c1', '-c', 'editor.inline.edit_mode=emacsish')
    expect(r.exitCode).to.equal(1)
    expect(r.stderr).to.include('editor.inline.edit_mode')
  })

  it('jp init DIR --yes --model: exit 0, the workspace made; a bad --model: exit 1', async () => {
    const ok = await jp('init', 'proj', '--yes', '--model', 'openai/gpt-4o')
    expect(ok.exitCode, ok.stderr).to.equal(0)
    expect(readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')).to.match(/^id = "openai\/gpt-4o"$/m)
    const bad = await jp('init', 'other', '--yes', '--model', 'nomodel')
    expect(bad.exitCode).to.equal(1)
    expect(existsSync(join(sb.cwd, 'other', '.jp'))).to.equal(false)
  })

  it('aliases run the same command (c ls, c path)', async () => {
    await jp('init', '--yes')
    const ls = await jp('c', 'ls', '--format', 'json')
    expect(ls.exitCode, ls.stderr).to.equal(0)
    expect(ls.stdout).to.equal('')
    const path = await jp('c', 'path', 'jp-c1')
    expect(path.exitCode).to.equal(1)
    expect(path.stderr).to.include("conversation 'jp-c1' not found")
  })
})
