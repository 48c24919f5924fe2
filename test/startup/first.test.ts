// `jp --version` and the recorded help (the root's, each command's and
// alias's, the topics') answered before the CLI loads (src/lib/cli/first.ts,
// issues 27 and 29): the same bytes oclif prints, and oclif answers whenever
// something could change them — a linked plugin (its command is in the help
// and runs), a help theme, a width the text was not recorded at, DEBUG.
// oclif's own answer is had with OCLIF_ANSWERS (DEBUG set to a namespace nothing logs to).
import {expect} from 'chai'
import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {coverageOf} from '../helpers/coverage.js'
import {BIN, makeSandbox, OCLIF_ANSWERS as OCLIF, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
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
      const first = await runJp(args, {sandbox: sb})
      const oclif = await runJp(args, {sandbox: sb, env: OCLIF})
      expect([first.code, first.stderr]).to.deep.equal([0, ''])
      expect(first.stdout).to.equal(oclif.stdout)
      expect(first.stdout).to.not.equal('')
      expect(coverageOf(args, {expectBundle: false}).bundleRan).to.equal(false)
    })
  }

  for (const args of [['--help', 'query'], ['-h', '-h'], ['help'], ['help', 'query'], ['--help', 'conversation'], ['query', 'hello', '--help'], ['-w', '/nowhere', 'query', '--help']]) {
    it(`jp ${args.join(' ')}: not a first answer, oclif renders it (the same bytes as with OCLIF_ANSWERS)`, async () => {
      const r = await runJp(args, {sandbox: sb})
      expect([r.code, r.stderr]).to.deep.equal([0, ''])
      expect(r.stdout).to.equal((await runJp(args, {sandbox: sb, env: OCLIF})).stdout)
      expect(coverageOf(args).bundleRan).to.equal(true)
    })
  }

  for (const env of [{FORCE_COLOR: '1'}, {COLORTERM: 'truecolor'}, {CI: 'true'}, {FORCE_COLOR: '1', NO_COLOR: '1'}]) {
    for (const args of [['--help'], ['query', '--help']]) {
      it(`jp ${args.join(' ')} with ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}: in colour or not as oclif would be`, async () => {
        const first = await runJp(args, {sandbox: sb, env})
        expect(first.stdout).to.equal((await runJp(args, {sandbox: sb, env: {...env, ...OCLIF}})).stdout)
      })
    }
  }

  it('every recorded argument list prints the bytes oclif prints, without colour and with', async function () {
    this.timeout(600_000)
    const {helps} = JSON.parse(readFileSync(join(ROOT, 'dist', 'recorded-help.json'), 'utf8')) as {helps: {argvs: string[][]; colored?: string}[]}
    // In colour: one list per text (the others print the same bytes without colour).
    const lists = helps.flatMap((h) => h.argvs.map((argv, i) => ({argv, colored: i === 0 && h.colored !== undefined})))
    // The commands, aliases and topics of the manifests are all there (a build that recorded nothing would pass the rest).
    expect(lists.length).to.be.greaterThan(40)
    const check = async ({argv, colored}: {argv: string[]; colored: boolean}) => {
      for (const env of colored ? [{}, {FORCE_COLOR: '1'}] : [{}]) {
        const [first, oclif] = await Promise.all([runJp(argv, {sandbox: sb, env}), runJp(argv, {sandbox: sb, env: {...env, ...OCLIF}})])
        expect([first.code, first.stderr], `jp ${argv.join(' ')}`).to.deep.equal([0, ''])
        expect(first.stdout, `jp ${argv.join(' ')} ${JSON.stringify(env)}`).to.equal(oclif.stdout)
      }
    }
    for (let i = 0; i < lists.length; i += 2) await Promise.all(lists.slice(i, i + 2).map(check))
  })

  it('the version line is jp VERSION (node VERSION, PLATFORM)', async () => {
    const r = await runJp(['--version'], {sandbox: sb})
    const version = (JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}).version
    expect(r.stdout).to.equal(`jp ${version} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`)
  })

  it('at a width where the help wraps, oclif renders it', async () => {
    const env = {OCLIF_COLUMNS: '50'}
    const narrow = await runJp(['--help'], {sandbox: sb, env})
    expect(narrow.stdout).to.equal((await runJp(['--help'], {sandbox: sb, env: {...env, ...OCLIF}})).stdout)
    expect(narrow.stdout).to.not.equal((await runJp(['--help'], {sandbox: sb})).stdout)
    expect(coverageOf(['--help'], {env}).bundleRan).to.equal(true)
  })

  for (const columns of ['70', '81', '120']) {
    it(`jp query --help at ${columns} columns (recorded at 80 only: its lines wrap), oclif renders it`, async () => {
      const env = {OCLIF_COLUMNS: columns}
      const other = await runJp(['query', '--help'], {sandbox: sb, env})
      expect(other.stdout).to.equal((await runJp(['query', '--help'], {sandbox: sb, env: {...env, ...OCLIF}})).stdout)
      expect(other.stdout).to.not.equal((await runJp(['query', '--help'], {sandbox: sb})).stdout)
      expect(coverageOf(['query', '--help'], {env}).bundleRan).to.equal(true)
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
