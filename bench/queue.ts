// Type to queue under load (issue 22): `jp query` in a real pseudo-terminal
// streaming from a local server while the `Queue:` prompt is open at the
// bottom, the answer printing above it.
//
// 1. The stream's wall time with the prompt open against the same stream
//    with no prompt, same run, alternating which goes first: from the moment
//    the server starts sending until the answer's last word is on the
//    terminal. Target: ≤ 1.2×.
// 2. A key typed into the open prompt while 1,000 tokens/s stream above it:
//    the time until the terminal receives the repaint holding it, against
//    the same prompt with nothing streaming. Target: median < 20 ms.
//
// Run: node --import tsx bench/queue.ts   (BENCH_QUEUE_RUNS default 5, BENCH_QUEUE_KEYS default 30)
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import * as nodePty from '@lydell/node-pty'
import {benchHome} from './lib/jp-run.js'
import {startSseEndpoint} from './lib/openai-sse-server.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_QUEUE_RUNS ?? 5)
const KEYS = Number(process.env.BENCH_QUEUE_KEYS ?? 30)
/** The answer's last word: never elsewhere in the stream or on the prompt. */
const END = 'zzqueueend'
/** Typed into the prompt: none of them occurs in the stream (lowercase words) or in the prompt's own text (escape sequences are stripped before matching). */
const TYPED = 'XYZKMPVBJN'
// CSI, OSC and two-byte escapes: their parameters and final bytes are not text.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[^[\]]/g
/** The prompt drawn (bold label: escapes between) with the key that opened it. */
const QUEUE_X = /Queue:[^]*x/

const chunk = (text: string) =>
  `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`
const DONE = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`
const WORDS = ['streaming ', 'an ', 'answer ', 'above ', 'the ', 'open ', 'prompt, ', 'word ', 'by ', 'word']

/** One token of the stream: a word, a paragraph break every 40. */
function token(i: number): string {
  return i % 40 === 39 ? `${WORDS[i % WORDS.length]}.\n\n` : WORDS[i % WORDS.length] + (i % 10 === 9 ? ' ' : '')
}

type Mode = {kind: 'burst'; tokens: number} | {kind: 'paced'; perSecond: number} | {kind: 'idle'}

/** The local provider: each request waits for `release()`, then streams as the current mode says. */
async function startServer(): Promise<{baseUrl: string; mode: Mode; requested: () => Promise<void>; release(): number; close(): Promise<void>}> {
  let onRequest: (() => void) | undefined
  let go: (() => void) | undefined
  const state = {mode: {kind: 'idle'} as Mode}
  const {baseUrl, close} = await startSseEndpoint((res, open) => {
    const started = new Promise<void>((resolve) => (go = resolve))
    onRequest?.()
    void started.then(() => {
      const mode = state.mode
      if (mode.kind === 'burst') {
        // As fast as the client reads, in events of one token.
        let i = 0
        const pump = () => {
          while (open() && i < mode.tokens) {
            const ok = res.write(chunk(token(i++)))
            if (!ok) return void res.once('drain', pump)
          }
          if (open()) res.end(chunk(` ${END}\n`) + DONE)
        }
        pump()
      } else if (mode.kind === 'paced') {
        // `perSecond` tokens a second, ten a tick, until the client hangs up.
        let i = 0
        const timer = setInterval(() => {
          if (!open()) return clearInterval(timer)
          let batch = ''
          for (let k = 0; k < mode.perSecond / 100; k++) batch += chunk(token(i++))
          res.write(batch)
        }, 10)
        res.on('close', () => clearInterval(timer))
      } else {
        // One word, then nothing (the connection stays open).
        res.write(chunk('waiting here.\n\n'))
      }
    })
  })
  return {
    baseUrl,
    get mode() {
      return state.mode
    },
    set mode(m: Mode) {
      state.mode = m
    },
    requested: () => new Promise<void>((resolve) => (onRequest = resolve)),
    release() {
      const at = performance.now()
      go?.()
      return at
    },
    close,
  }
}

/** A pty's output, searched from a point in time on. */
class Screen {
  private window = ''
  private waiter: {test: (w: string) => boolean; resolve: (at: number) => void} | undefined
  constructor(pty: nodePty.IPty) {
    pty.onData((data) => {
      const at = performance.now()
      this.window = (this.window + data).slice(-4096)
      if (this.waiter?.test(this.window.replace(ESCAPES, ''))) {
        const w = this.waiter
        this.waiter = undefined
        w.resolve(at)
      }
    })
  }
  /** Resolves with the arrival time of the output that first holds `text`, counting output from now on. */
  next(text: string | RegExp, timeoutMs = 30_000): Promise<number> {
    this.window = ''
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${JSON.stringify(text)}; output: ${JSON.stringify(this.window.slice(-300))}`)), timeoutMs)
      this.waiter = {
        test: (w) => (typeof text === 'string' ? w.includes(text) : text.test(w)),
        resolve: (at) => {
          clearTimeout(timer)
          resolve(at)
        },
      }
    })
  }
}

