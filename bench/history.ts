// History growth (SPEC §15, issue 14): the extra cost of a turn on a
// conversation holding ~10 MB of history, over the same turn on a fresh
// conversation, against the extra cost for a bare client to load that history
// from its events.json, send it and read the streamed answer. Each jp run
// starts from a pristine copy of the conversation (restored untimed), so the
// history does not grow from run to run. Target ≤ 1.5×.
//
// Run: node --import tsx bench/history.ts   (BENCH_HISTORY_RUNS, BENCH_HISTORY_MB)
import {cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import {rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {BARE_CHAT_STREAM} from './lib/bare-stream.js'
import {listenLocal, measure, type Sample} from './lib/child.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 9)
const MEGABYTES = Number(process.env.BENCH_HISTORY_MB ?? 10)
const ANSWER = 'ok'

/** The bare client: read events.json, parse it, send it all, read the SSE answer. */
const BARE = `
import {readFileSync} from 'node:fs'
import {createParser} from 'eventsource-parser'
const events = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const messages = []
for (const e of events) {
  if (e.type === 'chat_request') messages.push({role: 'user', content: e.content})
  else if (e.type === 'chat_response' && typeof e.message === 'string') messages.push({role: 'assistant', content: e.message})
}
messages.push({role: 'user', content: 'next'})
${BARE_CHAT_STREAM}`

const WORDS = ['history', 'of', 'a', 'long', 'conversation', 'with', 'naïve', 'code', '—', 'and', 'diffs', 'line\n']

/** `turns` exchanges holding about `bytes` of assistant text in total. */
function historyEvents(bytes: number, turns: number): unknown[] {
  const per = Math.floor(bytes / turns)
  const events: unknown[] = []
  for (let t = 0; t < turns; t++) {
    const parts: string[] = []
    for (let size = 0, i = t; size < per; i++) {
      const w = WORDS[i % WORDS.length] + ' '
      parts.push(w)
      size += Buffer.byteLength(w)
    }
    const ts = new Date(Date.UTC(2026, 0, 1, 0, t)).toISOString()
    events.push({timestamp: ts, type: 'turn_start'}, {timestamp: ts, type: 'chat_request', content: `question ${t}`}, {timestamp: ts, type: 'chat_response', message: parts.join('')})
  }
  return events
}

/** Answers every request with `ANSWER` once the whole request body has arrived; records the body sizes. */
async function startServer(): Promise<{baseUrl: string; bodies: number[]; close(): Promise<void>}> {
  const bodies: number[] = []
  const sse =
    `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(ANSWER)}},"finish_reason":null}]}\n\n` +
    `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`
  const server = createServer((req, res) => {
    let n = 0
    req.on('data', (d: Buffer) => (n += d.length))
    req.on('end', () => {
      bodies.push(n)
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.end(sse)
    })
  })
  return {...(await listenLocal(server)), bodies}
}

export async function run(): Promise<BenchRow[]> {
  const server = await startServer()
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-history-'))
  try {
    const {env, work} = benchHome(dir, server.baseUrl)
    const id = 'jp-c17000000000'
    const conv = join(work, '.jp', 'conversations', id)
    const pristine = join(dir, 'pristine')
    mkdirSync(pristine, {recursive: true})
    const events = historyEvents(MEGABYTES * 1024 * 1024, 10)
    writeFileSync(join(pristine, 'events.json'), JSON.stringify(events, null, 2) + '\n')
    writeFileSync(join(pristine, 'metadata.json'), JSON.stringify({title: 'long', created_at: '2026-01-01T00:00:00.000Z', last_activated_at: '2026-01-01T00:00:00.000Z'}, null, 2) + '\n')
    writeFileSync(join(pristine, 'base_config.json'), '{}\n')
    const empty = join(dir, 'empty.json')
    writeFileSync(empty, '[]\n')
    const restore = () => {
      rmSync(join(work, '.jp'), {recursive: true, force: true})
      mkdirSync(join(work, '.jp', 'conversations'), {recursive: true})
      cpSync(pristine, conv, {recursive: true})
      writeFileSync(join(work, '.jp', 'active_conversation'), id + '\n')
    }
    const outFile = join(dir, 'out')
    const cases: Record<string, () => Promise<Sample>> = {
      jpLong: () => (restore(), measure([BIN, 'query', 'next'], {cwd: work, env, outFile})),
      jpFresh: () => (restore(), measure([BIN, 'query', '-n', 'next'], {cwd: work, env, outFile})),
      bareLong: () => measure(['--input-type=module', '-e', BARE, server.baseUrl, join(pristine, 'events.json')], {cwd: ROOT, env, outFile}),
      bareFresh: () => measure(['--input-type=module', '-e', BARE, server.baseUrl, empty], {cwd: ROOT, env, outFile}),
    }
    const names = Object.keys(cases)
    const samples = new Map<string, Sample[]>(names.map((n) => [n, []]))
    for (const n of names) await cases[n]() // warm the file cache and the server
    for (let i = 0; i < RUNS; i++) {
      // Alternate the order so no case always runs right after another.
      const order = i % 2 === 0 ? names : [...names].reverse()
      for (const n of order) {
        const s = await cases[n]()
        if (s.out.replace(/\n$/, '') !== ANSWER) throw new Error(`${n} printed ${JSON.stringify(s.out.slice(0, 100))}, expected ${ANSWER}`)
        samples.get(n)!.push(s)
      }
    }
    const med = (n: string) => median(samples.get(n)!.map((s) => s.ms))
    const extraJp = med('jpLong') - med('jpFresh')
    const extraBare = med('bareLong') - med('bareFresh')
    const sent = Math.max(...server.bodies)
    process.stderr.write(
      `history: ${RUNS} runs each; medians jp ${med('jpLong').toFixed(0)} / fresh ${med('jpFresh').toFixed(0)} ms; bare ${med('bareLong').toFixed(0)} / fresh ${med('bareFresh').toFixed(0)} ms; largest request ${(sent / 1024 / 1024).toFixed(1)} MB\n`,
    )
    const ratio = extraJp / extraBare
    return [
      {bench: 'history', metric: `turn on a ${MEGABYTES} MB history, extra over a fresh one (wall)`, value: extraJp, unit: 'ms', baseline: extraBare, baselineName: 'bare load+send', ratio, target: '≤ 1.5×', pass: ratio <= 1.5},
    ]
  } finally {
    await Promise.all([server.close(), rm(dir, {recursive: true, force: true})])
  }
}

await runIfMain(import.meta.url, run)
