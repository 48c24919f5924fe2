// Markdown on the terminal (issue 25): `jp query` streaming a text-heavy
// markdown answer (2 MB and 20 MB) from a local OpenAI-format server into a
// real pty, rendered (the default) against `style.markdown = false` in the
// same run, alternating. Wall time is from spawn to exit (target ≤ 1.3×).
// The first token (`# Answer`) is sent alone, then the server pauses before
// the rest: the time from writing it to its first byte on the pty is the
// first-rendered-byte latency (target ≤ 5 ms median, rendered). jp's CPU
// time (user + system) is reported beside the wall: on a busy machine the
// wall ratio measures the load as much as the renderer; and split by thread
// (read from /proc while jp runs): the main thread, the busiest other one
// (the render worker, when one rendered), and the rest (V8's compiler and
// GC helpers), to see which of them the wall waits for.
//
// Two more rows, same run: the floor, a bare node script (node:http, the
// SSE split by hand, the text written to the same pty) whose first byte is
// what any client on this machine gets, this bench's own pty reader
// included; and a tiny answer (2 kB of prose, no code), whose wall gap
// between rendered and raw is the fixed cost of rendering (loading and
// warming the renderer), not the per-byte one. BENCH_MARKDOWN_BASE_BIN (a
// bin/run.js of another build, e.g. main's) adds that build's rows to the
// same loop: before/after in one run.
//
// Two corpora, same run (issue 35): the text-heavy answer (prose, now and
// then a code block or a table) and a code- and table-heavy one
// (bench/lib/code-heavy.ts: about half its blocks code in nine languages,
// several tables); `tiny` is prose only.
//
// Run: node --import tsx bench/markdown.ts   (BENCH_MARKDOWN_RUNS, BENCH_MARKDOWN_SIZES=tiny,2,20: MB or `tiny`, BENCH_MARKDOWN_CORPORA=text,code)
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import pty from '@lydell/node-pty'

import {listenLocal} from '../test/helpers/local-server.js'
import {codeHeavyAnswer} from './lib/code-heavy.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_MARKDOWN_RUNS ?? 3)
const SIZES = (process.env.BENCH_MARKDOWN_SIZES ?? 'tiny,2,20').split(',')
const BASE_BIN = process.env.BENCH_MARKDOWN_BASE_BIN
const CORPORA = (process.env.BENCH_MARKDOWN_CORPORA ?? 'text,code').split(',') as Corpus[]

/** The answers the benches render: `text` (text-heavy) or `code` (code- and table-heavy). */
export type Corpus = 'text' | 'code'

export function answerOf(corpus: Corpus, bytes: number): string {
  return corpus === 'code' ? codeHeavyAnswer(bytes) : textHeavyAnswer(bytes)
}

export const CORPUS_NAME: Record<Corpus, string> = {text: 'text-heavy', code: 'code- and table-heavy'}
/** The tiny answer's size (bytes): a few paragraphs, no code. */
const TINY = 2048
const FIRST = '# Answer\n\n'
const PAUSE_MS = 300

/** A text-heavy answer of about `bytes`: prose paragraphs (some bold and code), headings, lists, now and then a code block or a table. */
export function textHeavyAnswer(bytes: number): string {
  let seed = 7
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const words = 'the renderer streams each paragraph as it arrives and wraps it greedily at the width of the terminal while the model keeps writing more text about how the pieces fit together'.split(' ')
  const sentence = () => {
    const n = 8 + Math.floor(rnd() * 14)
    const w: string[] = []
    for (let i = 0; i < n; i++) w.push(words[Math.floor(rnd() * words.length)])
    const r = rnd()
    if (r < 0.1) w[2] = `**${w[2]} ${w[3]}**`
    else if (r < 0.2) w[4] = `\`${w[4]}()\``
    else if (r < 0.23) w[1] = `[${w[1]}](https://example.com/${w[1]})`
    w[0] = w[0][0].toUpperCase() + w[0].slice(1)
    return w.join(' ') + '.'
  }
  const para = () => Array.from({length: 3 + Math.floor(rnd() * 5)}, sentence).join(' ')
  const parts: string[] = [FIRST.trimEnd()]
  let size = FIRST.length
  for (let k = 0; size < bytes; k++) {
    let block: string
    if (k % 12 === 11) block = `## Section ${k}`
    else if (k % 17 === 16) block = Array.from({length: 4}, () => `- ${sentence()}`).join('\n')
    else if (k % 41 === 40) block = '```js\n' + Array.from({length: 6}, (_, i) => `const v${i} = compute(${i}) // ${sentence()}`).join('\n') + '\n```'
    else if (k % 53 === 52) block = '| name | value | note |\n|---|---:|---|\n' + Array.from({length: 4}, (_, i) => `| item${i} | ${i * 7} | ${sentence()} |`).join('\n')
    else block = para()
    parts.push(block)
    size += block.length + 2
  }
  return parts.join('\n\n') + '\n'
}

