// Time to first token: from starting `jp query -n hi` to the first byte of
// the answer on its stdout, against a bare script doing the same request and
// SSE parse (fetch + eventsource-parser, writing the first text it sees), both
// against a local OpenAI-format server that sends the first token at once.
// Each run is its own process; the two alternate; medians. Target ≤ 1.2×
// (issue 40).
// A second row reports the whole run (start to exit) for the same pair.
//
// Run: node --import tsx bench/ttft.ts   (BENCH_TTFT_RUNS)
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {listenLocal, type LocalServer} from '../test/helpers/local-server.js'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {alternate, benchHome} from './lib/jp-run.js'
import {processCpuMs} from './lib/pty-ready.js'
import {runIfMain, median, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 21)

const BARE = `
import {createParser} from 'eventsource-parser'
const res = await fetch(process.argv[1] + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({model: 'bench', messages: [{role: 'user', content: 'hi'}], stream: true})})
const parser = createParser({onEvent(event) {
  if (event.data === '[DONE]') return
  const content = JSON.parse(event.data).choices[0]?.delta?.content
  if (typeof content === 'string') process.stdout.write(content)
}})
const reader = res.body.getReader()
const decoder = new TextDecoder()
for (;;) { const {done, value} = await reader.read(); if (done) break; parser.feed(decoder.decode(value, {stream: true})) }
`

function chunk(content: string | null, finish: string | null = null): string {
  return `data: ${JSON.stringify({id: 'chatcmpl-ttft', object: 'chat.completion.chunk', created: 1751000000, model: 'bench', choices: [{index: 0, delta: content === null ? {} : {content}, finish_reason: finish}]})}\n\n`
}

async function startServer(): Promise<LocalServer> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write(chunk('Hello'))
      res.end(chunk(' there.') + chunk(null, 'stop') + 'data: [DONE]\n\n')
    })
  })
  return listenLocal(server)
}

interface Sample {
  firstByteMs: number
  exitMs: number
  /** CPU time of the process by its first byte (bench/lib/pty-ready.ts): steadier than the wall under load. */
  firstByteCpuMs: number
}

function measure(args: string[], opts: {cwd: string; env: NodeJS.ProcessEnv}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    let firstByteMs = Number.NaN
    let firstByteCpuMs = Number.NaN
    let out = ''
    let err = ''
    const child = spawn(process.execPath, args, {cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe']})
    child.stdout.on('data', (d: Buffer) => {
      if (Number.isNaN(firstByteMs)) {
        firstByteMs = Number(process.hrtime.bigint() - t0) / 1e6
        firstByteCpuMs = processCpuMs(child.pid!)
      }
      out += d
    })
    child.stderr.on('data', (d: Buffer) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const exitMs = Number(process.hrtime.bigint() - t0) / 1e6
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))
      if (!out.startsWith('Hello there.')) return reject(new Error(`${args.join(' ')} wrote ${JSON.stringify(out)}`))
      resolve({firstByteMs, exitMs, firstByteCpuMs})
    })
  })
}

export async function run(): Promise<BenchRow[]> {
  const server = await startServer()
  const {baseUrl} = server
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-ttft-'))
  try {
    const {env, work} = benchHome(dir, baseUrl)
    const jp = () => measure([BIN, 'query', '-n', 'hi'], {cwd: work, env})
    const bare = () => measure(['--input-type=module', '-e', BARE, baseUrl], {cwd: ROOT, env})

    // BENCH_TTFT_VARIANTS: other builds of jp (name → {"root": a built checkout, "env": {…}}), in the same rotation: a mechanism with and without it.
    const spec = Object.entries(JSON.parse(process.env.BENCH_TTFT_VARIANTS ?? '{}') as Record<string, {root?: string; env?: NodeJS.ProcessEnv}>)
    if (spec.length > 0) return await withVariants(spec, bare, jp, (root, extra) => measure([join(root, 'bin', 'run.js'), 'query', '-n', 'hi'], {cwd: work, env: {...env, ...extra}}))
    const {jp: jpRuns, bare: bareRuns} = await alternate(RUNS, bare, jp)
    const first = {jp: median(jpRuns.map((s) => s.firstByteMs)), bare: median(bareRuns.map((s) => s.firstByteMs))}
    const exit = {jp: median(jpRuns.map((s) => s.exitMs)), bare: median(bareRuns.map((s) => s.exitMs))}
    return [
      {bench: 'ttft', metric: 'jp query -n hi: start → first byte', value: first.jp, unit: 'ms', baseline: first.bare, baselineName: 'bare fetch+SSE', ratio: first.jp / first.bare, target: '≤ 1.2×', pass: first.jp / first.bare <= 1.2},
      {bench: 'ttft', metric: 'jp query -n hi: start → exit', value: exit.jp, unit: 'ms', baseline: exit.bare, baselineName: 'bare fetch+SSE', ratio: exit.jp / exit.bare, target: '≤ 1.5×', pass: exit.jp / exit.bare <= 1.5},
    ]
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

/** Bare client, jp and each variant in rotation (the order shifting each round); jp's first-byte row against the bare client and against each variant. */
async function withVariants(spec: [string, {root?: string; env?: NodeJS.ProcessEnv}][], bare: () => Promise<Sample>, jp: () => Promise<Sample>, variant: (root: string, env: NodeJS.ProcessEnv) => Promise<Sample>): Promise<BenchRow[]> {
  const all: [string, () => Promise<Sample>][] = [['bare fetch+SSE', bare], ['jp', jp], ...spec.map(([name, v]) => [name, () => variant(v.root ?? ROOT, v.env ?? {})] as [string, () => Promise<Sample>])]
  const times = new Map<string, Sample[]>(all.map(([name]) => [name, []]))
  for (const [, f] of all) await f()
  for (let i = 0; i < RUNS; i++) for (let k = 0; k < all.length; k++) {
    const [name, f] = all[(i + k) % all.length]
    times.get(name)!.push(await f())
  }
  const of = (name: string, what: 'firstByteMs' | 'firstByteCpuMs') => median(times.get(name)!.map((s) => s[what]))
  return all.filter(([name]) => name !== 'jp').flatMap(([name]): BenchRow[] => {
    const [j, b] = [of('jp', 'firstByteMs'), of(name, 'firstByteMs')]
    const [jc, bc] = [of('jp', 'firstByteCpuMs'), of(name, 'firstByteCpuMs')]
    return [
      {bench: 'ttft', metric: 'jp query -n hi: start → first byte', value: j, unit: 'ms', baseline: b, baselineName: name, ratio: j / b, target: name === 'bare fetch+SSE' ? '≤ 1.2×' : '(report)', pass: name !== 'bare fetch+SSE' || j / b <= 1.2},
      {bench: 'ttft', metric: 'jp query -n hi: CPU time by the first byte', value: jc, unit: 'ms', baseline: bc, baselineName: name, ratio: jc / bc, target: '(report)', pass: true},
    ]
  })
}

await runIfMain(import.meta.url, run)
