// Streaming adapter bench (SPEC §15): a ~20 MB OpenAI-format SSE response from
// a local server, consumed (a) by a bare fetch + eventsource-parser + JSON.parse
// loop and (b) by jp's openai adapter, each run in its own child process,
// alternated. Prints medians and ratios (targets: ≤ 1.5× time, ≤ 1.3× memory).
// Run: node --import tsx bench/streaming-adapter.ts [runs] [megabytes]
import {execFile} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {startOpenAISseServer} from './lib/openai-sse-server.js'

const run = promisify(execFile)
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
  const {stdout} = await run(process.execPath, ['--import', 'tsx', join(here, 'lib', 'stream-client.ts'), mode, baseUrl], {
    cwd: join(here, '..'),
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Sample
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

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
  const t = {bare: median(bare.map((s) => s.ms)), adapter: median(adapter.map((s) => s.ms))}
  // CPU time is reported too: on a loaded machine it is the steadier signal.
  const c = {bare: median(bare.map((s) => s.cpuMs)), adapter: median(adapter.map((s) => s.cpuMs))}
  const m = {bare: median(bare.map((s) => s.maxRssKb)), adapter: median(adapter.map((s) => s.maxRssKb))}
  const mb = (server.bodyBytes / 1024 / 1024).toFixed(1)
  console.log(`streaming-adapter: ${mb} MB OpenAI SSE, ${runs} runs each (medians)`)
  const row = (label: string, k: 'bare' | 'adapter') =>
    console.log(`  ${label.padEnd(30)}${t[k].toFixed(0).padStart(6)} ms wall ${c[k].toFixed(0).padStart(6)} ms cpu ${(m[k] / 1024).toFixed(1).padStart(7)} MB maxRSS`)
  row('bare fetch+parser+JSON.parse', 'bare')
  row('openai adapter', 'adapter')
  const tr = t.adapter / t.bare
  const mr = m.adapter / m.bare
  console.log(`  ratio: time ${tr.toFixed(2)}× (cpu ${(c.adapter / c.bare).toFixed(2)}×) (target ≤ 1.5×) ${tr <= 1.5 ? 'ok' : 'OVER'}, memory ${mr.toFixed(2)}× (target ≤ 1.3×) ${mr <= 1.3 ? 'ok' : 'OVER'}`)
} finally {
  await server.close()
}
