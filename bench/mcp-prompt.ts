// Time to the inline prompt with five MCP servers configured vs none (SPEC
// §19: ≤ 1.05×). `jp query` with no text in a real pseudo-terminal, from
// spawn to the `Query` prompt on the screen; the two configurations timed
// alternately in one run, RUNS times each. Servers start only once a query
// is sent (query/turn-setup.ts), so configuring them must cost the prompt
// nothing but reading five more tables.
//
//   node --import tsx bench/mcp-prompt.ts
import * as nodePty from '@lydell/node-pty'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {runIfMain, stats, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'run.js')
const FIXTURE = join(ROOT, 'test', 'fixtures', 'mcp', 'server.mjs')
const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 15)

function timeToPrompt(dir: string, config: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TERM: 'xterm-256color',
      XDG_CONFIG_HOME: join(dir, 'config'),
      JP_USER_DATA_DIR: join(dir, 'data'),
      JP_DATA_DIR: join(dir, 'oclif'),
    }
    const t0 = performance.now()
    const term = nodePty.spawn(process.execPath, [BIN, 'query', '--cfg', config], {cols: 100, rows: 30, cwd: dir, env})
    let out = ''
    const timer = setTimeout(() => {
      term.kill('SIGKILL')
      reject(new Error(`no prompt within 20 s: ${JSON.stringify(out.slice(-300))}`))
    }, 20_000)
    term.onData((d) => {
      out += d
      if (!out.includes('Query:')) return
      const ms = performance.now() - t0
      clearTimeout(timer)
      term.onExit(() => resolve(ms))
      term.kill('SIGKILL')
    })
  })
}

async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-mcp-'))
  try {
    const none = join(dir, 'none.toml')
    const five = join(dir, 'five.toml')
    writeFileSync(none, '')
    const server = (n: number) => `[mcp.servers.s${n}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}]\n`
    writeFileSync(five, [1, 2, 3, 4, 5].map(server).join(''))
    // Warm the file cache and V8's code cache once each.
    await timeToPrompt(dir, none)
    await timeToPrompt(dir, five)
    const a: number[] = []
    const b: number[] = []
    for (let i = 0; i < RUNS; i++) {
      a.push(await timeToPrompt(dir, none))
      b.push(await timeToPrompt(dir, five))
    }
    const base = stats(a)
    const withServers = stats(b)
    const ratio = withServers.median / base.median
    return [
      {
        bench: 'mcp-prompt',
        metric: 'spawn → inline Query prompt, five MCP servers configured, median',
        value: withServers.median,
        spread: withServers.spread,
        unit: 'ms',
        baseline: base.median,
        baselineSpread: base.spread,
        baselineName: 'no MCP server',
        ratio,
        target: '≤ 1.05×',
        pass: ratio <= 1.05,
      },
    ]
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run, {exit: true})
