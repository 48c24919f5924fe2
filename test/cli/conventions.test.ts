// The CLI conventions of SPEC §18 (issue 26, findings 1–3), run in-process
// with @oclif/test: -h everywhere, `jp help [COMMAND...]`, a topic lists its
// subcommands, "did you mean", usage errors as two lines and exit 2, the
// version line.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, ROOT, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}).version

let sb: Sandbox

async function jp(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  const {exitCode: code, stdout, stderr} = await runInProcess(args, {sandbox: sb})
  return {code, stdout, stderr}
}

/** The two lines of a usage error. */
function usage(message: string, command = ''): string {
  return `Error: ${message}\nSee '${['jp', command].filter(Boolean).join(' ')} --help'.\n`
}

describe('CLI conventions (SPEC §18)', function () {
  this.timeout(60_000)
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  describe('help', () => {
    for (const words of [[], ['query'], ['conversation', 'ls'], ['conversation', 'edit'], ['c', 'ls'], ['init'], ['help'], ['plugins']]) {
      it(`jp ${[...words, '-h'].join(' ')} is jp ${[...words, '--help'].join(' ')}`, async () => {
        const long = await jp([...words, '--help'])
        const short = await jp([...words, '-h'])
        expect(long.code, long.stderr).to.equal(0)
        expect(long.stdout).to.match(/USAGE/)
        expect(short).to.deep.equal(long)
      })
    }

    for (const words of [[], ['query'], ['conversation'], ['conversation', 'ls'], ['c', 'ls']]) {
      it(`jp help ${words.join(' ')} is jp ${[...words, '--help'].join(' ')}`, async () => {
        const flag = await jp([...words, '--help'])
        const help = await jp(['help', ...words])
        expect(help.code, help.stderr).to.equal(0)
        expect(help.stdout).to.equal(flag.stdout)
      })
    }

    it('the root help lists every command and topic once, with jp’s version line, and no alias (q) as a command', async () => {
      const {stdout, code} = await jp(['--help'])
      expect(code).to.equal(0)
      expect(stdout).to.include(`VERSION\n  jp ${VERSION} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`)
      for (const name of ['query', 'init', 'trust', 'help']) expect(stdout).to.match(new RegExp(`^  ${name} +\\S`, 'm'))
      expect(stdout).to.match(/^ {2}conversation +Manage stored conversations \(alias: c\)$/m)
      expect(stdout).to.not.match(/^ {2}q +/m)
    })

    it('jp c and jp conversation list the conversation subcommands (exit 0)', async () => {
      const topic = await jp(['conversation'])
      const alias = await jp(['c'])
      expect(topic.code, topic.stderr).to.equal(0)
      for (const sub of ['edit', 'ls', 'path', 'rm', 'show', 'use']) expect(topic.stdout).to.match(new RegExp(`^  conversation ${sub} +\\S`, 'm'))
      expect(alias).to.deep.equal(topic)
      expect(await jp(['c', '--help'])).to.deep.equal(topic)
      expect(await jp(['help', 'c'])).to.deep.equal(topic)
    })

    it('jp help -h is the help command’s own help', async () => {
      const r = await jp(['help', '-h'])
      expect(r.code).to.equal(0)
      expect(r.stdout).to.match(/^ {2}\$ jp help \[COMMAND\.\.\.\]/m)
    })
  })

  describe('usage errors: one Error line naming the flag or argument, one See line, exit 2', () => {
    const cases: Array<[string[], string, string]> = [
      [['query', '--bogus'], 'unknown flag --bogus', 'query'],
      [['query', '--nwe', 'x'], 'unknown flag --nwe; did you mean --new?', 'query'],
      [['conversation', 'rm'], 'missing argument ID', 'conversation rm'],
      [['conversation', 'rm', 'a', 'b'], "unexpected argument 'b'", 'conversation rm'],
      [['query', '--format', 'yaml', 'x'], "--format: invalid value 'yaml' (expected auto, text or json)", 'query'],
      [['query', '-n', '--id', 'x', 'y'], '--new cannot be used with --id', 'query'],
      [['query', 'x', '-m'], 'flag --model expects a value', 'query'],
      [['frob'], "unknown command 'frob'", ''],
      [['qurey', 'hello'], "unknown command 'qurey'; did you mean 'query'?", ''],
      [['conversation', 'lss'], "unknown command 'conversation lss'; did you mean 'conversation ls'?", 'conversation'],
      [['c', 'frob'], "unknown command 'c frob'", 'c'],
      [['help', 'frob'], "unknown command 'frob'", ''],
      [['frob', '--help'], "unknown command 'frob'", ''],
    ]
    for (const [args, message, command] of cases) {
      it(`jp ${args.join(' ')}`, async () => {
        const r = await jp(args)
        expect(r).to.deep.equal({code: 2, stdout: '', stderr: usage(message, command)})
      })
    }

    it('a missing argument carries no hint about --cfg taking several values', async () => {
      const r = await jp(['conversation', 'rm'])
      expect(r.stderr).to.equal(usage('missing argument ID', 'conversation rm'))
      expect(r.stderr).to.not.include('--cfg')
    })

    it('what the user typed is quoted with its control characters made visible', async () => {
      const flag = await jp(['query', '--x\u001b[2J'])
      expect(flag.stderr).to.equal(usage('unknown flag --x\\u001b[2J', 'query'))
      const command = await jp(['fr\u001b]0;owned\u0007ob'])
      expect(command.stderr).to.equal(usage("unknown command 'fr\\u001b]0;owned\\u0007ob'"))
      const value = await jp(['query', '--format', 'y\u009bml', 'x'])
      expect(value.stderr).to.equal(usage("--format: invalid value 'y\\u009bml' (expected auto, text or json)", 'query'))
    })
  })

  describe('version', () => {
    for (const flag of ['--version', '-v']) {
      it(`jp ${flag} prints jp VERSION (node VERSION, PLATFORM)`, async () => {
        const r = await jp([flag])
        expect(r).to.deep.equal({code: 0, stderr: '', stdout: `jp ${VERSION} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`})
      })
    }
  })
})