function sse(text: string): string {
  return `data: ${JSON.stringify({id: 'chatcmpl-md', object: 'chat.completion.chunk', created: 1751000000, model: 'bench', choices: [{index: 0, delta: {content: text}, finish_reason: null}]})}\n\n`
}

/** Serves the answer: the first token alone, a pause, then the rest in ~200-character deltas. */
export async function startServer(answer: string) {
  const rest = answer.slice(FIRST.length)
  const lines: string[] = []
  for (let i = 0; i < rest.length; i += 200) lines.push(sse(rest.slice(i, i + 200)))
  let firstSentAt = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write(sse(FIRST), () => (firstSentAt = performance.now()))
      setTimeout(() => {
        let i = 0
        const pump = () => {
          while (i < lines.length) {
            let batch = ''
            for (let k = 0; k < 256 && i < lines.length; k++, i++) batch += lines[i]
            if (!res.write(batch)) return void res.once('drain', pump)
          }
          res.end(`data: ${JSON.stringify({id: 'chatcmpl-md', object: 'chat.completion.chunk', created: 1751000000, model: 'bench', choices: [{index: 0, delta: {}, finish_reason: 'stop'}]})}\n\ndata: [DONE]\n\n`)
        }
        pump()
      }, PAUSE_MS)
    })
  })
  const local = await listenLocal(server)
  return {...local, firstSentAt: () => firstSentAt}
}

interface Sample {
  wallMs: number
  firstMs: number
  bytes: number
  /** CPU time of jp (user + system), NaN where /proc is missing. */
  cpuMs: number
  /** jp's CPU by thread (ms): the main thread, the busiest other (the render worker, when one rendered), the rest (V8's compiler and GC helpers, libuv). */
  threads: {main: number; busiest: number; rest: number}
}

/** The fields of a /proc stat file after "(comm) " (the command name may hold spaces and parentheses). */
function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** CPU time (ms) of each thread of `pid` so far (/proc/PID/task/TID/stat utime + stime); empty where /proc is missing. */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      // utime (14) and stime (15) are at 11 and 12 after "(comm) ".
      const f = statFields(`/proc/${pid}/task/${tid}/stat`)
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) * 10)
    }
  } catch {
    // gone, or no /proc
  }
  return out
}

/**
 * CPU time (ms) of this process's reaped children (cutime + cstime of
 * /proc/self/stat): around one run it is jp's own, whatever else the
 * machine is doing, which a wall clock on a shared machine is not.
 */
function childrenCpuMs(): number {
  try {
    const fields = statFields('/proc/self/stat')
    // After "(comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14; clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return Number.NaN
  }
}

/**
 * The floor: the least any client does between the socket and the pty. The
 * same request, the body read as it comes (node:http: jp's own client), its
 * SSE events split by hand, each text written to stdout at once.
 */
const FLOOR_SCRIPT = `
const http = require('node:http')
const req = http.request(process.argv[1] + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'}}, (res) => {
  res.setEncoding('utf8')
  let rest = ''
  res.on('data', (chunk) => {
    const events = (rest + chunk).split('\\n\\n')
    rest = events.pop()
    let text = ''
    for (const ev of events) if (ev.startsWith('data: {')) text += JSON.parse(ev.slice(6)).choices[0].delta.content ?? ''
    if (text) process.stdout.write(text)
  })
})
req.end(JSON.stringify({model: 'bench', messages: [{role: 'user', content: 'go'}], stream: true}))
`

/** What runs on the pty: jp (this build's or another's bin/run.js) or the floor script. */
type Client = {bin: string} | {floor: string}

