// Rendering nobody waits for (issue 40): the code- and table-heavy answer
// (bench/lib/code-heavy.ts, with a marker word every few words:
// bench/lib/marker-corpus.ts) streamed by a local OpenAI-format server at
// 2,000 tokens/s, one SSE event per token as real servers send them, into
// `jp query` on a real pty, rendered (the default) and with
// `style.markdown = false` (raw), alternating, one warm-up each.
//
// A token's latency: from the server's write of the event carrying a marker
// (the same clock as the pty reader: both are this process) to the marker's
// text on the pty, escapes dropped (bench/lib/marker-scan.ts). Per run its
// p50 and p99 over every marker; the rows are the medians of the runs
// (spread: min–max). Target: p99 ≤ 16 ms (one frame), absolute; raw's
// figures beside it are the floor of this pipeline (server, socket, jp's
// stream loop, pty, this reader). By the kind of line a marker sits in, as
// report rows: the renderer streams prose word by word, code line by line,
// lists item by item, a table as it is read (its rows so far, the unfinished
// one too, in a live region: issue 40) and a heading once its line is known
// (see docs/decisions.md, "What streams"); and p99 from the later of a marker's token and its
// line's last token (the wait for the line's end taken out: what a
// line-by-line renderer adds beyond that wait). Wall time from spawn to exit, rendered against raw:
// target ≤ 1.1× (the pacing is in both). Load average printed at the start
// and the end, and as a row.
//
// Run: node --import tsx bench/render-latency.ts   (BENCH_RENDER_LATENCY_RUNS=3, BENCH_RENDER_LATENCY_KB=48, BENCH_RENDER_LATENCY_RATE=2000, BENCH_RENDER_LATENCY_EVERY=6;
// BENCH_RENDER_LATENCY_BEFORE=/path/to/an/earlier/checkout/bin/run.js adds that build's rows, measured in the same run)
import {mkdtempSync, rmSync} from 'node:fs'
import type {ServerResponse} from 'node:http'
import {loadavg, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import pty from '@lydell/node-pty'

import {alternate, benchHome} from './lib/jp-run.js'
import {markedAnswer, type LineKind, type MarkedAnswer} from './lib/marker-corpus.js'
import {MarkerScan} from './lib/marker-scan.js'
import {startSseEndpoint} from './lib/openai-sse-server.js'
import {median, percentile, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_RENDER_LATENCY_RUNS ?? 3)
const KB = Number(process.env.BENCH_RENDER_LATENCY_KB ?? 48)
const RATE = Number(process.env.BENCH_RENDER_LATENCY_RATE ?? 2000)
const EVERY = Number(process.env.BENCH_RENDER_LATENCY_EVERY ?? 6)
const FRAME_MS = 16
/** How many of each run's slowest markers are printed (kind, offset, ms). */
const WORST = Number(process.env.BENCH_RENDER_LATENCY_WORST ?? 12)
const WALL_TARGET = 1.1
const KINDS: LineKind[] = ['prose', 'code', 'table', 'list', 'heading']
/** Another build's bin/run.js (a checkout of an earlier commit, built): run rendered as a third arm, its rows beside these, in the same run. */
const BEFORE = process.env.BENCH_RENDER_LATENCY_BEFORE

function sse(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({id: 'chatcmpl-lat', object: 'chat.completion.chunk', created: 1751000000, model: 'bench', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`
}

/** Writes the tokens at `RATE` from now (every ~1 ms, those due), noting when each token's event was written. */
function pace(res: ServerResponse, open: () => boolean, answer: MarkedAnswer, sentAt: Float64Array): void {
  const t0 = performance.now()
  let i = 0
  const tick = () => {
    if (!open()) return
    const due = Math.min(answer.tokens.length, Math.floor(((performance.now() - t0) * RATE) / 1000) + 1)
    let batch = ''
    const from = i
    for (; i < due; i++) batch += sse({content: answer.tokens[i]})
    if (batch) {
      res.write(batch)
      sentAt.fill(performance.now(), from, i)
    }
    if (i < answer.tokens.length) setTimeout(tick, 1)
    else res.end(sse({}, 'stop') + 'data: [DONE]\n\n')
  }
  tick()
}

interface Run {
  wallMs: number
  /** Latency (ms) of each marker by id; NaN where it never showed. */
  latency: Float64Array
  /** The same from the later of the marker's and its line's last token's writes (the wait for the line's end taken out); NaN where it never showed. */
  afterLine: Float64Array
}

/** One `jp query` on a pty; `current.sentAt` (by token) is filled by the server as it paces this run's answer. */
function runOnPty(env: NodeJS.ProcessEnv, cwd: string, current: {sentAt: Float64Array}, answer: MarkedAnswer, bin = BIN): Promise<Run> {
  const markers = answer.kinds.length
  current.sentAt = new Float64Array(answer.tokens.length).fill(Number.NaN)
  const markerToken = new Int32Array(markers)
  answer.markerOf.forEach((id, i) => id >= 0 && (markerToken[id] = i))
  const scan = new MarkerScan()
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const term = pty.spawn(process.execPath, [bin, 'query', '-n', 'go'], {cols: 100, rows: 40, cwd, env: {...env, TERM: 'xterm-256color'}})
    term.onData((d) => scan.push(d, performance.now()))
    term.onExit(({exitCode}) => {
      if (exitCode !== 0) return reject(new Error(`jp exited ${exitCode}`))
      const wallMs = performance.now() - start
      const latency = new Float64Array(markers).fill(Number.NaN)
      const afterLine = new Float64Array(markers).fill(Number.NaN)
      for (const [id, at] of scan.seenAt) {
        if (id >= markers) continue
        latency[id] = at - current.sentAt[markerToken[id]]
        afterLine[id] = Math.max(0, at - current.sentAt[answer.lineEndOf[id]])
      }
      // node-pty reaps the child just after reporting its exit.
      setTimeout(() => resolve({wallMs, latency, afterLine}), 50)
    })
  })
}

const shown = (r: Run, keep: (id: number) => boolean = () => true, of: 'latency' | 'afterLine' = 'latency') => [...r[of]].filter((v, id) => Number.isFinite(v) && keep(id))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** A row whose value is the median over runs of `figure` rendered, raw's beside it. */
function latencyRow(metric: string, rendered: Run[], raw: Run[], figure: (r: Run) => number, target: string, pass: (v: number) => boolean): BenchRow {
  const [on, off] = [rendered.map(figure), raw.map(figure)]
  const value = median(on)
  const base = median(off)
  return {bench: 'render-latency', metric, value, spread: [Math.min(...on), Math.max(...on)], unit: 'ms', baseline: base, baselineSpread: [Math.min(...off), Math.max(...off)], baselineName: 'style.markdown = false', target, pass: pass(value)}
}

/** The character offset in the answer of each marker, by id. */
function markerOffsets(answer: MarkedAnswer): number[] {
  const out: number[] = []
  let at = 0
  answer.tokens.forEach((t, i) => {
    if (answer.markerOf[i] >= 0) out[answer.markerOf[i]] = at
    at += t.length
  })
  return out
}

function rowsOf(answer: MarkedAnswer, rendered: Run[], raw: Run[], loadAtStart: string, label = ''): BenchRow[] {
  const what = `${KB} kB code- and table-heavy answer at ${RATE} tokens/s${label}`
  const p = (q: number, kind?: LineKind, of: 'latency' | 'afterLine' = 'latency') => (r: Run) => {
    const xs = shown(r, kind ? (id) => answer.kinds[id] === kind : undefined, of)
    return xs.length > 0 ? percentile(xs, q) : Number.NaN
  }
  const missing = Math.max(...rendered.map((r) => r.latency.length - shown(r).length))
  const rows: BenchRow[] = [
    latencyRow(`${what}: token → rendered bytes on the pty, p99 (median of runs)`, rendered, raw, p(99), `≤ ${FRAME_MS} ms`, (v) => v <= FRAME_MS && missing === 0),
    latencyRow(`${what}: token → rendered bytes on the pty, p50 (median of runs)`, rendered, raw, p(50), '(report)', () => true),
  ]
  for (const kind of KINDS) {
    if (!answer.kinds.includes(kind)) continue
    const n = answer.kinds.filter((k) => k === kind).length
    rows.push(latencyRow(`${what}: p99 of the ${n} markers in ${kind} lines`, rendered, raw, p(99, kind), '(report)', () => true))
    rows.push(latencyRow(`${what}: p50 of the ${n} markers in ${kind} lines`, rendered, raw, p(50, kind), '(report)', () => true))
  }
  rows.push(latencyRow(`${what}: p99 from the later of a marker's token and its line's last token (the wait for the line's end taken out)`, rendered, raw, p(99, undefined, 'afterLine'), '(report)', () => true))
  rows.push(latencyRow(`${what}: the same, code lines only (code streams line by line)`, rendered, raw, p(99, 'code', 'afterLine'), '(report)', () => true))
  // jp renders the first HAND_OFF_AFTER (16 kB) on its main thread, the rest on the render worker (printer/hand-off.ts).
  const offsets = markerOffsets(answer)
  for (const [side, keep] of [
    ['in the first 16 kB (main thread)', (id: number) => offsets[id] < 16 * 1024],
    ['after 16 kB (the render worker, once handed off)', (id: number) => offsets[id] >= 16 * 1024],
  ] as const) {
    const q = (r: Run) => percentile(shown(r, keep, 'afterLine'), 99)
    rows.push(latencyRow(`${what}: p99 with the line's wait taken out, markers ${side}`, rendered, raw, q, '(report)', () => true))
  }
  const [wOn, wOff] = [rendered.map((r) => r.wallMs), raw.map((r) => r.wallMs)]
  const wall = latencyRow(`${what}: answer wall time (spawn → exit), rendered`, rendered, raw, (r) => r.wallMs, `≤ ${WALL_TARGET}×`, () => true)
  wall.ratio = median(wOn) / median(wOff)
  wall.pass = wall.ratio <= WALL_TARGET
  rows.push(wall)
  if (missing > 0) rows.push({bench: 'render-latency', metric: `${what}: markers never shown on the pty, rendered (worst run)`, value: missing, unit: '', target: '0', pass: false})
  rows.push({bench: 'render-latency', metric: `load average (1 min) at the start; 1/5/15 at the start ${loadAtStart}, at the end ${load()}`, value: Number(loadAtStart.split(' ')[0]), unit: '', target: '(report; < 1 is quiet)', pass: true})
  return rows
}

export async function run(): Promise<BenchRow[]> {
  const loadAtStart = load()
  process.stderr.write(`render-latency: load average ${loadAtStart}\n`)
  const answer = markedAnswer(KB * 1024, EVERY)
  const markers = answer.kinds.length
  const current = {sentAt: new Float64Array(answer.tokens.length)}
  const server = await startSseEndpoint((res, open) => pace(res, open, answer, current.sentAt))
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-latency-'))
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const rawEnv = {...env, JP_CFG_STYLE_MARKDOWN: 'false'}
    // With BEFORE, each turn runs raw, then this build and the earlier one in turn (alternating which goes first).
    const before: Run[] = []
    const {bare: raw, jp: rendered} = await alternate(
      RUNS,
      () => runOnPty(rawEnv, work, current, answer),
      async () => {
        if (!BEFORE) return runOnPty(env, work, current, answer)
        const first = before.length % 2 === 0
        const earlier = () => runOnPty(env, work, current, answer, BEFORE)
        if (first) before.push(await earlier())
        const run = await runOnPty(env, work, current, answer)
        if (!first) before.push(await earlier())
        return run
      },
    )
    // The warm-up's run of the earlier build is not counted.
    before.shift()
    const lost = raw.map((r) => r.latency.length - shown(r).length)
    if (lost.some((n) => n > 0)) throw new Error(`raw output lost markers (${lost.join(', ')} of ${markers}): the bench cannot see the tokens`)
    for (const [name, runs] of [
      ['rendered', rendered],
      ['raw', raw],
      ...(BEFORE ? ([['rendered by the earlier build', before]] as const) : []),
    ] as const) {
      const fig = runs.map((r) => `p50 ${percentile(shown(r), 50).toFixed(1)} p99 ${percentile(shown(r), 99).toFixed(1)} max ${Math.max(...shown(r)).toFixed(1)} wall ${r.wallMs.toFixed(0)}`).join('; ')
      process.stderr.write(`render-latency ${name} (${answer.tokens.length} tokens, ${markers} markers): ${fig}\n`)
    }
    // Where the p99 comes from: the slowest markers of each rendered run, by where they sit.
    const offsets = markerOffsets(answer)
    for (const [name, runs] of [['rendered', rendered], ...(BEFORE ? ([['earlier build', before]] as const) : [])] as const) {
      for (const r of runs) {
        const worst = [...r.latency.keys()].filter((id) => Number.isFinite(r.latency[id])).sort((a, b) => r.latency[b] - r.latency[a]).slice(0, WORST)
        process.stderr.write(`render-latency ${name}, slowest: ${worst.map((id) => `${answer.kinds[id]}@${(offsets[id] / 1024).toFixed(1)}kB ${r.latency[id].toFixed(0)}`).join(', ')}\n`)
      }
    }
    process.stderr.write(`render-latency: load average at the end ${load()}\n`)
    const rows = rowsOf(answer, rendered, raw, loadAtStart)
    if (BEFORE) rows.push(...rowsOf(answer, before, raw, loadAtStart, ` (the earlier build: ${BEFORE})`).filter((r) => r.unit === 'ms'))
    return rows
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run, {exit: true})
