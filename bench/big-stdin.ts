// A large piped query (issue 27): `cat FILE | jp query -n` with 200 MB of
// text (prose, code-like quoting, non-ASCII) against a bare client that
// reads stdin, sends it with fetch and reads the answer; a local server
// reads the whole request and answers a few words. Wall time and peak RSS
// (/usr/bin/time -v) of each child, alternating, RUNS times. Targets: wall
// ≤ 1.5×, peak RSS ≤ 1.3× the bare client's.
//
// Run: node --import tsx bench/big-stdin.ts   (BENCH_STDIN_RUNS, default 3; BENCH_STDIN_MB, default 200)
import {closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {BARE_STDIN_SCRIPT} from './lib/bare-stream.js'
import {listenLocal, measure, type Sample} from './lib/child.js'
import {benchHome} from './lib/jp-run.js'
import {cpuRow, runIfMain, stats, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The jp under test: BENCH_JP_BIN to measure another build (an older checkout's bin/run.js) against the same baselines. */
const BIN = process.env.BENCH_JP_BIN ?? join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_STDIN_RUNS ?? 3)
const MEGABYTES = Number(process.env.BENCH_STDIN_MB ?? 200)

const WORDS = ['a', 'large', 'query', 'piped', 'into', 'jp', '—', 'naïve', '"quoted"', 'back\\slash', 'tab\there', 'line\n']

function writeQuery(file: string, bytes: number): void {
  const fd = openSync(file, 'w')
  let size = 0
  let s = ''
  for (let i = 0; size < bytes; i++) {
    s += WORDS[i % WORDS.length] + ' '
    if (s.length >= 64 * 1024) {
      size += writeSync(fd, s)
      s = ''
    }
  }
  closeSync(fd)
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync('/usr/bin/time')) throw new Error('bench/big-stdin.ts needs /usr/bin/time -v for peak RSS')
  const received: number[] = []
  const server = await listenLocal(
    createServer((req, res) => {
      let n = 0
      req.on('data', (d: Buffer) => (n += d.length))
      req.on('end', () => {
        received.push(n)
        res.writeHead(200, {'content-type': 'text/event-stream'})
        res.end('data: {"choices":[{"index":0,"delta":{"content":"read it"},"finish_reason":null}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
      })
    }),
  )
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-stdin-'))
  try {
    const input = join(dir, 'query.txt')
    writeQuery(input, MEGABYTES * 1024 * 1024)
    const inputBytes = statSync(input).size
    const {env, work} = benchHome(dir, server.baseUrl)
    const outFile = join(dir, 'out')
    const jp = () => measure([BIN, 'query', '-n'], {cwd: work, env, outFile, input})
    const bare = () => measure(['--input-type=module', '-e', BARE_STDIN_SCRIPT, server.baseUrl], {cwd: ROOT, env, outFile, input})
    const samples: {jp: Sample[]; bare: Sample[]} = {jp: [], bare: []}
    for (let i = 0; i < RUNS; i++) {
      rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true}) // one conversation on disk at a time
      for (const who of i % 2 === 0 ? (['bare', 'jp'] as const) : (['jp', 'bare'] as const)) samples[who].push(await (who === 'jp' ? jp() : bare()))
    }
    // Both sent the whole query (its JSON is a little larger than the text), and both printed the answer.
    for (const n of received) if (n < inputBytes) throw new Error(`a request carried ${n} bytes, the query is ${inputBytes}`)
    for (const s of [...samples.jp, ...samples.bare]) if (!s.out.startsWith('read it')) throw new Error(`unexpected answer: ${s.out.slice(0, 80)}`)
    const [jm, bm] = [stats(samples.jp.map((s) => s.ms)), stats(samples.bare.map((s) => s.ms))]
    const [jr, br] = [stats(samples.jp.map((s) => s.maxRssKb / 1024)), stats(samples.bare.map((s) => s.maxRssKb / 1024))]
    process.stderr.write(`big-stdin: jp ${samples.jp.map((s) => s.ms.toFixed(0)).join(' ')} ms; bare ${samples.bare.map((s) => s.ms.toFixed(0)).join(' ')} ms\n`)
    const name = 'bare stdin+fetch'
    return [
      {bench: 'big-stdin', metric: `${MEGABYTES} MB piped query, wall`, value: jm.median, spread: jm.spread, unit: 'ms', baseline: bm.median, baselineSpread: bm.spread, baselineName: name, ratio: jm.median / bm.median, target: '≤ 1.5×', pass: jm.median / bm.median <= 1.5},
      {bench: 'big-stdin', metric: `${MEGABYTES} MB piped query, CPU time (user+sys)`, ...cpuRow(samples.jp, samples.bare, name)},
      {bench: 'big-stdin', metric: `${MEGABYTES} MB piped query, peak RSS`, value: jr.median, spread: jr.spread, unit: 'MB', baseline: br.median, baselineSpread: br.spread, baselineName: name, ratio: jr.median / br.median, target: '≤ 1.3×', pass: jr.median / br.median <= 1.3},
    ]
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
