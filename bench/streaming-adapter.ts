// Streaming adapter bench (SPEC §15): a ~20 MB OpenAI-format SSE response from
// a local server, consumed (a) by a bare fetch + eventsource-parser + JSON.parse
// loop and (b) by jp's openai adapter, each run in its own child process,
// alternated. Prints medians and ratios (targets: ≤ 1.5× time, ≤ 1.3× memory);
// CPU time beside wall time (on a loaded machine it is the steadier signal).
// Run: node --import tsx bench/streaming-adapter.ts [runs] [megabytes]
import {execFile} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {startOpenAISseServer} from './lib/openai-sse-server.js'
import {cpuRow, runIfMain, stats, type BenchRow} from './lib/report.js'

const execFileAsync = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const runs = Number(process.argv[2] ?? 7)
const megabytes = Number(process.argv[3] ?? 20)

interface Sample {
  ms: number
  cpuMs: number
  textChars: number
  maxRssKb: number
}

async function sample(mode: 'bare' | 'adapter', baseUrl: string): Promise<Sample> {
  const {stdout} = await execFileAsync(process.execPath, ['--import', 'tsx', join(here, 'lib', 'stream-client.ts'), mode, baseUrl], {
    cwd: join(here, '..'),
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Sample
}

async function run(): Promise<BenchRow[]> {
  const server = await startOpenAISseServer(megabytes * 1024 * 1024)
  try {
    const bare: Sample[] = []
    const adapter: Sample[] = []
    await sample('bare', server.baseUrl) // warm the tsx cache and the OS
    for (let i = 0; i < runs; i++) {
      const first = i % 2 === 0
      const a = first ? await sample('bare', server.baseUrl) : undefined
      adapter.push(await sample('adapter', server.baseUrl))
      bare.push(a ?? (await sample('bare', server.baseUrl)))
    }
    for (const s of [...bare, ...adapter]) {
      if (s.textChars !== server.textChars) throw new Error(`a run saw ${s.textChars} text chars, expected ${server.textChars}`)
    }
    const bench = `streaming-adapter (${(server.bodyBytes / 1024 / 1024).toFixed(1)} MB OpenAI SSE)`
    const baselineName = 'bare fetch+parser+JSON.parse'
    const [tj, tb] = [stats(adapter.map((s) => s.ms)), stats(bare.map((s) => s.ms))]
    const [mj, mb] = [stats(adapter.map((s) => s.maxRssKb / 1024)), stats(bare.map((s) => s.maxRssKb / 1024))]
    const tr = tj.median / tb.median
    const mr = mj.median / mb.median
    return [
      {bench, metric: 'wall time', value: tj.median, spread: tj.spread, unit: 'ms', baseline: tb.median, baselineSpread: tb.spread, baselineName, ratio: tr, target: '≤ 1.5×', pass: tr <= 1.5},
      {bench, metric: 'CPU time', ...cpuRow(adapter, bare, baselineName)},
      {bench, metric: 'max RSS', value: mj.median, spread: mj.spread, unit: 'MB', baseline: mb.median, baselineSpread: mb.spread, baselineName, ratio: mr, target: '≤ 1.3×', pass: mr <= 1.3},
    ]
  } finally {
    await server.close()
  }
}

await runIfMain(import.meta.url, run)
