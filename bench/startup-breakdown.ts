// Where `jp --version`, `jp --help` and subcommand help (`jp query --help`,
// `jp conversation edit --help`) spend their start-up (issues 27, 29), for
// this checkout and, with BENCH_STARTUP_BEFORE=DIR, another built one: node
// itself (to the first line of the entry), jp's first module and its answer
// (src/lib/cli/first.ts, when the checkout has one and it answers), the
// bundle's load (read, compile from the code cache, run its top level),
// oclif's config load (the root plugin's manifest; the core plugins; the
// user and linked plugins: the plugin scan), the init hooks, the command
// (printing the version or rendering the help), and the exit. A child runs
// what bin/run.js runs, with oclif's performance markers on; medians over
// RUNS runs. Reported figures (no targets): the start-up rows are in startup.ts.
//
// Run: node --import tsx bench/startup-breakdown.ts   (BENCH_STARTUP_RUNS, default 15; BENCH_STARTUP_BEFORE=DIR)
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15)
const BEFORE = process.env.BENCH_STARTUP_BEFORE

/** The child: bin/run.js's steps, timed. Prints one JSON line of phase durations (ms) on stderr at exit. */
const RUNNER = `
globalThis.oclif = {performanceEnabled: true}
const t0 = performance.now()
const [root, ...args] = process.argv.slice(2)
const {writeSync, existsSync} = await import('node:fs')
const phases = {node: t0}
let mark = t0
const lap = (name) => { const now = performance.now(); phases[name] = now - mark; mark = now }
process.on('exit', () => { lap('exit'); writeSync(2, 'PHASES ' + JSON.stringify(phases) + '\\n') })
let answered = false
// dist/first.cjs since issue 40 (dist/first.js in an older build).
const firstModule = [root + '/dist/first.cjs', root + '/dist/first.js'].find((f) => existsSync(f))
if (firstModule) {
  const {answerFirst} = await import(firstModule)
  // DEBUG is on for oclif's markers below: the first answer is asked as bin/run.js asks it, without it.
  answered = await answerFirst({argv: args, root, env: {...process.env, DEBUG: ''}, stdout: process.stdout})
  lap('first module and its answer')
}
if (!answered) {
  const {loadBundle} = await import(root + '/bin/load.js')
  const {execute} = loadBundle(root + '/dist/jp.cjs').exports
  lap('bundle load')
  await execute({args, dir: root})
  lap('oclif')
}
`

interface Phases {
  [phase: string]: number
}

/** oclif's own split of its time (DEBUG=oclif:perf lines: Performance.debug). */
function oclifPhases(stderr: string, oclifMs: number): Phases {
  const ms = (label: string) => Number(new RegExp(`${label}: ([\\d.]+)ms`).exec(stderr)?.[1] ?? 0)
  const config = ms('Config Load Time')
  const scan = ms('User Plugin Load Time') + ms('Linked Plugin Load Time')
  const hooks = Number(/init:\s*\n.*?total: ([\d.]+)ms/s.exec(stderr)?.[1] ?? 0)
  return {
    'oclif: config (root manifest, core plugins)': config - scan,
    'oclif: plugin scan (user, linked)': scan,
    'oclif: init hooks': hooks,
    'oclif: command': Math.max(0, oclifMs - config - hooks),
  }
}

function breakdown(root: string, args: string[], env: NodeJS.ProcessEnv, script: string): {phases: Phases; wall: number} {
  const runs: Phases[] = []
  const walls: number[] = []
  for (let i = 0; i < RUNS + 1; i++) {
    const t0 = process.hrtime.bigint()
    const r = spawnSync(process.execPath, [script, root, ...args], {env: {...env, DEBUG: 'oclif:perf'}, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe']})
    const wall = Number(process.hrtime.bigint() - t0) / 1e6
    const line = r.stderr.split('\n').find((l) => l.startsWith('PHASES '))
    if (r.status !== 0 || !line) throw new Error(`breakdown of ${root} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`)
    if (i === 0) continue // the file cache warms
    const phases = JSON.parse(line.slice('PHASES '.length)) as Phases
    if (phases.oclif !== undefined) {
      Object.assign(phases, oclifPhases(r.stderr, phases.oclif))
      delete phases.oclif
    }
    runs.push(phases)
    walls.push(wall)
  }
  const phases: Phases = {}
  for (const name of Object.keys(runs[0])) phases[name] = median(runs.map((p) => p[name] ?? 0))
  return {phases, wall: median(walls)}
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-breakdown-'))
  try {
    const home = join(dir, 'home')
    const env: NodeJS.ProcessEnv = {}
    for (const [k, v] of Object.entries(process.env)) if (!/^(JP_|XDG_|OCLIF_|DEBUG$|NODE_OPTIONS$)/.test(k)) env[k] = v
    Object.assign(env, {HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd')})
    const script = join(dir, 'runner.mjs')
    writeFileSync(script, RUNNER)
    const rows: BenchRow[] = []
    const checkouts: Array<[string, string]> = [['after', ROOT]]
    if (BEFORE && existsSync(join(BEFORE, 'dist', 'jp.cjs'))) checkouts.unshift(['before', BEFORE])
    for (const args of [['--version'], ['--help'], ['query', '--help'], ['conversation', 'edit', '--help']]) {
      for (const [label, root] of checkouts) {
        const {phases, wall} = breakdown(root, args, env, script)
        process.stderr.write(`startup-breakdown jp ${args.join(' ')} (${label}): ${JSON.stringify(Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Number(v.toFixed(1))])))}; wall ${wall.toFixed(1)} ms\n`)
        for (const [phase, ms] of Object.entries(phases)) rows.push({bench: 'startup-breakdown', metric: `jp ${args.join(' ')} (${label}): ${phase}`, value: ms, unit: 'ms', target: '(report)', pass: true})
        rows.push({bench: 'startup-breakdown', metric: `jp ${args.join(' ')} (${label}): wall`, value: wall, unit: 'ms', target: '(report)', pass: true})
      }
    }
    return rows
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
