// Text-heavy answers (SPEC §15, issues 14 and 27): `jp query -n` streaming
// answers of 5 to 70 MB of text (deltas of ~200 bytes of text in ~150 bytes
// of envelope: 35 MB of text is 64 MB of SSE) from a local OpenAI-format
// server, stdout to a file, against the bare fetch + eventsource-parser +
// JSON.parse loop reading the same stream, and the floor under both: a raw
// socket reading the response and doing nothing with it. Wall time from
// spawn to exit and peak RSS (/usr/bin/time -v) of each child; the three
// take turns, in a rotating order, RUNS times per size. Targets: wall
// ≤ 1.3× bare at 5, 35 and 70 MB; peak RSS ≤ 1.2× bare at 5, 20, 35 and 70 MB.
//
// Run: node --import tsx bench/text-stream.ts   (BENCH_TEXT_RUNS, default 3; BENCH_TEXT_MB, default 5,20,35,70)
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {BARE_STREAM_SCRIPT} from './lib/bare-stream.js'
import {listenLocal, measure, type Sample} from './lib/child.js'
import {benchHome} from './lib/jp-run.js'
import {cpuRow, runIfMain, stats, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The jp under test: BENCH_JP_BIN to measure another build (an older checkout's bin/run.js) against the same baselines. */
const BIN = process.env.BENCH_JP_BIN ?? join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_TEXT_RUNS ?? 3)
const SIZES = (process.env.BENCH_TEXT_MB ?? '5,20,35,70').split(',').map(Number)
/** Sizes with a wall-time row (all have an RSS row). */
const WALL_SIZES = new Set([5, 35, 70])

const WORDS = ['a', 'large', 'answer', 'streams', 'through', 'jp', '—', 'naïve', 'code,', 'prose', 'and', 'tables.\n']

/** The whole response body for `textBytes` of answer text, built once and served as it is. */
export function textHeavyBody(textBytes: number): {body: Buffer; textBytes: number; textChars: number} {
  const deltas: string[] = []
  for (let d = 0; d < 64; d++) {
    let s = ''
    for (let i = d; Buffer.byteLength(s) < 200; i++) s += WORDS[i % WORDS.length] + ' '
    deltas.push(s)
  }
  const lines = deltas.map(
    (t) => `data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1751000000,"model":"bench","choices":[{"index":0,"delta":{"content":${JSON.stringify(t)}},"finish_reason":null}]}\n\n`,
  )
  const parts: string[] = []
  let size = 0
  let chars = 0
  for (let i = 0; size < textBytes; i++) {
    parts.push(lines[i % lines.length])
    size += Buffer.byteLength(deltas[i % deltas.length])
    chars += deltas[i % deltas.length].length
  }
  parts.push('data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1751000000,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
  return {body: Buffer.from(parts.join('')), textBytes: size, textChars: chars}
}

/** Reads the response off a raw socket and counts its bytes: what any client pays at least. */
const RAW_SOCKET_SCRIPT = `
import net from 'node:net'
const u = new URL(process.argv[1])
const body = JSON.stringify({model: 'bench', messages: [{role: 'user', content: 'go'}], stream: true})
const s = net.connect(Number(u.port), u.hostname, () => s.write('POST ' + u.pathname + '/chat/completions HTTP/1.1\\r\\nhost: x\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + body.length + '\\r\\nconnection: close\\r\\n\\r\\n' + body))
let n = 0
s.on('data', (d) => { n += d.length })
s.on('end', () => process.stdout.write(String(n)))
`

async function size(mb: number): Promise<BenchRow[]> {
  const {body, textBytes, textChars} = textHeavyBody(mb * 1024 * 1024)
  const server = await listenLocal(
    createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, {'content-type': 'text/event-stream'})
        res.end(body)
      })
    }),
  )
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-text-'))
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const outFile = join(dir, 'out')
    const run = {
      jp: () => measure([BIN, 'query', '-n', 'go'], {cwd: work, env, outFile, readOut: false}),
      bare: () => measure(['--input-type=module', '-e', BARE_STREAM_SCRIPT, server.baseUrl], {cwd: ROOT, env, outFile}),
      raw: () => measure(['--input-type=module', '-e', RAW_SOCKET_SCRIPT, server.baseUrl], {cwd: ROOT, env, outFile}),
    }
    const samples: Record<keyof typeof run, Sample[]> = {jp: [], bare: [], raw: []}
    const order = ['bare', 'jp', 'raw'] as const
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < order.length; k++) {
        const who = order[(i + k) % order.length]
        // One conversation on disk at a time.
        if (who === 'jp') rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true})
        samples[who].push(await run[who]())
      }
    }
    // Every client saw the whole answer, or the comparison means nothing.
    for (const s of samples.jp) if (s.outBytes !== textBytes + 1 && s.outBytes !== textBytes) throw new Error(`jp wrote ${s.outBytes} bytes, expected ${textBytes}`)
    for (const s of samples.bare) if (Number(s.out) !== textChars) throw new Error(`bare saw ${s.out} chars, expected ${textChars}`)
    for (const s of samples.raw) if (Number(s.out) < body.length) throw new Error(`the raw socket read ${s.out} bytes of ${body.length}`)
    const ms = (who: keyof typeof run) => stats(samples[who].map((s) => s.ms))
    const rss = (who: keyof typeof run) => stats(samples[who].map((s) => s.maxRssKb / 1024))
    const sse = (body.length / 1024 / 1024).toFixed(0)
    process.stderr.write(
      `text-stream ${mb} MB: jp ${samples.jp.map((s) => s.ms.toFixed(0)).join(' ')} ms; bare ${samples.bare.map((s) => s.ms.toFixed(0)).join(' ')} ms; raw ${samples.raw.map((s) => s.ms.toFixed(0)).join(' ')} ms\n`,
    )
    const rows: BenchRow[] = []
    if (WALL_SIZES.has(mb)) {
      const [j, b, r] = [ms('jp'), ms('bare'), ms('raw')]
      rows.push(
        {bench: 'text-stream', metric: `${mb} MB of text (${sse} MB SSE) → file, wall`, value: j.median, spread: j.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName: 'bare fetch+parser', ratio: j.median / b.median, target: '≤ 1.3×', pass: j.median / b.median <= 1.3},
        {bench: 'text-stream', metric: `${mb} MB: CPU time (user+sys)`, ...cpuRow(samples.jp, samples.bare, 'bare fetch+parser')},
        {bench: 'text-stream', metric: `${mb} MB: raw socket read (the floor), wall`, value: r.median, spread: r.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName: 'bare fetch+parser', ratio: r.median / b.median, target: '(report)', pass: true},
      )
    }
    const [j, b] = [rss('jp'), rss('bare')]
    rows.push({bench: 'text-stream', metric: `${mb} MB of text, peak RSS`, value: j.median, spread: j.spread, unit: 'MB', baseline: b.median, baselineSpread: b.spread, baselineName: 'bare fetch+parser', ratio: j.median / b.median, target: '≤ 1.2×', pass: j.median / b.median <= 1.2})
    return rows
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync('/usr/bin/time')) throw new Error('bench/text-stream.ts needs /usr/bin/time -v for peak RSS')
  const rows: BenchRow[] = []
  for (const mb of SIZES) rows.push(...(await size(mb)))
  return rows
}

await runIfMain(import.meta.url, run)