function runOnPty(client: Client, env: NodeJS.ProcessEnv, cwd: string, firstSentAt: () => number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const cpu0 = childrenCpuMs()
    const args = 'bin' in client ? [client.bin, 'query', '-n', 'go'] : ['-e', FLOOR_SCRIPT, client.floor]
    const term = pty.spawn(process.execPath, args, {cols: 100, rows: 40, cwd, env: {...env, TERM: 'xterm-256color'}})
    let bytes = 0
    let tail = ''
    let firstAt = 0
    // The threads' CPU as last read before jp exits (read every 20 ms: a thread's figure is at most that late).
    const threads = new Map<number, number>()
    const sampler = setInterval(() => {
      for (const [tid, ms] of threadCpu(term.pid)) threads.set(tid, ms)
    }, 20)
    term.onData((d) => {
      bytes += d.length
      if (firstAt === 0) {
        tail = (tail + d).slice(-200)
        if (tail.includes('Answer')) firstAt = performance.now()
      }
    })
    term.onExit(({exitCode}) => {
      clearInterval(sampler)
      if (exitCode !== 0) return reject(new Error(`${'bin' in client ? 'jp' : 'the floor script'} exited ${exitCode}`))
      const wallMs = performance.now() - start
      const others = [...threads].filter(([tid]) => tid !== term.pid).map(([, ms]) => ms).sort((a, b) => b - a)
      const split = {main: threads.get(term.pid) ?? Number.NaN, busiest: others[0] ?? 0, rest: others.slice(1).reduce((a, b) => a + b, 0)}
      // node-pty reaps the child just after reporting its exit.
      setTimeout(() => resolve({wallMs, firstMs: firstAt - firstSentAt(), bytes, cpuMs: childrenCpuMs() - cpu0, threads: split}), 50)
    })
  })
}

const stats = (xs: number[]) => ({min: Math.min(...xs), median: median(xs), max: Math.max(...xs)})
const fmt = (s: {min: number; median: number; max: number}) => `${s.min.toFixed(1)}/${s.median.toFixed(1)}/${s.max.toFixed(1)}`
type Stats = ReturnType<typeof stats>

/** A row of `value` against `baseline`, with both spreads. */
function row(metric: string, value: Stats, baseline: Stats, baselineName: string, target: string, pass: boolean, unit = 'ms'): BenchRow {
  return {bench: 'markdown', metric, value: value.median, spread: [value.min, value.max], unit, baseline: baseline.median, baselineSpread: [baseline.min, baseline.max], baselineName, ratio: value.median / Math.max(baseline.median, 0.001), target, pass}
}

