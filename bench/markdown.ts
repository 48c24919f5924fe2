// Markdown on the terminal (issue 25): `jp query` streaming a text-heavy
// markdown answer (2 MB and 20 MB) from a local OpenAI-format server into a
// real pty, rendered (the default) against `style.markdown = false` in the
// same run, alternating. Wall time is from spawn to exit (target ≤ 1.3×).
// The first token (`# Answer`) is sent alone, then the server pauses before
// the rest: the time from writing it to its first byte on the pty is the
// first-rendered-byte latency (target ≤ 5 ms median, rendered). jp's CPU
// time (user + system) is reported beside the wall: on a busy machine the
// wall ratio measures the load as much as the renderer.
//
// Run: node --import tsx bench/markdown.ts   (BENCH_MARKDOWN_RUNS, BENCH_MARKDOWN_SIZES=2,20)
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import pty from '@lydell/node-pty'

import {listenLocal} from '../test/helpers/local-server.js'
import {benchHome} from './lib/jp-run.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_MARKDOWN_RUNS ?? 3)
const SIZES = (process.env.BENCH_MARKDOWN_SIZES ?? '2,20').split(',').map(Number)
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
async function startServer(answer: string) {
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
}

/**
 * CPU time (ms) of this process's reaped children (cutime + cstime of
 * /proc/self/stat): around one run it is jp's own, whatever else the
 * machine is doing, which a wall clock on a shared machine is not.
 */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ')
    // After "(comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14; clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return Number.NaN
  }
}

function runOnPty(env: NodeJS.ProcessEnv, cwd: string, firstSentAt: () => number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const cpu0 = childrenCpuMs()
    const term = pty.spawn(process.execPath, [BIN, 'query', '-n', 'go'], {cols: 100, rows: 40, cwd, env: {...env, TERM: 'xterm-256color'}})
    let bytes = 0
    let tail = ''
    let firstAt = 0
    term.onData((d) => {
      bytes += d.length
      if (firstAt === 0) {
        tail = (tail + d).slice(-200)
        if (tail.includes('Answer')) firstAt = performance.now()
      }
    })
    term.onExit(({exitCode}) => {
      if (exitCode !== 0) return reject(new Error(`jp exited ${exitCode}`))
      const wallMs = performance.now() - start
      // node-pty reaps the child just after reporting its exit.
      setTimeout(() => resolve({wallMs, firstMs: firstAt - firstSentAt(), bytes, cpuMs: childrenCpuMs() - cpu0}), 50)
    })
  })
}

const stats = (xs: number[]) => ({min: Math.min(...xs), median: median(xs), max: Math.max(...xs)})
const fmt = (s: {min: number; median: number; max: number}) => `${s.min.toFixed(1)}/${s.median.toFixed(1)}/${s.max.toFixed(1)}`

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const mb of SIZES) {
    const answer = textHeavyAnswer(mb * 1024 * 1024)
    const server = await startServer(answer)
    const dir = mkdtempSync(join(tmpdir(), 'jp-bench-md-'))
    try {
      const {env, work} = benchHome(dir, server.baseUrl)
      const rendered = () => runOnPty(env, work, server.firstSentAt)
      const raw = () => runOnPty({...env, JP_CFG_STYLE_MARKDOWN: 'false'}, work, server.firstSentAt)
      await rendered()
      await raw()
      const on: Sample[] = []
      const off: Sample[] = []
      for (let i = 0; i < RUNS; i++) {
        rmSync(join(env.JP_USER_DATA_DIR!, 'workspace'), {recursive: true, force: true})
        if (i % 2 === 0) {
          off.push(await raw())
          on.push(await rendered())
        } else {
          on.push(await rendered())
          off.push(await raw())
        }
      }
      // The pause after the first token is in both walls; it is no rendering cost.
      const wOn = stats(on.map((s) => s.wallMs))
      const wOff = stats(off.map((s) => s.wallMs))
      const fOn = stats(on.map((s) => s.firstMs))
      const fOff = stats(off.map((s) => s.firstMs))
      const cOn = stats(on.map((s) => s.cpuMs))
      const cOff = stats(off.map((s) => s.cpuMs))
      process.stderr.write(
        `markdown ${mb} MB: wall min/median/max rendered ${fmt(wOn)} ms, raw ${fmt(wOff)} ms; jp CPU rendered ${fmt(cOn)} ms, raw ${fmt(cOff)} ms; first byte rendered ${fmt(fOn)} ms, raw ${fmt(fOff)} ms; pty bytes rendered ${on[0].bytes}, raw ${off[0].bytes}\n`,
      )
      rows.push({bench: 'markdown', metric: `${mb} MB text-heavy answer → pty, rendered (wall, median)`, value: wOn.median, unit: 'ms', baseline: wOff.median, baselineName: 'style.markdown = false', ratio: wOn.median / wOff.median, target: '≤ 1.3×', pass: wOn.median / wOff.median <= 1.3})
      if (Number.isFinite(cOn.median))
        rows.push({bench: 'markdown', metric: `${mb} MB: jp CPU time, rendered (median; the wall less the machine's load)`, value: cOn.median, unit: 'ms', baseline: cOff.median, baselineName: 'style.markdown = false', ratio: cOn.median / cOff.median, target: '≤ 1.3×', pass: cOn.median / cOff.median <= 1.3})
      rows.push({bench: 'markdown', metric: `${mb} MB: first rendered byte after the first token (median)`, value: fOn.median, unit: 'ms', baseline: fOff.median, baselineName: 'style.markdown = false', ratio: fOn.median / Math.max(fOff.median, 0.001), target: '≤ 5 ms', pass: fOn.median <= 5})
    } finally {
      await server.close()
      rmSync(dir, {recursive: true, force: true})
    }
  }
  return rows
}

await runIfMain(import.meta.url, run, {exit: true})
