// Start-up: `jp --help`, `jp -h`, `jp query --help`, `jp conversation edit
// --help` and `jp --version` against a minimal oclif CLI with one command
// (same @oclif/core, also with a manifest; its --help, or its --version for
// jp's), timed alternately in one run. Target ≤ 1.0× (SPEC §15).
//
// BENCH_STARTUP_BEFORE=DIR also times another built checkout of jp (say, main
// before a change) in the same loop and adds a `… vs before` row per case it
// runs (a checkout older than `jp -h` gets no row for that case).
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {runIfMain, median, type BenchRow} from './lib/report.js'

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

function timeRun(args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, {env, stdio: ['ignore', 'ignore', 'pipe']})
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
}

/** Whether a checkout runs these arguments at all (an older jp has no `-h`): its warm-up run. */
function runs(args: string[], env: NodeJS.ProcessEnv): boolean {
  return spawnSync(process.execPath, args, {env, stdio: 'ignore'}).status === 0
}

export async function run(): Promise<BenchRow[]> {
  const base = makeBaseline()
  const home = mkdtempSync(join(tmpdir(), 'jp-bench-home-'))
  const env = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), JP_DATA_DIR: join(home, 'o')}
  try {
    // [row, jp's arguments, the baseline's]
    const cases: Array<[string, string[], string]> = [
      ['jp --help', ['--help'], '--help'],
      ['jp -h', ['-h'], '--help'],
      ['jp query --help', ['query', '--help'], '--help'],
      ['jp conversation edit --help', ['conversation', 'edit', '--help'], '--help'],
      ['jp --version', ['--version'], '--version'],
    ]
    const baseTimes = new Map<string, number[]>([['--help', []], ['--version', []]])
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]))
    const beforeTimes = new Map<string, number[]>(cases.map(([name]) => [name, []]))
    // Warm the file cache once for each.
    for (const args of baseTimes.keys()) timeRun([join(base, 'bin/run.js'), args], env)
    for (const [, args] of cases) timeRun([join(ROOT, 'bin/run.js'), ...args], env)
    // The before checkout times the cases it knows; the others get no `vs before` row.
    const beforeCases = new Set(BEFORE ? cases.filter(([, args]) => runs([join(BEFORE, 'bin/run.js'), ...args], env)).map(([name]) => name) : [])
    for (let i = 0; i < RUNS; i++) {
      for (const [args, list] of baseTimes) list.push(timeRun([join(base, 'bin/run.js'), args], env))
      for (const [name, args] of cases) {
        times.get(name)!.push(timeRun([join(ROOT, 'bin/run.js'), ...args], env))
        if (BEFORE && beforeCases.has(name)) beforeTimes.get(name)!.push(timeRun([join(BEFORE, 'bin/run.js'), ...args], env))
      }
    }
    const rows: BenchRow[] = cases.map(([name, , baseArgs]) => {
      const v = median(times.get(name)!)
      const b = median(baseTimes.get(baseArgs)!)
      return {bench: 'startup', metric: name, value: v, unit: 'ms', baseline: b, baselineName: `oclif 1-cmd ${baseArgs}`, ratio: v / b, target: '≤ 1.0×', pass: v / b <= 1.0}
    })
    if (BEFORE) {
      for (const [name] of cases.filter(([n]) => beforeCases.has(n))) {
        const v = median(times.get(name)!)
        const before = median(beforeTimes.get(name)!)
        rows.push({bench: 'startup', metric: `${name} vs before`, value: v, unit: 'ms', baseline: before, baselineName: 'before', ratio: v / before, target: 'no worse', pass: v / before <= 1.05})
      }
    }
    return rows
  } finally {
    rmSync(base, {recursive: true, force: true})
    rmSync(home, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
