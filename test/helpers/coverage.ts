// Which of the bundle's modules a real run of `jp ARGS` initialised. The CLI
// ships as one bundle (dist/jp.cjs): esbuild wraps every module reached
// through import() (and every CommonJS module) in a function named after its
// path, which runs the first time the module is needed; V8's coverage of the
// run (NODE_V8_COVERAGE) says which of those functions ran.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {BIN, makeSandbox, ROOT} from './cli.js'

export const BUNDLE = join(ROOT, 'dist', 'jp.cjs')

/** The path-named module wrappers esbuild emits: `"src/x.ts"() {` and `"node_modules/y.js"(exports, module) {`. */
export function wrappedModules(): string[] {
  const text = readFileSync(BUNDLE, 'utf8')
  return [...text.matchAll(/^\s*"([^"]+)"\((?:exports, module)?\) \{$/gm)].map((m) => m[1])
}

export interface Coverage {
  /** Every script V8 saw (file URLs, node: internals). */
  urls: string[]
  /** Module wrappers in the bundle that ran at least once (none when the bundle was not loaded). */
  ran: Set<string>
  /** Whether the bundle was loaded at all (bin/run.js answers --version and the root help without it). */
  bundleRan: boolean
}

/** Coverage of `jp ARGS`; `expectBundle: false` lets a run that never loads the bundle through. */
export function coverageOf(args: string[], opts: {env?: NodeJS.ProcessEnv; expectBundle?: boolean} = {}): Coverage {
  const sb = makeSandbox()
  try {
    const dir = join(sb.dir, 'coverage')
    mkdirSync(dir)
    const r = spawnSync(process.execPath, [BIN, ...args], {cwd: sb.cwd, env: {...sb.env, ...opts.env, NODE_V8_COVERAGE: dir}, encoding: 'utf8'})
    expect(r.status, r.stderr).to.equal(0)
    const {urls, ran, bundleRan} = coverageIn(dir)
    if (opts.expectBundle !== false) expect(bundleRan, 'the bundle ran').to.equal(true)
    return {urls, ran, bundleRan}
  } finally {
    sb.cleanup()
  }
}

/** What the NODE_V8_COVERAGE files in `dir` say ran. */
export function coverageIn(dir: string): Coverage {
  const results = readdirSync(dir).flatMap(
    (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as {result: {url: string; functions: {functionName: string; ranges: {count: number}[]}[]}[]}).result,
  )
  const bundle = results.find((s) => s.url === pathToFileURL(BUNDLE).href)
  const ran = new Set(bundle?.functions.filter((f) => f.ranges[0].count > 0).map((f) => f.functionName) ?? [])
  return {urls: results.map((s) => s.url), ran, bundleRan: bundle !== undefined}
}
