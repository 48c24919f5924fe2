// `jp --help` must not pay for the prompts, the editor service, the providers
// or TOML (SPEC §2, §15). The CLI ships as one bundle (dist/jp.cjs), so
// "loading a module" means running its initialiser: esbuild wraps every module
// reached through import() (and every CommonJS module) in a function named
// after its path, which runs the first time the module is needed. V8's
// coverage of a real `jp ... --help` run (NODE_V8_COVERAGE) says which of
// those functions ran.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, ROOT} from '../helpers/cli.js'
import {bundleSites, coverageIn, coverageOf, wrappedModules} from '../helpers/coverage.js'
import {MCP_FIXTURE} from '../helpers/mcp.js'
import {spawnPty, type PtySession} from '../helpers/pty.js'

/** Coverage of `jp query` on a pty while `drive` types at its prompt; Ctrl+C ends it (the coverage is written at exit). */
async function promptCoverage(drive: (term: PtySession) => Promise<void>) {
  const sb = makeSandbox()
  const dir = join(sb.dir, 'coverage')
  mkdirSync(dir)
  const term = await spawnPty([BIN, 'query'], {cwd: sb.cwd, env: {...sb.env, NODE_V8_COVERAGE: dir}, cols: 100, rows: 30})
  try {
    await drive(term)
    term.send('\x03')
    await term.waitForExit(20_000)
    return coverageIn(dir)
  } finally {
    term.dispose()
    sb.cleanup()
  }
}

