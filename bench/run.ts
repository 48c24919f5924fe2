// `npm run bench`: runs every benchmark in its own process (so one bench's
// heap and JIT state cannot colour another's) and prints one table of ratios
// against the baselines each measured in the same run, targets beside them.
import {spawnSync} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {formatTable, type BenchRow} from './lib/report.js'

const HERE = dirname(fileURLToPath(import.meta.url))
const BENCHES = ['startup.ts', 'startup-breakdown.ts', 'ttft.ts', 'keystroke.ts', 'streaming.ts', 'history.ts', 'text-stream.ts', 'big-stdin.ts', 'interrupt.ts', 'queue.ts', 'editor.ts', 'markdown.ts', 'markdown-pathological.ts', 'mcp-prompt.ts', 'mentions.ts']
const only = process.argv.slice(2)

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
