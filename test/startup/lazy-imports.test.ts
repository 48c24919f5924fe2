// `jp --help` must not pay for the prompts, the editor service, the providers
// or TOML (SPEC §2, §15). The CLI ships as one bundle (dist/jp.cjs), so
// "loading a module" means running its initialiser: esbuild wraps every module
// reached through import() (and every CommonJS module) in a function named
// after its path, which runs the first time the module is needed. V8's
// coverage of a real `jp ... --help` run (NODE_V8_COVERAGE) says which of
// those functions ran.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {BIN, makeSandbox, ROOT} from '../helpers/cli.js'

const BUNDLE = join(ROOT, 'dist', 'jp.cjs')

/** Heavy code that must be in the bundle behind a lazy wrapper, and must not run on --help. */
const HEAVY = [/\/markdown-it\//, /\/highlight\.js\//, /^src\/lib\/markdown\//, /\/execa\//, /\/smol-toml\//, /\/eventsource-parser\//, /^src\/lib\/llm\//, /^src\/lib\/inquire\//, /^src\/lib\/turn\//]
/** Heavy code that is not bundled today; if it ever is, it must not run on --help either. */
const HEAVY_IF_PRESENT = [/\/tmp\/lib\//, /\/@inquirer\//, /node-pty/]

/** The path-named module wrappers esbuild emits: `"src/x.ts"() {` and `"node_modules/y.js"(exports, module) {`. */
function wrappedModules(): string[] {
  const text = readFileSync(BUNDLE, 'utf8')
  return [...text.matchAll(/^\s*"([^"]+)"\((?:exports, module)?\) \{$/gm)].map((m) => m[1])
}

interface Coverage {
  /** Every script V8 saw (file URLs, node: internals). */
  urls: string[]
  /** Module wrappers in the bundle that ran at least once. */
  ran: Set<string>
}

function coverageOf(args: string[]): Coverage {
  const sb = makeSandbox()
  try {
    const dir = join(sb.dir, 'coverage')
    mkdirSync(dir)
    const r = spawnSync(process.execPath, [BIN, ...args], {cwd: sb.cwd, env: {...sb.env, NODE_V8_COVERAGE: dir}, encoding: 'utf8'})
    expect(r.status, r.stderr).to.equal(0)
    const results = readdirSync(dir).flatMap(
      (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as {result: {url: string; functions: {functionName: string; ranges: {count: number}[]}[]}[]}).result,
    )
    const bundle = results.find((s) => s.url === pathToFileURL(BUNDLE).href)
    expect(bundle, 'the bundle ran').to.not.equal(undefined)
    const ran = new Set(bundle!.functions.filter((f) => f.ranges[0].count > 0).map((f) => f.functionName))
    return {urls: results.map((s) => s.url), ran}
  } finally {
    sb.cleanup()
  }
}

describe('start-up: heavy modules load lazily', function () {
  this.timeout(30_000)
  const wrapped = wrappedModules()

  it('the bundle keeps each heavy part behind a lazy wrapper (not inlined into start-up)', () => {
    for (const re of HEAVY) expect(wrapped.filter((m) => re.test(m)), String(re)).to.not.be.empty
  })

  for (const args of [['--help'], ['query', '--help'], ['conversation', 'edit', '--help'], ['conversation', 'ls', '--help']]) {
    it(`jp ${args.join(' ')} runs no prompt, editor, provider or TOML module`, () => {
      const {urls, ran} = coverageOf(args)
      // The probe works: oclif's own modules were seen running.
      expect([...ran].some((m) => m.includes('/@oclif/core/'))).to.equal(true)
      const heavy = wrapped.filter((m) => ran.has(m) && [...HEAVY, ...HEAVY_IF_PRESENT].some((re) => re.test(m)))
      expect(heavy).to.deep.equal([])
      // What ships is what runs: nothing is loaded from node_modules beside the bundle.
      expect(urls.filter((u) => u.includes('/node_modules/'))).to.deep.equal([])
    })
  }
})
