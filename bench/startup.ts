// Start-up: `jp --help`, `jp -h`, `jp query --help`, `jp conversation edit
// --help` (at 80 columns, and at 120 where oclif renders them: issue 29) and
// `jp --version` against a minimal oclif CLI with one command
// (same @oclif/core, also with a manifest; its --help, or its --version for
// jp's), timed alternately in one run. Target ≤ 1.0× (SPEC §15). Issue 27:
// `jp --version` and `jp --help` also against Codex CLI's `--version` (target
// ≤ 1.0×: BENCH_CODEX=its bin, or `codex` on PATH, else the pinned one
// installed into bench/.references (bench/lib/references.ts); skipped with a
// note when none can be had) and `node -e 0`,
// with CPU time (user+sys, /usr/bin/time) beside the wall: steadier when the
// machine is busy. Every case runs under /usr/bin/time alike when present.
//
// BENCH_STARTUP_BEFORE=DIR also times another built checkout of jp (say, main
// before a change) in the same loop and adds a `… vs before` row per case it
// runs (a checkout older than `jp -h` gets no row for that case).
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {reference} from './lib/references.js'
import {runIfMain, stats, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 21)
const BEFORE = process.env.BENCH_STARTUP_BEFORE

function makeBaseline(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-oclif-'))
  mkdirSync(join(dir, 'bin'))
  mkdirSync(join(dir, 'commands'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({name: 'base', version: '1.0.0', type: 'module', oclif: {bin: 'base', dirname: 'base', commands: './commands'}}),
  )
  writeFileSync(join(dir, 'bin/run.js'), "import {execute} from '@oclif/core'\nawait execute({dir: import.meta.url})\n")
  writeFileSync(
    join(dir, 'commands/hello.js'),
    "import {Command, Flags} from '@oclif/core'\nexport default class Hello extends Command {\n  static summary = 'Say hello'\n  static flags = {name: Flags.string({char: 'n'})}\n  async run() { this.log('hello') }\n}\n",
  )
  const manifest = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import {Plugin} from '@oclif/core'; import {writeFileSync} from 'node:fs'; const p = new Plugin({root: process.cwd(), type: 'core', ignoreManifest: true}); await p.load(); writeFileSync('oclif.manifest.json', JSON.stringify(p.manifest))"],
    {cwd: dir, encoding: 'utf8'},
  )
  if (manifest.status !== 0) throw new Error(`baseline manifest failed: ${manifest.stderr}`)
  return dir
}

const TIME = '/usr/bin/time'

/** One run's wall time from spawn to exit and, through /usr/bin/time when present, its CPU time (user+sys, children included). */
interface Timing {
  ms: number
  cpuMs: number
}

