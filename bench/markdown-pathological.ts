// Pathological answers on the terminal (issue 34, SPEC §19: "a block whose
// highlighting or layout would be too slow is shown plain, never late"):
// `jp query` streaming each from a local OpenAI-format server into a real
// pty, rendered (the default) against `style.markdown = false`, in the same
// run, alternating. Wall time is from spawn to exit (target ≤ 2×). The
// inputs are the issue's: a ```perl fence holding `s/` and 200,000 `a`s, a
// 1 MB one-line fence with no language, R with `1e` × 100,000, a 10 MB
// one-line fence, 50,000 nested emphases, and a TypeScript-heavy answer.
//
// Run: node --import tsx bench/markdown-pathological.ts   (BENCH_PATHO_RUNS=3, BENCH_PATHO_ONLY=name,name, BENCH_PATHO_BIN)
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import pty from '@lydell/node-pty'

import {startServer} from './markdown.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** BENCH_PATHO_BIN: another build's bin/run.js (e.g. main's: the figures before a change). */
const BIN = process.env.BENCH_PATHO_BIN ?? join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_PATHO_RUNS ?? 3)
const ONLY = process.env.BENCH_PATHO_ONLY?.split(',')
const FIRST = '# Answer\n\n'

const TS_LINES = [
  'export async function load<T extends Record<string, unknown>>(path: string, parse: (s: string) => T): Promise<Map<string, T[]>> {',
  '  const seen = new Map<string, T[]>() // grouped by key',
  "  for (const line of (await readFile(path, 'utf8')).split('\\n')) {",
  '    const value = parse(line) as T & {key?: string}',
  "    seen.set(value.key ?? '', [...(seen.get(value.key ?? '') ?? []), value])",
  '  }',
  '  return seen',
  '}',
]

/** The inputs, each a whole answer (after the first token). */
export const PATHOLOGICAL: Record<string, () => string> = {
  'perl fence: s/ + 200,000 a': () => '```perl\ns/' + 'a'.repeat(200_000) + '\n```\n',
  '1 MB one-line fence, no language': () => '```\n' + 'x'.repeat(1024 * 1024) + '\n```\n',
  'R fence: 1e × 100,000': () => '```r\n' + '1e'.repeat(100_000) + '\n```\n',
  '10 MB one-line fence': () => '```\n' + 'y'.repeat(10 * 1024 * 1024) + '\n```\n',
  '50,000 nested emphases': () => '*'.repeat(50_000) + 'x' + '*'.repeat(50_000) + '\n',
  'TypeScript-heavy (1 MB in fences)': () => {
    let out = ''
    while (out.length < 1024 * 1024) out += 'Some words about it.\n\n```ts\n' + TS_LINES.join('\n').repeat(1).concat('\n').repeat(40) + '```\n\n'
    return out
  },
}

/** A run that has not finished after this long is killed and counted as never finishing (Infinity). */
const TIMEOUT_MS = Number(process.env.BENCH_PATHO_TIMEOUT_MS ?? 120_000)

function runOnPty(env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const term = pty.spawn(process.execPath, [BIN, 'query', '-n', 'go'], {cols: 100, rows: 40, cwd, env: {...env, TERM: 'xterm-256color'}})
    const timer = setTimeout(() => term.kill('SIGKILL'), TIMEOUT_MS)
    term.onData(() => {})
    term.onExit(({exitCode, signal}) => {
      clearTimeout(timer)
      if (signal === 9) return resolve(Number.POSITIVE_INFINITY)
      return exitCode === 0 ? resolve(performance.now() - start) : reject(new Error(`jp exited ${exitCode}`))
    })
  })
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const [name, make] of Object.entries(PATHOLOGICAL)) {
    if (ONLY && !ONLY.some((o) => name.startsWith(o))) continue
    const server = await startServer(FIRST + make())
    const dir = mkdtempSync(join(tmpdir(), 'jp-bench-patho-'))
    try {
      const {env, work} = benchHome(dir, server.baseUrl)
      const raw = {...env, JP_CFG_STYLE_MARKDOWN: 'false'}
      const on: number[] = []
      const off: number[] = []
      for (let i = 0; i < RUNS; i++) {
        rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true})
        // Alternating, each round in the other order.
        if (i % 2 === 0) on.push(await runOnPty(env, work)), off.push(await runOnPty(raw, work))
        else off.push(await runOnPty(raw, work)), on.push(await runOnPty(env, work))
      }
      const value = median(on)
      const baseline = median(off)
      rows.push({
        bench: 'markdown-pathological',
        metric: `${name}: wall, rendered against style.markdown = false (median)`,
        value,
        spread: [Math.min(...on), Math.max(...on)],
        unit: 'ms',
        baseline,
        baselineSpread: [Math.min(...off), Math.max(...off)],
        baselineName: 'raw',
        ratio: value / baseline,
        target: '≤ 2×',
        pass: value / baseline <= 2,
      })
    } finally {
      await server.close()
      rmSync(dir, {recursive: true, force: true})
    }
  }
  return rows
}

await runIfMain(import.meta.url, run)
