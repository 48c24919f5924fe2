// Streaming end to end (SPEC §15): a ~20 MB OpenAI-format SSE response from a
// local server through `jp query` (bin/run.js: config, provider adapter, turn
// loop, printer, events.json) with stdout to a file, against a bare
// fetch + eventsource-parser + JSON.parse loop (the loop of
// bench/lib/bare-stream.ts, run as plain JS so the baseline process loads
// no TypeScript loader). Each run is its own process, the two alternate, and
// /usr/bin/time -v gives each child's peak RSS. Targets: median wall time
// ≤ 1.5×, peak RSS ≤ 1.3×. Both sides pay their process start-up.
//
// Run: node --import tsx bench/streaming.ts   (BENCH_STREAMING_RUNS, BENCH_STREAMING_MB)
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {startOpenAISseServer} from './lib/openai-sse-server.js'
import {BARE_STREAM_SCRIPT as BARE} from './lib/bare-stream.js'
import {measure} from './lib/child.js'
import {alternate, benchHome} from './lib/jp-run.js'
import {runIfMain, median, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_STREAMING_RUNS ?? 7)
const MEGABYTES = Number(process.env.BENCH_STREAMING_MB ?? 20)

export async function run(): Promise<BenchRow[]> {
  const server = await startOpenAISseServer(MEGABYTES * 1024 * 1024)
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-stream-'))
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const outFile = join(dir, 'out')
    // A new conversation per run, so events.json does not grow from run to run.
    const jp = () => measure([BIN, 'query', '-n', 'go'], {cwd: work, env, outFile})
    const bare = () => measure(['--input-type=module', '-e', BARE, server.baseUrl], {cwd: ROOT, env, outFile})

    const {jp: jpRuns, bare: bareRuns} = await alternate(RUNS, bare, jp)
    // Both must have seen the whole stream, or the comparison means nothing.
    for (const s of bareRuns) if (Number(s.out) !== server.textChars) throw new Error(`bare saw ${s.out} chars, expected ${server.textChars}`)
    for (const s of jpRuns) if (s.out.replace(/\n$/, '').length !== server.textChars) throw new Error(`jp wrote ${s.out.length} chars, expected ${server.textChars}`)

    const t = {jp: median(jpRuns.map((s) => s.ms)), bare: median(bareRuns.map((s) => s.ms))}
    const m = {jp: median(jpRuns.map((s) => s.maxRssKb)) / 1024, bare: median(bareRuns.map((s) => s.maxRssKb)) / 1024}
    const mb = (server.bodyBytes / 1024 / 1024).toFixed(1)
    const rows: BenchRow[] = [
      {bench: 'streaming', metric: `jp query, ${mb} MB SSE → file (wall)`, value: t.jp, unit: 'ms', baseline: t.bare, baselineName: 'bare fetch+parser', ratio: t.jp / t.bare, target: '≤ 1.5×', pass: t.jp / t.bare <= 1.5},
    ]
    if (Number.isFinite(m.jp)) {
      rows.push({bench: 'streaming', metric: `jp query, ${mb} MB SSE → file (peak RSS)`, value: m.jp, unit: 'MB', baseline: m.bare, baselineName: 'bare fetch+parser', ratio: m.jp / m.bare, target: '≤ 1.3×', pass: m.jp / m.bare <= 1.3})
    }
    process.stderr.write(`streaming: ${RUNS} runs each; jp ${jpRuns.map((s) => s.ms.toFixed(0)).join(' ')} ms; bare ${bareRuns.map((s) => s.ms.toFixed(0)).join(' ')} ms; stdout ${statSync(outFile).size} B\n`)
    return rows
  } finally {
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
