// Interrupt latency (SPEC §15): Ctrl+C to the menu drawn while `jp query`
// streams at full rate from a local server into a real pseudo-terminal. One
// jp process, many interrupts: stream → Ctrl+C → time until `Interrupted`
// arrives on the terminal → `c` → stream again. The baseline, measured in the
// same setup just before each Ctrl+C, is the time for a plain key typed while
// the answer streams to be painted (type-to-queue opens `Queue:` with it; the
// tty no longer echoes keys into the answer): the floor that the terminal's
// output queue sets for anything typed. Ctrl+U and Ctrl+C then close that
// prompt with nothing queued. Target: median < 50 ms.
//
// Run: node --import tsx bench/interrupt.ts   (BENCH_INTERRUPT_TRIES, default 20)
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import * as nodePty from '@lydell/node-pty'
import {startSseEndpoint} from './lib/openai-sse-server.js'
import {runIfMain, median, percentile, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const TRIES = Number(process.env.BENCH_INTERRUPT_TRIES ?? 20)
const MENU = 'Interrupted'
/** Typed for the echo baseline; never in the streamed text nor in the `Queue:` prompt's own words. */
const PLAIN_KEY = 'Z'

/** An OpenAI-format stream that never ends on its own: as fast as the client reads, until it hangs up. */
async function startEndlessServer(): Promise<{baseUrl: string; close(): Promise<void>}> {
  const line = (text: string) =>
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`
  const words = ['streaming ', 'at ', 'full ', 'rate ', 'into ', 'the ', 'terminal, ', 'line ', 'after ', 'line.\n']
  const batch = Buffer.from(Array.from({length: 400}, (_, i) => line(words[i % words.length])).join(''))
  return startSseEndpoint((res, open) => {
    const pump = () => {
      while (open() && res.write(batch)) {
        /* keep writing until the socket pushes back */
      }
      if (open()) res.once('drain', pump)
    }
    pump()
  })
}

/** Watches a pty's output for a string or an amount of bytes, from a point in time on. */
class Watcher {
  private tail = ''
  private bytes = 0
  private waiter: {test: (chunk: string) => boolean; resolve: (at: number) => void} | undefined

  constructor(pty: nodePty.IPty) {
    pty.onData((data) => {
      const at = performance.now()
      this.bytes += data.length
      const window = this.tail + data
      this.tail = window.slice(-64)
      if (this.waiter?.test(window)) {
        const w = this.waiter
        this.waiter = undefined
        w.resolve(at)
      }
    })
  }

  /** Resolves with the arrival time of the chunk that contains `text` (looking only at output from now on). */
  text(text: string, timeoutMs = 10_000): Promise<number> {
    this.tail = ''
    return this.wait((window) => window.includes(text), `'${text}'`, timeoutMs)
  }

  /** Resolves once `n` more bytes have arrived. */
  more(n: number, timeoutMs = 10_000): Promise<number> {
    const target = this.bytes + n
    return this.wait(() => this.bytes >= target, `${n} bytes`, timeoutMs)
  }

  private wait(test: (window: string) => boolean, what: string, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; last output: ${JSON.stringify(this.tail)}`)), timeoutMs)
      this.waiter = {
        test,
        resolve: (at) => {
          clearTimeout(timer)
          resolve(at)
        },
      }
    })
  }
}

export async function run(): Promise<BenchRow[]> {
  const server = await startEndlessServer()
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-int-'))
  let pty: nodePty.IPty | undefined
  try {
    const home = join(dir, 'home')
    const work = join(dir, 'work')
    mkdirSync(join(home, '.config', 'jp'), {recursive: true})
    mkdirSync(work)
    // No cooldown: each Ctrl+C here is a fresh interrupt, never an escalation.
    writeFileSync(
      join(home, '.config', 'jp', 'config.toml'),
      `[assistant.model]\nid = "llamacpp/bench"\n[providers.llm.llamacpp]\nbase_url = "${server.baseUrl}"\n[interrupt]\nescalation_cooldown_secs = 0\n`,
    )
    const env: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(JP_|XDG_|OPENAI_|ANTHROPIC_|TMUX)/.test(k)) env[k] = v
    Object.assign(env, {HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), JP_DATA_DIR: join(home, 'oclif'), JP_USER_DATA_DIR: join(home, 'jp'), TERM: 'xterm-256color'})

    pty = nodePty.spawn(process.execPath, [BIN, 'query', '-n', 'go'], {name: 'xterm-256color', cols: 100, rows: 30, cwd: work, env})
    const watch = new Watcher(pty)
    const echo: number[] = []
    const menu: number[] = []
    await watch.more(256 * 1024, 30_000)
    for (let i = 0; i < TRIES; i++) {
      // The stream is flowing again at full rate.
      await watch.more(128 * 1024)
      let t0 = performance.now()
      const echoed = watch.text(PLAIN_KEY)
      pty.write(PLAIN_KEY)
      echo.push((await echoed) - t0)
      // Ctrl+U empties the `Queue:` prompt the key opened, Ctrl+C closes it
      // with nothing queued (no menu: the prompt takes that press).
      pty.write('\x15')
      pty.write('\x03')
      await new Promise((r) => setTimeout(r, 50))
      await watch.more(64 * 1024)
      t0 = performance.now()
      const drawn = watch.text(MENU, Number(process.env.BENCH_MENU_TIMEOUT ?? 10_000))
      pty.write('\x03')
      menu.push((await drawn) - t0)
      if (process.env.BENCH_DEBUG) process.stderr.write(`try ${i}: echo ${echo.at(-1)!.toFixed(1)} ms, menu ${menu.at(-1)!.toFixed(1)} ms\n`)
      // Let the prompt take the terminal before answering it.
      await new Promise((r) => setTimeout(r, 20))
      pty.write('c')
    }

    const m = median(menu)
    const e = median(echo)
    process.stderr.write(`interrupt: menu ms ${menu.map((x) => x.toFixed(1)).join(' ')}\n           echo ms ${echo.map((x) => x.toFixed(1)).join(' ')}\n`)
    return [
      {bench: 'interrupt', metric: 'Ctrl+C → menu drawn, median', value: m, unit: 'ms', baseline: e, baselineName: 'typed key painted (Queue: opens)', ratio: m / e, target: '< 50 ms', pass: m < 50},
      {bench: 'interrupt', metric: 'Ctrl+C → menu drawn, p95', value: percentile(menu, 95), unit: 'ms', baseline: percentile(echo, 95), baselineName: 'typed key painted (Queue: opens)', ratio: percentile(menu, 95) / percentile(echo, 95), target: '(report)', pass: true},
    ]
  } finally {
    try {
      // SIGTERM: jp's graceful shutdown saves the partial turn and exits.
      pty?.kill('SIGTERM')
    } catch {
      // already gone
    }
    await server.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run, {exit: true})