function spawnJp(baseUrl: string, dir: string): {pty: nodePty.IPty; screen: Screen; exited: Promise<void>} {
  const {env, work} = benchHome(dir, baseUrl)
  const pty = nodePty.spawn(process.execPath, [BIN, 'query', '-n', 'go'], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: work,
    env: {...(env as Record<string, string>), TERM: 'xterm-256color'},
  })
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()))
  return {pty, screen: new Screen(pty), exited}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One streamed answer of `tokens` tokens; `withPrompt`: the Queue: prompt opened (by typing) before the stream starts. Returns ms. */
async function streamOnce(server: Awaited<ReturnType<typeof startServer>>, tokens: number, withPrompt: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-queue-'))
  server.mode = {kind: 'burst', tokens}
  const requested = server.requested()
  const {pty, screen, exited} = spawnJp(server.baseUrl, dir)
  try {
    await requested
    // Both runs give jp the same moment to settle before the stream starts.
    await sleep(200)
    if (withPrompt) {
      const drawn = screen.next(QUEUE_X)
      pty.write('x')
      await drawn
    }
    const end = screen.next(END)
    const t0 = server.release()
    const t1 = await end
    // Close the prompt (nothing queued) and let the run end.
    if (withPrompt) pty.write('\x03')
    await Promise.race([exited, sleep(10_000)])
    return t1 - t0
  } finally {
    try {
      pty.kill('SIGKILL')
    } catch {
      // gone
    }
    rmSync(dir, {recursive: true, force: true})
  }
}

/** Keys typed into the open prompt, one at a time, each timed until its repaint arrives. */
async function keysOnce(server: Awaited<ReturnType<typeof startServer>>, mode: Mode): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-queue-'))
  server.mode = mode
  const requested = server.requested()
  const {pty, screen} = spawnJp(server.baseUrl, dir)
  const times: number[] = []
  try {
    await requested
    server.release()
    await screen.next(mode.kind === 'idle' ? 'waiting' : 'streaming', 30_000)
    const drawn = screen.next(QUEUE_X)
    pty.write('x')
    await drawn
    for (let i = 0; i < KEYS; i++) {
      const key = TYPED[i % TYPED.length]
      if (i > 0 && i % TYPED.length === 0) {
        // Ctrl+U empties the line; its repaint holds none of the keys.
        pty.write('\x15')
        await sleep(50)
      }
      const painted = screen.next(key)
      const t0 = performance.now()
      pty.write(key)
      times.push((await painted) - t0)
      await sleep(15)
    }
    return times
  } finally {
    try {
      pty.kill('SIGKILL')
    } catch {
      // gone
    }
    rmSync(dir, {recursive: true, force: true})
  }
}

const spread = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)]

export async function run(): Promise<BenchRow[]> {
  const server = await startServer()
  try {
    const tokens = Number(process.env.BENCH_QUEUE_TOKENS ?? 20_000)
    const bare: number[] = []
    const open: number[] = []
    // One warm-up each, then alternate which goes first.
    await streamOnce(server, tokens, false)
    await streamOnce(server, tokens, true)
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        bare.push(await streamOnce(server, tokens, false))
        open.push(await streamOnce(server, tokens, true))
      } else {
        open.push(await streamOnce(server, tokens, true))
        bare.push(await streamOnce(server, tokens, false))
      }
    }
    const idle = await keysOnce(server, {kind: 'idle'})
    const loaded = await keysOnce(server, {kind: 'paced', perSecond: 1000})
    process.stderr.write(
      `queue: stream ms, no prompt ${bare.map((x) => x.toFixed(0)).join(' ')}; Queue: open ${open.map((x) => x.toFixed(0)).join(' ')}\n` +
        `       key ms, idle ${idle.map((x) => x.toFixed(1)).join(' ')}\n       key ms, 1,000 tokens/s ${loaded.map((x) => x.toFixed(1)).join(' ')}\n`,
    )
    const so = median(open)
    const sb = median(bare)
    const ko = median(loaded)
    const ki = median(idle)
    return [
      {
        bench: 'queue',
        metric: `${tokens.toLocaleString('en')} tokens streamed with Queue: open, wall`,
        value: so,
        spread: spread(open),
        unit: 'ms',
        baseline: sb,
        baselineSpread: spread(bare),
        baselineName: 'same stream, no prompt',
        ratio: so / sb,
        target: '≤ 1.2×',
        pass: so / sb <= 1.2,
      },
      {
        bench: 'queue',
        metric: 'key typed in Queue: → painted, 1,000 tokens/s above, median',
        value: ko,
        spread: spread(loaded),
        unit: 'ms',
        baseline: ki,
        baselineSpread: spread(idle),
        baselineName: 'same prompt, nothing streaming',
        ratio: ko / ki,
        target: '< 20 ms',
        pass: ko < 20,
      },
    ]
  } finally {
    await server.close()
  }
}

await runIfMain(import.meta.url, run, {exit: true})
