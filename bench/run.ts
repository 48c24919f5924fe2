// `npm run bench`: runs every benchmark in its own process (so one bench's
// heap and JIT state cannot colour another's) and prints one table of ratios
// against the baselines each measured in the same run, targets beside them.
// The benches are found, not listed: every bench/*.ts but this file and
// HELPERS, so a new bench cannot be left out (test/bench/run.test.ts checks
// each prints a BENCH_ROWS line). `npm run bench -- startup ttft` runs those
// whose names start so; `--list` prints the files and runs nothing.
import {spawnSync} from 'node:child_process'
import {readdirSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {formatTable, type BenchRow} from './lib/report.js'

const HERE = dirname(fileURLToPath(import.meta.url))
/** bench/*.ts files that are not benches (shared code belongs in bench/lib; list here any that cannot move). */
const HELPERS = new Set(['run.ts', 'steer-fuzz.ts'])
/** Run first: the start-up figures are the most sensitive to a machine the other benches have warmed or loaded. */
const FIRST = ['startup.ts', 'startup-breakdown.ts', 'tti.ts', 'ttft.ts']
const found = readdirSync(HERE).filter((f) => f.endsWith('.ts') && !HELPERS.has(f))
const BENCHES = [...FIRST.filter((f) => found.includes(f)), ...found.filter((f) => !FIRST.includes(f)).sort()]
const listOnly = process.argv.includes('--list')
const only = process.argv.slice(2).filter((a) => a !== '--list')
if (listOnly) {
  for (const f of BENCHES) console.log(f)
  process.exit(0)
}

const rows: BenchRow[] = []
const failures: string[] = []
for (const file of BENCHES) {
  if (only.length > 0 && !only.some((o) => file.startsWith(o))) continue
  process.stderr.write(`running bench/${file} ...\n`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(HERE, file)], {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit']})
  const line = r.stdout.split('\n').find((l) => l.startsWith('BENCH_ROWS '))
  if (r.status !== 0 || !line) {
    failures.push(`bench/${file} failed (exit ${r.status})`)
    continue
  }
  rows.push(...(JSON.parse(line.slice('BENCH_ROWS '.length)) as BenchRow[]))
}

console.log(formatTable(rows))
for (const f of failures) console.log(f)
process.exitCode = failures.length > 0 ? 1 : 0