/** `tiny` (a 2 kB answer) or a size in MB. */
function sizeOf(spec: string): {bytes: number; label: string} {
  return spec === 'tiny' ? {bytes: TINY, label: 'tiny (2 kB)'} : {bytes: Number(spec) * 1024 * 1024, label: `${spec} MB`}
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const runs = SIZES.flatMap((spec) => (spec === 'tiny' ? [{spec, corpus: 'text' as Corpus}] : CORPORA.map((corpus) => ({spec, corpus}))))
  for (const {spec, corpus} of runs) {
    const size = sizeOf(spec)
    const {bytes} = size
    const label = `${size.label} ${CORPUS_NAME[corpus]}`
    const answer = answerOf(corpus, bytes)
    const server = await startServer(answer)
    const dir = mkdtempSync(join(tmpdir(), 'jp-bench-md-'))
    try {
      const {env, work} = benchHome(dir, server.baseUrl)
      const raw = {...env, JP_CFG_STYLE_MARKDOWN: 'false'}
      const clients: Record<string, () => Promise<Sample>> = {
        rendered: () => runOnPty({bin: BIN}, env, work, server.firstSentAt),
        raw: () => runOnPty({bin: BIN}, raw, work, server.firstSentAt),
        floor: () => runOnPty({floor: server.baseUrl}, env, work, server.firstSentAt),
      }
      if (BASE_BIN) {
        clients.baseRendered = () => runOnPty({bin: BASE_BIN}, env, work, server.firstSentAt)
        clients.baseRaw = () => runOnPty({bin: BASE_BIN}, raw, work, server.firstSentAt)
      }
      const names = Object.keys(clients)
      for (const name of names) await clients[name]()
      const samples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]))
      // Each round in another order, so no client always runs on a warmer (or busier) machine.
      for (let i = 0; i < RUNS; i++) {
        rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true})
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length]
          samples[name].push(await clients[name]())
        }
      }
      // The pause after the first token is in every wall; it is no rendering cost.
      const of = (name: string, key: Exclude<keyof Sample, 'threads'>) => stats(samples[name].map((s) => s[key]))
      const threadsOf = (name: string) => (['main', 'busiest', 'rest'] as const).map((k) => median(samples[name].map((s) => s.threads[k])).toFixed(0)).join(' / ')
      const [wOn, wOff, fOn, fOff, cOn, cOff, fFloor, wFloor] = [of('rendered', 'wallMs'), of('raw', 'wallMs'), of('rendered', 'firstMs'), of('raw', 'firstMs'), of('rendered', 'cpuMs'), of('raw', 'cpuMs'), of('floor', 'firstMs'), of('floor', 'wallMs')]
      process.stderr.write(
        `markdown ${label}: wall min/median/max rendered ${fmt(wOn)} ms, raw ${fmt(wOff)} ms, floor ${fmt(wFloor)} ms; jp CPU rendered ${fmt(cOn)} ms, raw ${fmt(cOff)} ms; first byte rendered ${fmt(fOn)} ms, raw ${fmt(fOff)} ms, floor ${fmt(fFloor)} ms; pty bytes rendered ${samples.rendered[0].bytes}, raw ${samples.raw[0].bytes}\n` +
          `markdown ${label}: jp CPU by thread, median ms (main / busiest other: the render worker / the rest): rendered ${threadsOf('rendered')}, raw ${threadsOf('raw')}\n`,
      )
      const off = 'style.markdown = false'
      rows.push(row(`${label} answer → pty, rendered (wall, median)`, wOn, wOff, off, '≤ 1.3×', wOn.median / wOff.median <= 1.3))
      if (spec === 'tiny') rows.push({bench: 'markdown', metric: `${label}: rendered − raw wall (the fixed cost of rendering)`, value: wOn.median - wOff.median, unit: 'ms', target: 'report', pass: true})
      if (Number.isFinite(cOn.median)) rows.push(row(`${label}: jp CPU time, rendered (median; the wall less the machine's load)`, cOn, cOff, off, '≤ 1.3×', cOn.median / cOff.median <= 1.3))
      rows.push(row(`${label}: first rendered byte after the first token (median)`, fOn, fOff, off, '≤ 5 ms', fOn.median <= 5))
      rows.push(row(`${label}: first byte, raw, against the floor (a bare node:http script → the same pty)`, fOff, fFloor, 'the floor', '≤ 5 ms', fOff.median <= 5))
      if (BASE_BIN) {
        const base = `base build (${BASE_BIN})`
        const [bOn, bOff, bfOn, bfOff, bcOn, bcOff] = [of('baseRendered', 'wallMs'), of('baseRaw', 'wallMs'), of('baseRendered', 'firstMs'), of('baseRaw', 'firstMs'), of('baseRendered', 'cpuMs'), of('baseRaw', 'cpuMs')]
        process.stderr.write(`markdown ${label}, ${base}: wall rendered ${fmt(bOn)} ms, raw ${fmt(bOff)} ms; jp CPU rendered ${fmt(bcOn)} ms, raw ${fmt(bcOff)} ms; first byte rendered ${fmt(bfOn)} ms, raw ${fmt(bfOff)} ms; CPU by thread rendered ${threadsOf('baseRendered')}\n`)
        rows.push(row(`${label}: wall, rendered, this build against the base build`, wOn, bOn, base, '≤ 1×', wOn.median <= bOn.median))
        if (Number.isFinite(cOn.median)) {
          rows.push(row(`${label}: jp CPU, rendered, this build against the base build`, cOn, bcOn, base, '≤ 1×', cOn.median <= bcOn.median))
          rows.push({bench: 'markdown', metric: `${label}: rendered − raw jp CPU, this build (the base build's beside it)`, value: cOn.median - cOff.median, unit: 'ms', baseline: bcOn.median - bcOff.median, baselineName: base, target: 'report', pass: true})
        }
        rows.push({bench: 'markdown', metric: `${label}: rendered − raw wall, this build (the base build's beside it)`, value: wOn.median - wOff.median, unit: 'ms', baseline: bOn.median - bOff.median, baselineName: base, target: 'report', pass: true})
        rows.push(row(`${label}: first rendered byte, this build against the base build`, fOn, bfOn, base, '≤ 1×', fOn.median <= bfOn.median))
        rows.push(row(`${label}: first byte raw, this build against the base build`, fOff, bfOff, base, '≤ 1×', fOff.median <= bfOff.median))
      }
    } finally {
      await server.close()
      rmSync(dir, {recursive: true, force: true})
    }
  }
  return rows
}

await runIfMain(import.meta.url, run, {exit: true})