function timeRun(args: string[], env: NodeJS.ProcessEnv, file = process.execPath): Timing {
  const useTime = existsSync(TIME)
  const [f, argv] = useTime ? [TIME, ['-f', 'JPTIME %U %S', file, ...args]] : [file, args]
  const t0 = process.hrtime.bigint()
  const r = spawnSync(f, argv, {env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'})
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  const cpu = /JPTIME ([\d.]+) ([\d.]+)/.exec(r.stderr)
  return {ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN}
}

/**
 * Codex CLI's `--version` (a Node launcher that runs a native binary): found
 * through BENCH_CODEX (its bin) or `codex` on PATH; undefined when neither
 * (the rows are skipped, with a note). A JavaScript launcher is run with
 * this node, as jp is, so neither pays a shebang lookup the other does not.
 */
function codexCommand(): {file: string; args: string[]} | undefined {
  const bin = process.env.BENCH_CODEX ?? (process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'codex')).find((p) => existsSync(p)) ?? reference('codex')
  if (!bin || !existsSync(bin)) return undefined
  const real = realpathSync(bin)
  return readFileSync(real, 'utf8').slice(0, 64).startsWith('#!/usr/bin/env node') ? {file: process.execPath, args: [real, '--version']} : {file: real, args: ['--version']}
}

/** Whether a checkout runs these arguments at all (an older jp has no `-h`): its warm-up run. */
function runs(args: string[], env: NodeJS.ProcessEnv): boolean {
  return spawnSync(process.execPath, args, {env, stdio: 'ignore'}).status === 0
}

export async function run(): Promise<BenchRow[]> {
  const base = makeBaseline()
  const home = mkdtempSync(join(tmpdir(), 'jp-bench-home-'))
  const env = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), JP_DATA_DIR: join(home, 'o')}
  const codex = codexCommand()
  if (!codex) process.stderr.write('startup: Codex CLI not found (BENCH_CODEX, `codex` on PATH, or installed into bench/.references): its rows are skipped\n')
  try {
    // [row, jp's arguments, the baseline's, extra environment]. Subcommand
    // help is recorded for 80 columns (the width without a terminal, as
    // here); at 120 columns (a wide terminal) oclif renders it.
    const WIDE = {OCLIF_COLUMNS: '120'}
    const cases: Array<[string, string[], string, NodeJS.ProcessEnv?]> = [
      ['jp --help', ['--help'], '--help'],
      ['jp -h', ['-h'], '--help'],
      ['jp query --help', ['query', '--help'], '--help'],
      ['jp conversation edit --help', ['conversation', 'edit', '--help'], '--help'],
      ['jp query --help (120 columns: oclif renders it)', ['query', '--help'], '--help', WIDE],
      ['jp conversation edit --help (120 columns: oclif renders it)', ['conversation', 'edit', '--help'], '--help', WIDE],
      ['jp --version', ['--version'], '--version'],
    ]
    const baseTimes = new Map<string, Timing[]>([['--help', []], ['--version', []]])
    const nodeTimes: Timing[] = []
    const codexTimes: Timing[] = []
    const times = new Map<string, Timing[]>(cases.map(([name]) => [name, []]))
    const beforeTimes = new Map<string, Timing[]>(cases.map(([name]) => [name, []]))
    const others = () => {
      nodeTimes.push(timeRun(['-e', '0'], env))
      if (codex) codexTimes.push(timeRun(codex.args, env, codex.file))
    }
    // Warm the file cache once for each.
    for (const args of baseTimes.keys()) timeRun([join(base, 'bin/run.js'), args], env)
    for (const [, args, , extra] of cases) timeRun([join(ROOT, 'bin/run.js'), ...args], {...env, ...extra})
    // The before checkout times the cases it knows; the others get no `vs before` row.
    const beforeCases = new Set(BEFORE ? cases.filter(([, args, , extra]) => runs([join(BEFORE, 'bin/run.js'), ...args], {...env, ...extra})).map(([name]) => name) : [])
    others()
    nodeTimes.length = 0
    codexTimes.length = 0
    for (let i = 0; i < RUNS; i++) {
      others()
      for (const [args, list] of baseTimes) list.push(timeRun([join(base, 'bin/run.js'), args], env))
      for (const [name, args, , extra] of cases) {
        times.get(name)!.push(timeRun([join(ROOT, 'bin/run.js'), ...args], {...env, ...extra}))
        if (BEFORE && beforeCases.has(name)) beforeTimes.get(name)!.push(timeRun([join(BEFORE, 'bin/run.js'), ...args], {...env, ...extra}))
      }
    }
    const row = (name: string, baseline: Timing[], baselineName: string, target: string, limit: number | undefined, what: keyof Timing = 'ms'): BenchRow => {
      const v = stats(times.get(name)!.map((t) => t[what]))
      const b = stats(baseline.map((t) => t[what]))
      const ratio = v.median / b.median
      const metric = what === 'ms' ? name : `${name}: CPU time (user+sys)`
      return {bench: 'startup', metric, value: v.median, spread: v.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName, ratio, target, pass: limit === undefined || ratio <= limit}
    }
    const rows: BenchRow[] = cases.map(([name, , baseArgs]) => row(name, baseTimes.get(baseArgs)!, `oclif 1-cmd ${baseArgs}`, '≤ 1.0×', 1.0))
    // CPU time beside the wall for the peers: steadier than the wall on a busy machine (reported, no target).
    for (const name of ['jp --version', 'jp --help']) {
      if (codex) rows.push(row(name, codexTimes, 'Codex CLI --version', '≤ 1.0×', 1.0), row(name, codexTimes, 'Codex CLI --version', '(report)', undefined, 'cpuMs'))
      rows.push(row(name, nodeTimes, 'node -e 0', '(report)', undefined), row(name, nodeTimes, 'node -e 0', '(report)', undefined, 'cpuMs'))
    }
    if (BEFORE) {
      for (const [name] of cases.filter(([n]) => beforeCases.has(n))) {
        for (const what of ['ms', 'cpuMs'] as const) {
          const v = stats(times.get(name)!.map((t) => t[what]))
          const before = stats(beforeTimes.get(name)!.map((t) => t[what]))
          const ratio = v.median / before.median
          const metric = `${name} vs before${what === 'ms' ? '' : ': CPU time (user+sys)'}`
          rows.push({bench: 'startup', metric, value: v.median, spread: v.spread, unit: 'ms', baseline: before.median, baselineSpread: before.spread, baselineName: 'before', ratio, target: what === 'ms' ? 'no worse' : '(report)', pass: what === 'cpuMs' || ratio <= 1.05})
        }
      }
    }
    return rows
  } finally {
    rmSync(base, {recursive: true, force: true})
    rmSync(home, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
