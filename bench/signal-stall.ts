// Signals answered while a render never ends (issue 34, SPEC §19: "SIGTERM,
// SIGHUP and Ctrl+C are answered within 100 ms while a render is slow"):
// `jp query` in a real pty streams a long answer whose rendering is handed
// to the render worker, which the JP_TEST_STALL_RENDER=1 fault seam stalls
// forever (alive: anything waiting for it would wait forever). Measured:
// Ctrl+C to the menu on the terminal, and SIGTERM to jp's exit (its partial
// answer saved), each against the same with the render worker not stalled,
// in the same run, alternating. Each sample is its own jp process.
//
// Run: node --import tsx bench/signal-stall.ts   (BENCH_STALL_RUNS=5)
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import pty from '@lydell/node-pty'

import {startSseEndpoint} from './lib/openai-sse-server.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_STALL_RUNS ?? 5)
const MENU = 'Interrupted'

const line = (text: string) => `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`

/** 40 long paragraphs at once (past the hand-off to the worker), then a short one every 20 ms until the client hangs up. */
function answer(res: import('node:http').ServerResponse, open: () => boolean): void {
  for (let i = 0; i < 40; i++) res.write(line(`Paragraph b${i} ${'words to render '.repeat(60)}\n\n`))
  let n = 0
  const timer = setInterval(() => (open() ? res.write(line(`Slow p${n++} here.\n\n`)) : clearInterval(timer)), 20)
}

type Signal = 'ctrl-c' | 'SIGTERM'

/** ms from the signal to its answer: the menu drawn (Ctrl+C, then `s`), or jp's exit (SIGTERM). */
function sample(env: NodeJS.ProcessEnv, cwd: string, signal: Signal): Promise<number> {
  return new Promise((resolve, reject) => {
    const term = pty.spawn(process.execPath, [BIN, 'query', 'go'], {cols: 100, rows: 40, cwd, env: {...env, TERM: 'xterm-256color'}})
    let sentAt = 0
    let seen = ''
    const timer = setTimeout(() => (term.kill('SIGKILL'), reject(new Error('no answer in 30 s'))), 30_000)
    term.onData((d) => {
      seen += d
      if (sentAt === 0 && seen.includes('Paragraph b0 ')) {
        // Two seconds on: well past the hand-off to the worker (and, stalled, long after it stopped).
        sentAt = 1
        setTimeout(() => {
          sentAt = performance.now()
          if (signal === 'ctrl-c') term.write('\x03')
          else process.kill(term.pid, 'SIGTERM')
        }, 2000)
      }
      if (signal === 'ctrl-c' && sentAt > 1 && seen.slice(-4000).includes(MENU)) {
        const ms = performance.now() - sentAt
        sentAt = -1
        clearTimeout(timer)
        term.write('s')
        term.onExit(() => resolve(ms))
      }
    })
    term.onExit(() => {
      if (signal === 'SIGTERM' && sentAt > 1) {
        clearTimeout(timer)
        resolve(performance.now() - sentAt)
      }
    })
  })
}

export async function run(): Promise<BenchRow[]> {
  const server = await startSseEndpoint(answer)
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-stall-'))
  const rows: BenchRow[] = []
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const stalled = {...env, JP_TEST_STALL_RENDER: '1'}
    for (const signal of ['ctrl-c', 'SIGTERM'] as const) {
      const on: number[] = []
      const off: number[] = []
      for (let i = 0; i < RUNS; i++) {
        if (i % 2 === 0) on.push(await sample(stalled, work, signal)), off.push(await sample(env, work, signal))
        else off.push(await sample(env, work, signal)), on.push(await sample(stalled, work, signal))
      }
      const value = median(on)
      rows.push({
        bench: 'signal-stall',
        metric: signal === 'ctrl-c' ? 'Ctrl+C → menu drawn, the render stalled forever (median)' : 'SIGTERM → exit (partial answer saved), the render stalled forever (median)',
        value,
        spread: [Math.min(...on), Math.max(...on)],
        unit: 'ms',
        baseline: median(off),
        baselineSpread: [Math.min(...off), Math.max(...off)],
        baselineName: 'the render not stalled',
        ratio: value / median(off),
        target: '≤ 100 ms',
        pass: value <= 100,
      })
    }
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
  return rows
}

await runIfMain(import.meta.url, run)
