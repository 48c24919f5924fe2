// `jp query` on a terminal: bin/run.js draws the Query: prompt before the CLI
// bundle loads (dist/prompt.cjs, src/lib/cli/early-prompt.ts, issue 40) and
// hands the keys typed into it to the real prompt. Proved with a copy of the
// package whose bundle stands in for the CLI (one that never returns, one
// that only writes a line), and on the real build for what must not change:
// a broken config's one line, the keys, the fallbacks.
import {expect} from 'chai'
import {cpSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {keys, spawnPty, type PtySession} from '../helpers/pty.js'

/** The early picture's erase (cli/early-prompt.ts EARLY_PROMPT_ERASE) and the real prompt's bracketed paste. */
const ERASE = '\r\u001B[J'
const REAL_PROMPT = '\u001B[?2004h'

describe('start-up: the Query: prompt drawn before the CLI loads', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let term: PtySession | undefined
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => {
    term?.dispose()
    term = undefined
    sb.cleanup()
  })

  /** A copy of the package (bin/, package.json, the lean modules) whose dist/jp.cjs is `bundle`. */
  function packageWithBundle(bundle: string): string {
    const root = join(sb.dir, 'package')
    mkdirSync(join(root, 'dist'), {recursive: true})
    cpSync(join(ROOT, 'bin'), join(root, 'bin'), {recursive: true})
    for (const file of ['package.json', 'dist/prompt.cjs', 'dist/first.cjs']) cpSync(join(ROOT, file), join(root, file))
    writeFileSync(join(root, 'dist', 'jp.cjs'), bundle)
    return join(root, 'bin', 'run.js')
  }

  /** oclif's user plugins file (the data dir's package.json): a plugin's init hook would run before the prompt. */
  function installPlugin(): void {
    mkdirSync(sb.env.JP_DATA_DIR!, {recursive: true})
    writeFileSync(join(sb.env.JP_DATA_DIR!, 'package.json'), JSON.stringify({private: true, oclif: {schema: 1, plugins: []}, dependencies: {}}))
  }

  async function start(bin: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<PtySession> {
    term = await spawnPty([bin, ...args], {cwd: sb.cwd, env: {...sb.env, ...env}, cols: 240, rows: 30})
    return term
  }

  // Sleeps for good without using a CPU: the CLI never gets going.
  const NEVER_RETURNS = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)\n'
  const WRITES_A_LINE = "process.stdout.write('the CLI ran\\n')\nexports.execute = async () => {}\n"

  it('the prompt shows, with the keys typed at exec, while the bundle has not returned', async () => {
    const t = await start(packageWithBundle(NEVER_RETURNS), ['query'])
    t.type('zqj')
    await t.waitForText('Query: zqj')
    expect(t.screenText()).to.include('Enter to send · Alt+Enter for newline')
  })

  for (const args of [['q'], ['query', '-n'], ['q', '--new']]) {
    it(`\`jp ${args.join(' ')}\` is the same prompt`, async () => {
      const t = await start(packageWithBundle(NEVER_RETURNS), args)
      t.type('zqj')
      await t.waitForText('Query: zqj')
    })
  }

  it("the CLI's first write to stdout erases the early prompt before its own text", async () => {
    const t = await start(packageWithBundle(WRITES_A_LINE), ['query'])
    await t.waitForExit(20_000)
    const out = t.output()
    expect(out.indexOf('Query:'), out).to.be.greaterThan(-1)
    expect(out.indexOf(ERASE, out.indexOf('Query:')), out).to.be.lessThan(out.indexOf('the CLI ran'))
    expect(t.screenText()).to.equal('the CLI ran')
  })

  it('a CLI that crashes: no early picture is left beside the stack trace', async () => {
    const t = await start(packageWithBundle("throw new Error('the bundle broke')\n"), ['query'])
    expect((await t.waitForExit(20_000)).exitCode).to.not.equal(0)
    expect(t.output()).to.include('Query:')
    expect(t.screenText()).to.include('Error: the bundle broke')
    expect(t.screenText()).to.not.include('Query:')
  })

  for (const [what, args, env, setUp] of [
    ['a user plugin installed (its init hook runs first)', ['query'], {}, installPlugin],
    ['JP_EARLY_PROMPT=0', ['query'], {JP_EARLY_PROMPT: '0'}, () => {}],
    ['DEBUG set', ['query'], {DEBUG: 'jp-test-nothing-logs-here'}, () => {}],
    ['TERM=dumb (the plain line input)', ['query'], {TERM: 'dumb'}, () => {}],
    ['`jp query -m MODEL` (a flag: the CLI decides)', ['query', '-m', 'x/y'], {}, () => {}],
    ['`jp query -n -n`', ['query', '-n', '-n'], {}, () => {}],
    ['`jp query hello` (a query given)', ['query', 'hello'], {}, () => {}],
  ] as const) {
    it(`no early prompt with ${what}: the CLI runs first`, async () => {
      setUp()
      const t = await start(packageWithBundle(WRITES_A_LINE), [...args], env)
      await t.waitForExit(20_000)
      expect(t.output()).to.not.include('Query:')
      expect(t.screenText()).to.equal('the CLI ran')
    })
  }

  it('no early prompt when stdin is not the terminal (the query comes from it)', async () => {
    const bin = packageWithBundle(WRITES_A_LINE)
    term = await spawnPty(['-c', 'echo hello | "$0" "$1" query', process.execPath, bin], {file: '/bin/sh', cwd: sb.cwd, env: sb.env, cols: 240, rows: 30})
    await term.waitForExit(20_000)
    expect(term.output()).to.not.include('Query:')
    expect(term.screenText()).to.equal('the CLI ran')
  })

  describe('on the real build', () => {
    it('a broken config stops with the same one line, and no prompt is left on the screen', async () => {
      mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
      const userFile = join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml')
      writeFileSync(userFile, '[style]\nmarkdown = "yes"\n')
      const screens: string[] = []
      for (const env of [{}, {JP_EARLY_PROMPT: '0'}]) {
        const t = await start(BIN, ['query'], env)
        expect((await t.waitForExit(30_000)).exitCode).to.equal(1)
        screens.push(t.screenText())
        // The early prompt was there (and erased) in the first run only.
        expect(t.output().includes('Query:'), JSON.stringify(env)).to.equal(screens.length === 1)
        t.dispose()
      }
      expect(screens[0]).to.equal(`Error: ${userFile}:2:1: style.markdown: expected boolean, got "yes"`)
      expect(screens[0]).to.equal(screens[1])
    })

    it("a trust notice shows above the real prompt, the early picture gone and the keys typed early in the prompt", async () => {
      expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
      writeFileSync(join(sb.cwd, '.jp', 'config.toml'), '[editor]\ncmd = "vi"\n')
      const t = await start(BIN, ['query'])
      t.type('zqj')
      await t.waitFor(() => t.output().includes(REAL_PROMPT), 'the real prompt')
      await t.waitForText('Query: zqj')
      const lines = t.screen().filter((l) => l !== '')
      expect(lines[0], t.screenText()).to.match(/^jp: ignoring editor\.cmd from the workspace /)
      expect(lines.filter((l) => l.includes('Query:')), t.screenText()).to.deep.equal(['Query: zqj'])
      expect(lines.at(-1)).to.equal('Enter to send · Alt+Enter for newline')
    })

    it('keys typed into the early prompt, plain and not, reach the real prompt in order; Enter sends nothing before it is up', async () => {
      const t = await start(BIN, ['query'], {JP_ECHO_DELAY_MS: '0'})
      // Typed at exec: a word, a Ctrl+A (to the start of the line) and a word before it, then Ctrl+C.
      t.type('world')
      t.send(keys.ctrlA)
      t.type('hello ')
      await t.waitFor(() => t.output().includes(REAL_PROMPT), 'the real prompt')
      await t.waitForText('Query: hello world')
      t.send(keys.ctrlC)
      await t.waitForExit(20_000)
      // The cancelled text is kept for the next jp query (the typed draft), as the real prompt keeps it.
      expect(t.screenText()).to.include('your text is kept')
      const next = await start(BIN, ['query'])
      await next.waitFor(() => next.output().includes(REAL_PROMPT), 'the real prompt')
      await next.waitForText('Query: hello world')
    })
  })

  it('dist/prompt.cjs requires nothing but node: built-ins (it runs before anything is loaded)', () => {
    const source = readFileSync(join(ROOT, 'dist', 'prompt.cjs'), 'utf8')
    const specifiers = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1])
    expect(specifiers).to.not.be.empty
    expect(specifiers.filter((s) => !s.startsWith('node:'))).to.deep.equal([])
    expect(source).to.not.match(/\bimport\(/)
  })
})