/** Heavy code that must be in the bundle behind a lazy wrapper, and must not run on --help. */
const HEAVY = [/^src\/lib\/mcp\/(hub|server|sdk|stdio-transport)\.ts$/, /\/markdown-it\//, /\/highlight\.js\//, /^src\/lib\/markdown\//, /\/execa\//, /\/smol-toml\//, /\/eventsource-parser\//, /^src\/lib\/llm\//, /^src\/lib\/inquire\//, /^src\/lib\/turn\//]
/** Heavy code that is not bundled today; if it ever is, it must not run on --help either. */
const HEAVY_IF_PRESENT = [/\/tmp\/lib\//, /\/@inquirer\//, /node-pty/]

describe('start-up: heavy modules load lazily', function () {
  this.timeout(30_000)
  const wrapped = wrappedModules()

  it('the bundle keeps each heavy part behind a lazy wrapper (not inlined into start-up)', () => {
    for (const re of HEAVY) expect(wrapped.filter((m) => re.test(m)), String(re)).to.not.be.empty
  })

  it('jp --help, jp --version and the recorded subcommand help (nothing installed that could change them) load no bundle at all: bin/run.js answers them', () => {
    for (const args of [['--help'], ['--version'], ['query', '--help'], ['conversation', 'edit', '--help']]) {
      const {urls, bundleRan} = coverageOf(args, {expectBundle: false})
      expect(bundleRan, `jp ${args.join(' ')}`).to.equal(false)
      expect(urls.some((u) => u.endsWith('/dist/first.cjs')), 'the probe works: the first module ran').to.equal(true)
      expect(urls.filter((u) => u.includes('/node_modules/'))).to.deep.equal([])
    }
  })

  // The help through oclif: at a width the help was not recorded at (or with a plugin installed).
  const NARROW = {OCLIF_COLUMNS: '60'}
  const WIDE = {OCLIF_COLUMNS: '120'}
  for (const [args, env] of [[['--help'], NARROW], [['query', '--help'], WIDE], [['conversation', 'edit', '--help'], WIDE], [['conversation', 'ls', '--help'], WIDE]] as [string[], NodeJS.ProcessEnv][]) {
    it(`jp ${args.join(' ')} (oclif, ${env.OCLIF_COLUMNS} columns) runs no prompt, editor, provider or TOML module`, () => {
      const {urls, ran} = coverageOf(args, {env})
      // The probe works: oclif's own modules were seen running.
      expect([...ran].some((m) => m.includes('/@oclif/core/'))).to.equal(true)
      const heavy = wrapped.filter((m) => ran.has(m) && [...HEAVY, ...HEAVY_IF_PRESENT].some((re) => re.test(m)))
      expect(heavy).to.deep.equal([])
      // What ships is what runs: nothing is loaded from node_modules beside the bundle.
      expect(urls.filter((u) => u.includes('/node_modules/'))).to.deep.equal([])
    })
  }

  // The first Intl.Segmenter of a process loads ICU's break-iterator data
  // (30-60 ms on this machine under load): built on first use
  // (text/graphemes.ts; string-width's own at the build, scripts/build.js),
  // never on a run that segments nothing. The prompt's chrome and typed ASCII
  // are simple text (graphemeSegments): opening `jp query`'s prompt and
  // typing in it build none either.
  describe('no grapheme segmenter is built by a run that segments nothing', () => {
    const sites = bundleSites(/new Intl\.Segmenter\(/)
    const built = (c: {ranAt: (o: number) => boolean}) => sites.filter((s) => c.ranAt(s.offset)).map((s) => s.module)

    it('the probe works: the bundle has segmenters, and typing in the prompt\'s line editor would build one', () => {
      expect(sites.map((s) => s.module)).to.include.members(['src/lib/text/graphemes.ts', 'node_modules/string-width/index.js'])
    })

    it('jp --help (oclif, 60 columns) builds none', () => {
      expect(built(coverageOf(['--help'], {env: NARROW}))).to.deep.equal([])
    })

    it('jp query -n hi, stdout a pipe, builds none', () => {
      expect(built(coverageOf(['query', '-n', 'hi'], {env: {JP_ECHO_DELAY_MS: '0'}}))).to.deep.equal([])
    })

    // One run serves the next three cases (the same prompt, typed into the same way).
    let typedAscii: ReturnType<typeof promptCoverage> | undefined
    const typeAscii = () =>
      (typedAscii ??= promptCoverage(async (term) => {
        await term.waitForText('Query:')
        term.type('zqj')
        await term.waitForText('Query: zqj')
      }))

    it('jp query on a terminal: opening the Query: prompt and typing ASCII build none', async () => {
      expect(built(await typeAscii())).to.deep.equal([])
    })

    it('jp query on a terminal: the renderer (markdown-it, src/lib/markdown) is not loaded before the prompt has closed', async () => {
      const c = await typeAscii()
      expect([...c.ran].some((m) => m.startsWith('src/lib/inquire/')), 'the probe works: the prompt ran').to.equal(true)
      expect([...c.ran].filter((m) => /^src\/lib\/markdown\/|\/markdown-it\//.test(m))).to.deep.equal([])
    })

    it('jp query on a terminal: the early prompt (dist/prompt.cjs) drew the prompt first, and it loads nothing from node_modules', async () => {
      const c = await typeAscii()
      expect(c.urls.filter((u) => u.endsWith('/dist/prompt.cjs'))).to.have.length(1)
      expect(readFileSync(join(ROOT, 'dist', 'prompt.cjs'), 'utf8')).to.not.match(/\brequire\("(?!node:)/)
    })

    it('the probe works: typing a combining accent builds one', async () => {
      const c = await promptCoverage(async (term) => {
        await term.waitForText('Query:')
        term.type('e\u0301x')
        await term.waitForText('x')
      })
      expect(built(c)).to.not.deep.equal([])
    })
  })

  describe('MCP: the SDK loads only when a server is used', () => {
    /** Coverage of `jp query hello` on the offline model, with `config` as the user's config file. */
    function queryCoverage(config: string) {
      const sb = makeSandbox()
      try {
        const dir = join(sb.dir, 'coverage')
        mkdirSync(dir)
        const cfg = join(sb.dir, 'config.toml')
        writeFileSync(cfg, config)
        const r = spawnSync(process.execPath, [BIN, 'query', '--cfg', cfg, 'hello'], {cwd: sb.cwd, env: {...sb.env, JP_ECHO_DELAY_MS: '0', NODE_V8_COVERAGE: dir}, encoding: 'utf8'})
        expect(r.status, r.stderr).to.equal(0)
        return coverageIn(dir)
      } finally {
        sb.cleanup()
      }
    }

    const mcpModules = (ran: Set<string>) => wrapped.filter((m) => ran.has(m) && /^src\/lib\/mcp\/(hub|server|sdk|stdio-transport)\.ts$/.test(m))
    const sdkUrls = (urls: string[]) => urls.filter((u) => u.includes('/@modelcontextprotocol/'))

    it('a query without an MCP server runs no MCP module and loads nothing of the SDK', () => {
      const {urls, ran} = queryCoverage('')
      expect(mcpModules(ran)).to.deep.equal([])
      expect(sdkUrls(urls)).to.deep.equal([])
    })

    it('a query with a disabled server loads none of it either', () => {
      const {urls, ran} = queryCoverage(`[mcp.servers.fx]\ncommand = "${process.execPath}"\nargs = ["${MCP_FIXTURE}"]\nenable = false\n`)
      expect(mcpModules(ran)).to.deep.equal([])
      expect(sdkUrls(urls)).to.deep.equal([])
    })

    it('the probe works: a query with a server configured loads the client from node_modules', () => {
      const {urls, ran} = queryCoverage(`[mcp.servers.fx]\ncommand = "${process.execPath}"\nargs = ["${MCP_FIXTURE}"]\n[conversation.tools."fx.*"]\nrun = "unattended"\n`)
      expect(mcpModules(ran)).to.include('src/lib/mcp/hub.ts')
      expect(sdkUrls(urls).some((u) => u.includes('/sdk/dist/esm/client/index.js'))).to.equal(true)
    })
  })
})
