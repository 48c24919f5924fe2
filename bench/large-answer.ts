// Large-answer memory (SPEC §15, issue 14): `jp query -n` streaming a ~35 MB
// answer from a local OpenAI-format server, against the bare fetch +
// eventsource-parser + JSON.parse loop reading the same stream; peak RSS of
// each child (/usr/bin/time -v), alternating runs. Target ≤ 1.5×.
//
// Run: node --import tsx bench/large-answer.ts   (BENCH_ANSWER_RUNS, BENCH_ANSWER_MB)
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {BARE_STREAM_SCRIPT} from './lib/bare-stream.js'
import {listenLocal, measure, type Sample} from './lib/child.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_ANSWER_RUNS ?? 5)
const MEGABYTES = Number(process.env.BENCH_ANSWER_MB ?? 35)


const WORDS = ['a', 'large', 'answer', 'streams', 'through', 'jp', '—', 'naïve', 'code,', 'prose', 'and', 'tables.\n']

/** A server generating the stream as it goes (deltas of ~200 bytes of text), honouring backpressure. */
export async function startServer(textBytes: number): Promise<{baseUrl: string; textChars: number; close(): Promise<void>}> {
  const deltas: string[] = []
  for (let d = 0; d < 64; d++) {
    let s = ''
    for (let i = d; Buffer.byteLength(s) < 200; i++) s += WORDS[i % WORDS.length] + ' '
    deltas.push(s)
  }
  let textChars = 0
  const plan: number[] = []
  for (let size = 0, i = 0; size < textBytes; i++) {
    plan.push(i % deltas.length)
    size += Buffer.byteLength(deltas[i % deltas.length])
    textChars += deltas[i % deltas.length].length
  }
  const lines = deltas.map(
    (t) => `data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1751000000,"model":"bench","choices":[{"index":0,"delta":{"content":${JSON.stringify(t)}},"finish_reason":null}]}\n\n`,
  )
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      let i = 0
      const pump = () => {
        while (i < plan.length) {
          let batch = ''
          for (let k = 0; k < 256 && i < plan.length; k++, i++) batch += lines[plan[i]]
          if (!res.write(batch)) return void res.once('drain', pump)
        }
        res.end(`data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1751000000,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`)
      }
      pump()
    })
  })
  return {...(await listenLocal(server)), textChars}
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync('/usr/bin/time')) throw new Error('bench/large-answer.ts needs /usr/bin/time -v for peak RSS')
  const server = await startServer(MEGABYTES * 1024 * 1024)
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-answer-'))
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const outFile = join(dir, 'out')
    const jp = () => measure([BIN, 'query', '-n', 'go'], {cwd: work, env, outFile})
    const bare = () => measure(['--input-type=module', '-e', BARE_STREAM_SCRIPT, server.baseUrl], {cwd: ROOT, env, outFile})
    const jpRuns: Sample[] = []
    const bareRuns: Sample[] = []
    for (let i = 0; i < RUNS; i++) {
      rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true}) // one conversation on disk at a time
      if (i % 2 === 0) {
        bareRuns.push(await bare())
        jpRuns.push(await jp())
      } else {
        jpRuns.push(await jp())
        bareRuns.push(await bare())
      }
    }
    for (const s of bareRuns) if (Number(s.out) !== server.textChars) throw new Error(`bare saw ${s.out} chars, expected ${server.textChars}`)
    for (const s of jpRuns) if (s.out.replace(/\n$/, '').length !== server.textChars) throw new Error(`jp wrote ${s.out.length} chars, expected ${server.textChars}`)
    const m = {jp: median(jpRuns.map((s) => s.maxRssKb)) / 1024, bare: median(bareRuns.map((s) => s.maxRssKb)) / 1024}
    process.stderr.write(`large-answer: ${RUNS} runs each; jp ${jpRuns.map((s) => (s.maxRssKb / 1024).toFixed(0)).join(' ')} MB; bare ${bareRuns.map((s) => (s.maxRssKb / 1024).toFixed(0)).join(' ')} MB; jp ${median(jpRuns.map((s) => s.ms)).toFixed(0)} ms\n`)
    const ratio = m.jp / m.bare
    return [
      {bench: 'large-answer', metric: `jp query -n, ${MEGABYTES} MB answer (peak RSS)`, value: m.jp, unit: 'MB', baseline: m.bare, baselineName: 'bare fetch+parser', ratio, target: '≤ 1.5×', pass: ratio <= 1.5},
    ]
  } finally {
    await Promise.all([server.close(), rm(dir, {recursive: true, force: true})])
  }
}

await runIfMain(import.meta.url, run)
