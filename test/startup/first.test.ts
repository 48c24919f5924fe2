// `jp --version` and the root help answered before the CLI loads
// (src/lib/cli/first.ts, issue 27): the same bytes oclif prints, and oclif
// answers whenever something could change them — a linked plugin (its
// command is in the help and runs), a help theme, a narrower width, DEBUG.
// oclif's own answer is had with OCLIF_ANSWERS (DEBUG set to a namespace nothing logs to).
import {expect} from 'chai'
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {coverageOf} from '../helpers/coverage.js'
import {BIN, makeSandbox, OCLIF_ANSWERS as OCLIF, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {spawnPty} from '../helpers/pty.js'

describe('start-up: what bin/run.js answers before loading the CLI', function () {
  this.timeout(120_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  for (const args of [[], ['--help'], ['-h'], ['--version'], ['-v'], ['--version', 'ignored'], ['-w', '/nowhere', '--version']]) {
    it(`jp ${args.join(' ')}: the bytes oclif prints, without loading the bundle`, async () => {
      const first = await runJp(args, {sandbox: sb})
      const oclif = await runJp(args, {sandbox: sb, env: OCLIF})
      expect([first.code, first.stderr]).to.deep.equal([0, ''])
      expect(first.stdout).to.equal(oclif.stdout)
      expect(first.stdout).to.not.equal('')
      expect(coverageOf(args, {expectBundle: false}).bundleRan).to.equal(false)
    })
  }

  for (const args of [['--help', 'query'], ['query', '-h'], ['-h', '-h'], ['help'], ['--help', 'conversation']]) {
    it(`jp ${args.join(' ')}: not a first answer, oclif renders it (the same bytes as with OCLIF_ANSWERS)`, async () => {
      const r = await runJp(args, {sandbox: sb})
      expect([r.code, r.stderr]).to.deep.equal([0, ''])
      expect(r.stdout).to.equal((await runJp(args, {sandbox: sb, env: OCLIF})).stdout)
      expect(coverageOf(args).bundleRan).to.equal(true)
    })
  }

  for (const env of [{FORCE_COLOR: '1'}, {COLORTERM: 'truecolor'}, {CI: 'true'}, {FORCE_COLOR: '1', NO_COLOR: '1'}]) {
    it(`jp --help with ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}: in colour or not as oclif would be`, async () => {
      const first = await runJp(['--help'], {sandbox: sb, env})
      expect(first.stdout).to.equal((await runJp(['--help'], {sandbox: sb, env: {...env, ...OCLIF}})).stdout)
    })
  }

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

  for (const cols of [100, 60]) {
    it(`on a terminal ${cols} columns wide, jp --help shows the bytes oclif shows (${cols >= 80 ? 'answered first' : 'oclif renders it'})`, async () => {
      const shown = async (env: NodeJS.ProcessEnv) => {
        const term = await spawnPty([BIN, '--help'], {cols, rows: 40, cwd: sb.cwd, env: {...sb.env, ...env}})
        try {
          await term.waitForExit()
          return term.output()
        } finally {
          term.dispose()
        }
      }
      const first = await shown({})
      expect(first).to.include('TOPICS')
      expect(first).to.equal(await shown(OCLIF))
    })
  }

  it('a help theme (oclif theme.json in the config dir) leaves the help to oclif', () => {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'theme.json'), JSON.stringify({command: 'cyan'}))
    // coverageOf makes its own sandbox: point it at this one's config dir.
    expect(coverageOf(['--help'], {env: {JP_CONFIG_DIR: join(sb.env.XDG_CONFIG_HOME!, 'jp')}}).bundleRan).to.equal(true)
  })

  it('with a linked plugin, oclif answers: the plugin\'s command is in the root help, runs, and `jp plugins` lists it', async () => {
    const plugin = join(sb.dir, 'jp-plugin-hello')
    mkdirSync(join(plugin, 'commands'), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(plugin, 'node_modules'))
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({name: 'jp-plugin-hello', version: '1.0.0', type: 'module', oclif: {commands: './commands'}}))
    writeFileSync(
      join(plugin, 'commands', 'hello.js'),
      "import {Command} from '@oclif/core'\nexport default class Hello extends Command {\n  static summary = 'Say hello from a plugin'\n  async run() { this.log('hello from the plugin') }\n}\n",
    )
    const linked = await runJp(['plugins', 'link', plugin, '--no-install'], {sandbox: sb})
    expect(linked.code, linked.stderr).to.equal(0)
    const help = await runJp(['--help'], {sandbox: sb})
    expect(help.code, help.stderr).to.equal(0)
    expect(help.stdout).to.match(/^ {2}hello +Say hello from a plugin$/m)
    expect(help.stdout).to.equal((await runJp(['--help'], {sandbox: sb, env: OCLIF})).stdout)
    expect((await runJp(['hello'], {sandbox: sb})).stdout).to.equal('hello from the plugin\n')
    expect((await runJp(['plugins'], {sandbox: sb})).stdout).to.include('jp-plugin-hello')
    expect((await runJp(['--version'], {sandbox: sb})).stdout).to.equal((await runJp(['--version'], {sandbox: sb, env: OCLIF})).stdout)
  })
})
