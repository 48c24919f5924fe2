// `jp --version` and the recorded help (the root's, each command's and
// alias's, the topics') answered before the CLI loads (src/lib/cli/first.ts,
// issues 27 and 29): the same bytes oclif prints, and oclif answers whenever
// something could change them — a linked plugin (its command is in the help
// and runs), a help theme, a width the text was not recorded at, DEBUG.
// oclif's own answer is had with OCLIF_ANSWERS (DEBUG set to a namespace nothing logs to).
//
// For speed (docs/testing.md): a sample of argument lists runs end to end,
// a real `jp` per list and setting, its coverage taken from that same run;
// the properties of every recorded list under every colour setting are
// checked by one child per setting that answers all the lists
// (test/helpers/one-process.ts; oclif's child takes them in the reverse
// order of the build's recording, so a run that leaked into the next would
// not go unseen).
import {expect} from 'chai'
import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {coverageOf, runCovered} from '../helpers/coverage.js'
import {BIN, makeSandbox, OCLIF_ANSWERS as OCLIF, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {firstAnswers, oclifAnswers} from '../helpers/one-process.js'
import {spawnPty} from '../helpers/pty.js'

describe('start-up: what bin/run.js answers before loading the CLI', function () {
  this.timeout(120_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  const FIRST = [[], ['--help'], ['-h'], ['--version'], ['-v'], ['--version', 'ignored'], ['-w', '/nowhere', '--version']]
  const SUBCOMMAND_HELP = [['query', '--help'], ['q', '-h'], ['conversation', 'edit', '--help'], ['c', 'e', '-h'], ['conversation'], ['c', '--help'], ['plugins', 'install', '--help'], ['help', '--help']]
  for (const args of [...FIRST, ...SUBCOMMAND_HELP]) {
    it(`jp ${args.join(' ')}: the bytes oclif prints, without loading the bundle`, async () => {
      const [first, oclif] = await Promise.all([runCovered(args, {sandbox: sb}), runJp(args, {sandbox: sb, env: OCLIF})])
      expect([first.code, first.stderr]).to.deep.equal([0, ''])
      expect(first.stdout).to.equal(oclif.stdout)
      expect(first.stdout).to.not.equal('')
      expect(first.coverage.bundleRan).to.equal(false)
    })
  }

  for (const args of [['--help', 'query'], ['-h', '-h'], ['help'], ['help', 'query'], ['--help', 'conversation'], ['query', 'hello', '--help'], ['-w', '/nowhere', 'query', '--help']]) {
    it(`jp ${args.join(' ')}: not a first answer, oclif renders it (the same bytes as with OCLIF_ANSWERS)`, async () => {
      const [r, oclif] = await Promise.all([runCovered(args, {sandbox: sb}), runJp(args, {sandbox: sb, env: OCLIF})])
      expect([r.code, r.stderr]).to.deep.equal([0, ''])
      expect(r.stdout).to.equal(oclif.stdout)
      expect(r.coverage.bundleRan).to.equal(true)
    })
  }

  // End to end, one list of each kind in colour (the recorded colour variant, oclif's colour module asked in a real process).
  for (const args of [['--help'], ['query', '--help']]) {
    it(`jp ${args.join(' ')} with FORCE_COLOR=1: in colour, as oclif would be`, async () => {
      const env = {FORCE_COLOR: '1'}
      const [first, oclif] = await Promise.all([runJp(args, {sandbox: sb, env}), runJp(args, {sandbox: sb, env: {...env, ...OCLIF}})])
      expect(first.stdout).to.equal(oclif.stdout)
      expect(first.stdout, 'the probe works: there is colour').to.include('\u001b[')
    })
  }

  describe('every recorded argument list, in colour and without: the bytes oclif prints', () => {
    const {helps} = JSON.parse(readFileSync(join(ROOT, 'dist', 'recorded-help.json'), 'utf8')) as {helps: {argvs: string[][]; colored?: string}[]}
    const lists = helps.flatMap((h) => h.argvs)

    it('the commands, aliases and topics of the manifests are all recorded (a build that recorded nothing would pass the rest)', () => {
      expect(lists.length).to.be.greaterThan(40)
      expect(helps.filter((h) => h.colored !== undefined).length).to.be.greaterThan(20)
    })

    // The settings oclif's colour module reads when it loads: with each, the first answer is oclif's bytes, in colour or not.
    const SETTINGS: NodeJS.ProcessEnv[] = [{}, {FORCE_COLOR: '1'}, {COLORTERM: 'truecolor'}, {CI: 'true'}, {FORCE_COLOR: '1', NO_COLOR: '1'}]
    for (const env of SETTINGS) {
      const named = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ') || 'no colour setting'
      it(`${named}: each list answered first prints what oclif prints (one child per side)`, async () => {
        const [first, oclif] = await Promise.all([firstAnswers(lists, {sandbox: sb, env}), oclifAnswers(lists, {sandbox: sb, env: {...env, ...OCLIF}, reverse: true})])
        for (const [i, argv] of lists.entries()) {
          // (Node's own warning, once per process, that FORCE_COLOR overrides NO_COLOR is no part of the help.)
          const stderr = oclif[i].stderr.replace(/^\(node:\d+\) Warning: .*\n\(Use `node --trace-warnings .*\n/, '')
          expect([oclif[i].code, stderr], `oclif: jp ${argv.join(' ')}`).to.deep.equal([0, ''])
          // Without a terminal or FORCE_COLOR, every recorded list is answered first; in colour, those with a colour variant.
          if (!('FORCE_COLOR' in env) || helps.find((h) => h.argvs.includes(argv))!.colored !== undefined) {
            expect(first[i], `jp ${argv.join(' ')} is answered first`).to.not.equal(undefined)
          }
          if (first[i] !== undefined) expect(first[i], `jp ${argv.join(' ')} ${named}`).to.equal(oclif[i].stdout)
        }
        if (env.FORCE_COLOR === '1' && env.NO_COLOR === undefined) expect(oclif[0].stdout, 'the probe works: there is colour').to.include('\u001b[')
      })
    }
  })

  it('the version line is jp VERSION (node VERSION, PLATFORM)', async () => {
    const r = await runJp(['--version'], {sandbox: sb})
    const version = (JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}).version
    expect(r.stdout).to.equal(`jp ${version} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`)
  })

  it('at a width where the help wraps, oclif renders it', async () => {
    const env = {OCLIF_COLUMNS: '50'}
    const [narrow, oclif, wide] = await Promise.all([runCovered(['--help'], {sandbox: sb, env}), runJp(['--help'], {sandbox: sb, env: {...env, ...OCLIF}}), runJp(['--help'], {sandbox: sb})])
    expect(narrow.stdout).to.equal(oclif.stdout)
    expect(narrow.stdout).to.not.equal(wide.stdout)
    expect(narrow.coverage.bundleRan).to.equal(true)
  })

  for (const columns of ['70', '81', '120']) {
    it(`jp query --help at ${columns} columns (recorded at 80 only: its lines wrap), oclif renders it`, async () => {
      const env = {OCLIF_COLUMNS: columns}
      const args = ['query', '--help']
      const [other, oclif, at80] = await Promise.all([runCovered(args, {sandbox: sb, env}), runJp(args, {sandbox: sb, env: {...env, ...OCLIF}}), runJp(args, {sandbox: sb})])
      expect(other.stdout).to.equal(oclif.stdout)
      expect(other.stdout).to.not.equal(at80.stdout)
      expect(other.coverage.bundleRan).to.equal(true)
    })
  }

  for (const [args, cols] of [[['--help'], 100], [['--help'], 60], [['query', '--help'], 80], [['query', '--help'], 100]] as [string[], number][]) {
    it(`on a terminal ${cols} columns wide, jp ${args.join(' ')} shows the bytes oclif shows`, async () => {
      const shown = async (env: NodeJS.ProcessEnv) => {
        const term = await spawnPty([BIN, ...args], {cols, rows: 80, cwd: sb.cwd, env: {...sb.env, ...env}})
        try {
          await term.waitForExit()
          return term.output()
        } finally {
          term.dispose()
        }
      }
      const first = await shown({})
      expect(first).to.include('USAGE')
      expect(first).to.equal(await shown(OCLIF))
    })
  }

  it('a help theme (oclif theme.json in the config dir) leaves the help to oclif', () => {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'theme.json'), JSON.stringify({command: 'cyan'}))
    // coverageOf makes its own sandbox: point it at this one's config dir.
    expect(coverageOf(['--help'], {env: {JP_CONFIG_DIR: join(sb.env.XDG_CONFIG_HOME!, 'jp')}}).bundleRan).to.equal(true)
  })

  it('with a linked plugin, oclif answers: the plugin\'s commands are in the root and topic help, run, and `jp plugins` lists it', async () => {
    const plugin = join(sb.dir, 'jp-plugin-hello')
    mkdirSync(join(plugin, 'commands'), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(plugin, 'node_modules'))
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({name: 'jp-plugin-hello', version: '1.0.0', type: 'module', oclif: {commands: './commands'}}))
    writeFileSync(
      join(plugin, 'commands', 'hello.js'),
      "import {Command} from '@oclif/core'\nexport default class Hello extends Command {\n  static summary = 'Say hello from a plugin'\n  async run() { this.log('hello from the plugin') }\n}\n",
    )
    // And one in jp's own topic: the recorded `jp conversation` help does not list it, oclif's does.
    mkdirSync(join(plugin, 'commands', 'conversation'))
    writeFileSync(
      join(plugin, 'commands', 'conversation', 'hello.js'),
      "import {Command} from '@oclif/core'\nexport default class Hello extends Command {\n  static summary = 'Greet a conversation'\n  async run() { this.log('hello, conversation') }\n}\n",
    )
    const linked = await runJp(['plugins', 'link', plugin, '--no-install'], {sandbox: sb})
    expect(linked.code, linked.stderr).to.equal(0)
    for (const args of [['conversation', '--help'], ['conversation'], ['c', '-h']]) {
      const topic = await runJp(args, {sandbox: sb})
      // (stderr: oclif's warning that a linked ES module plugin is not transpiled.)
      expect(topic.code, topic.stderr).to.equal(0)
      expect(topic.stdout, `jp ${args.join(' ')}`).to.match(/^ {2}conversation hello +Greet a conversation$/m)
      expect(topic.stdout).to.equal((await runJp(args, {sandbox: sb, env: OCLIF})).stdout)
    }
    const own = await runJp(['conversation', 'hello', '--help'], {sandbox: sb})
    expect(own.stdout).to.include('Greet a conversation')
    expect((await runJp(['conversation', 'hello'], {sandbox: sb})).stdout).to.equal('hello, conversation\n')
    expect((await runJp(['query', '--help'], {sandbox: sb})).stdout).to.equal((await runJp(['query', '--help'], {sandbox: sb, env: OCLIF})).stdout)
    const help = await runJp(['--help'], {sandbox: sb})
    expect(help.code, help.stderr).to.equal(0)
    expect(help.stdout).to.match(/^ {2}hello +Say hello from a plugin$/m)
    expect(help.stdout).to.equal((await runJp(['--help'], {sandbox: sb, env: OCLIF})).stdout)
    expect((await runJp(['hello'], {sandbox: sb})).stdout).to.equal('hello from the plugin\n')
    expect((await runJp(['plugins'], {sandbox: sb})).stdout).to.include('jp-plugin-hello')
    expect((await runJp(['--version'], {sandbox: sb})).stdout).to.equal((await runJp(['--version'], {sandbox: sb, env: OCLIF})).stdout)
  })
})
