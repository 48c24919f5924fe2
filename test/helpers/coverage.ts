// Which of the bundle's modules a real run of `jp ARGS` initialised. The CLI
// ships as one bundle (dist/jp.cjs): esbuild wraps every module reached
// through import() (and every CommonJS module) in a function named after its
// path, which runs the first time the module is needed; V8's coverage of the
// run (NODE_V8_COVERAGE) says which of those functions ran.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {BIN, makeSandbox, ROOT, runJp, type RunResult, type Sandbox} from './cli.js'

export const BUNDLE = join(ROOT, 'dist', 'jp.cjs')

/** The path-named module wrappers esbuild emits: `"src/x.ts"() {` and `"node_modules/y.js"(exports, module) {`. */
export function wrappedModules(): string[] {
  const text = readFileSync(BUNDLE, 'utf8')
  return [...text.matchAll(/^\s*"([^"]+)"\((?:exports, module)?\) \{$/gm)].map((m) => m[1])
}

interface CoverageRange {
  startOffset: number
  endOffset: number
  count: number
}

export interface Coverage {
  /** Every script V8 saw (file URLs, node: internals). */
  urls: string[]
  /** Module wrappers in the bundle that ran at least once (none when the bundle was not loaded). */
  ran: Set<string>
  /** Whether the bundle was loaded at all (bin/run.js answers --version and the root help without it). */
  bundleRan: boolean
  /** Whether the bundle's code at this character offset ran (the innermost covered range's count). */
  ranAt: (offset: number) => boolean
}

/**
 * How far V8's offsets run ahead of the bundle's text: bin/load.js compiles the
 * bundle inside a CommonJS wrapper. Found from a named function the text
 * declares once (its range starts at the `function` keyword). The
 * declarations are indexed in one pass over the text (a search per function
 * took seconds per run on this 3.5 MB bundle).
 */
function wrapperShift(functions: {functionName: string; ranges: CoverageRange[]}[]): number {
  const declared = declarations()
  const votes = new Map<number, number>()
  for (const f of functions) {
    if (!/^[A-Za-z_$][\w$]{5,}$/.test(f.functionName)) continue
    const at = declared.get(f.functionName)
    // Declared nowhere, or more than once: no telling which one V8 means.
    if (at === undefined || at < 0) continue
    const shift = f.ranges[0].startOffset - at
    votes.set(shift, (votes.get(shift) ?? 0) + 1)
  }
  // The most common difference (an `async function` starts a few characters earlier).
  const best = [...votes].sort((a, b) => b[1] - a[1])[0]
  if (!best) throw new Error('no named function to line coverage offsets up with the bundle text')
  return best[0]
}

let declaredCache: {mtimeMs: number; offsets: Map<string, number>} | undefined

/** Where the bundle's text says `function NAME(`, by name: the offset of `function`, or -1 for a name declared more than once. */
function declarations(): Map<string, number> {
  const mtimeMs = statSync(BUNDLE).mtimeMs
  if (declaredCache?.mtimeMs === mtimeMs) return declaredCache.offsets
  const offsets = new Map<string, number>()
  for (const m of readFileSync(BUNDLE, 'utf8').matchAll(/function ([A-Za-z_$][\w$]*)\(/g)) offsets.set(m[1], offsets.has(m[1]) ? -1 : m.index)
  declaredCache = {mtimeMs, offsets}
  return offsets
}

/** Where in the bundle `re` matches, with the module wrapper each match lies in. */
export function bundleSites(re: RegExp): {offset: number; module: string}[] {
  const text = readFileSync(BUNDLE, 'utf8')
  // esbuild heads each module's code with a `// path` comment.
  const heads = [...text.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)]
  return [...text.matchAll(new RegExp(re.source, 'g'))].map((m) => ({
    offset: m.index,
    module: heads.findLast((h) => h.index < m.index)?.[1] ?? '(top level)',
  }))
}

/** Coverage of `jp ARGS`; `expectBundle: false` lets a run that never loads the bundle through. */
export function coverageOf(args: string[], opts: {env?: NodeJS.ProcessEnv; expectBundle?: boolean} = {}): Coverage {
  const sb = makeSandbox()
  try {
    const dir = join(sb.dir, 'coverage')
    mkdirSync(dir)
    const r = spawnSync(process.execPath, [BIN, ...args], {cwd: sb.cwd, env: {...sb.env, ...opts.env, NODE_V8_COVERAGE: dir}, encoding: 'utf8'})
    expect(r.status, r.stderr).to.equal(0)
    const coverage = coverageIn(dir)
    if (opts.expectBundle !== false) expect(coverage.bundleRan, 'the bundle ran').to.equal(true)
    return coverage
  } finally {
    sb.cleanup()
  }
}

/**
 * `jp ARGS` as runJp runs it (in `sandbox`, stdio piped), with its coverage:
 * one run that is both a case's answer and what it loaded.
 */
export async function runCovered(args: string[], opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv}): Promise<RunResult & {coverage: Coverage}> {
  const dir = mkdtempSync(join(opts.sandbox.dir, 'coverage-'))
  try {
    const r = await runJp(args, {sandbox: opts.sandbox, env: {...opts.env, NODE_V8_COVERAGE: dir}})
    return {...r, coverage: coverageIn(dir)}
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

/** What the NODE_V8_COVERAGE files in `dir` say ran. */
export function coverageIn(dir: string): Coverage {
  const results = readdirSync(dir).flatMap(
    (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as {result: {url: string; functions: {functionName: string; ranges: CoverageRange[]}[]}[]}).result,
  )
  const bundle = results.find((s) => s.url === pathToFileURL(BUNDLE).href)
  const ran = new Set(bundle?.functions.filter((f) => f.ranges[0].count > 0).map((f) => f.functionName) ?? [])
  const ranges = bundle?.functions.flatMap((f) => f.ranges) ?? []
  // Lined up on first use: most callers ask only which modules ran.
  let shift: number | undefined
  const ranAt = (offset: number) => {
    const at = offset + (shift ??= bundle ? wrapperShift(bundle.functions) : 0)
    // V8 nests block ranges inside their function's range: the narrowest one holding the offset has its count.
    const holding = ranges.filter((r) => r.startOffset <= at && at < r.endOffset)
    const inner = holding.sort((a, b) => a.endOffset - a.startOffset - (b.endOffset - b.startOffset))[0]
    return inner !== undefined && inner.count > 0
  }
  return {urls: results.map((s) => s.url), ran, bundleRan: bundle !== undefined, ranAt}
}
