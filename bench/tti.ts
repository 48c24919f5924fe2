// Time to interactive (issue 40): exec → the prompt shows a key typed at
// exec, on a real pty (bench/lib/pty-ready.ts), for `jp query` (the inline
// `Query:` prompt), Codex CLI (its composer) and Claude Code when they
// install (bench/lib/references.ts: npm, into bench/.references), and
// `node -e 0` (exec → exit). Runs interleave, the order rotating each round;
// medians; ratios from the same run. Target: jp ≤ 1.0× Codex.
//
// Each reference starts as a user's second run does: Codex signed in with an
// API key (no request is made) and the work directory trusted, its
// app-server daemon (which Codex starts on first use and keeps) already up;
// jp with a config and no draft. The daemon is stopped at the end.
//
// Run: node --import tsx bench/tti.ts   (BENCH_TTI_RUNS)
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {benchHome} from './lib/jp-run.js'
import {timeToReady, type ReadyOptions} from './lib/pty-ready.js'
import {REFERENCES, launcher, reference} from './lib/references.js'
import {runIfMain, stats, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_TTI_RUNS ?? 15)

interface Contender {
  name: string
  opts: ReadyOptions
  /** The warm-up's limit (Codex's first run copies its daemon: minutes on a slow disk). */
  firstRunMs?: number
  /** Before each run (untimed): put the state back (jp's typed draft). */
  reset?: () => void
}

/** Removes jp's typed drafts under `dir`, so the next run opens an empty prompt. */
function removeDrafts(dir: string): void {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, {recursive: true, withFileTypes: true})) {
    if (entry.isFile() && entry.name === 'INLINE_QUERY.txt') rmSync(join(entry.parentPath, entry.name))
  }
}

function jpContender(dir: string, name = 'jp query', root = ROOT, extra: NodeJS.ProcessEnv = {}): Contender {
  mkdirSync(dir, {recursive: true})
  const {env, work} = benchHome(dir, 'http://127.0.0.1:9/v1')
  return {name, opts: {file: process.execPath, args: [join(root, 'bin/run.js'), 'query'], cwd: work, env: {...env, TERM: 'xterm-256color', ...extra}}, reset: () => removeDrafts(env.JP_USER_DATA_DIR!)}
}

/**
 * BENCH_TTI_VARIANTS: other builds of jp, or jp with other settings, timed in
 * the same loop (a mechanism with and without it): a JSON object of
 * name → {"root": a built checkout, "env": {…}}; each adds a row against jp.
 */
function variants(dir: string): Contender[] {
  const spec = JSON.parse(process.env.BENCH_TTI_VARIANTS ?? '{}') as Record<string, {root?: string; env?: NodeJS.ProcessEnv}>
  return Object.entries(spec).map(([name, v], i) => jpContender(join(dir, `variant-${i}`), name, v.root ?? ROOT, v.env ?? {}))
}

/** Codex signed in with an API key and `work` trusted; its home under bench/.references (Codex refuses one under /tmp). */
function codexContender(bin: string, work: string): Contender {
  const home = join(REFERENCES, 'codex-home')
  const codexHome = join(home, '.codex')
  mkdirSync(codexHome, {recursive: true})
  writeFileSync(join(codexHome, 'auth.json'), JSON.stringify({auth_mode: 'apikey', OPENAI_API_KEY: 'sk-bench-not-a-key'}), {mode: 0o600})
  writeFileSync(join(codexHome, 'config.toml'), `[tui]\nscreen_reader_detection_done = true\n\n[projects.${JSON.stringify(work)}]\ntrust_level = "trusted"\n`)
  const env = {PATH: process.env.PATH, TERM: 'xterm-256color', HOME: home, CODEX_HOME: codexHome, LANG: process.env.LANG ?? 'C.UTF-8'}
  return {name: 'Codex CLI', opts: {...launcher(bin), cwd: work, env}, firstRunMs: 180_000}
}

function claudeContender(bin: string, work: string, dir: string): Contender {
  const home = join(dir, 'claude-home')
  mkdirSync(home)
  // Onboarding done, the key approved and the directory trusted, as on a user's second run.
  const key = 'sk-ant-bench-not-a-key'
  writeFileSync(join(home, '.claude.json'), JSON.stringify({hasCompletedOnboarding: true, customApiKeyResponses: {approved: [key.slice(-20)], rejected: []}, projects: {[work]: {hasTrustDialogAccepted: true}}}))
  const env = {PATH: process.env.PATH, TERM: 'xterm-256color', HOME: home, ANTHROPIC_API_KEY: key, DISABLE_AUTOUPDATER: '1', LANG: process.env.LANG ?? 'C.UTF-8'}
  return {name: 'Claude Code', opts: {...launcher(bin), cwd: work, env}}
}

/** Warm-up: one run each (Codex's first run installs and starts its daemon); a contender that cannot show a prompt is dropped with a note. */
async function warm(contenders: Contender[]): Promise<Contender[]> {
  const ok: Contender[] = []
  for (const c of contenders) {
    try {
      c.reset?.()
      await timeToReady({...c.opts, timeoutMs: c.firstRunMs ?? 20_000})
      ok.push(c)
    } catch (error) {
      process.stderr.write(`tti: ${c.name} dropped: ${(error as Error).message.split('\n').slice(0, 6).join('\n')}\n`)
    }
  }
  return ok
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-tti-'))
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'jp-bench-tti-work-')))
  const codexBin = reference('codex')
  const claudeBin = process.env.BENCH_TTI_CLAUDE === '0' ? undefined : reference('claude')
  try {
    const wanted = [jpContender(join(dir, 'jp'))]
    if (codexBin) wanted.push(codexContender(codexBin, work))
    if (claudeBin) wanted.push(claudeContender(claudeBin, work, dir))
    wanted.push(...variants(dir))
    wanted.push({name: 'node -e 0', opts: {file: process.execPath, args: ['-e', '0'], cwd: work, env: {PATH: process.env.PATH}, exitOnly: true}})
    const contenders = await warm(wanted)
    const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
    const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]))
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(i + k) % contenders.length]
        c.reset?.()
        const r = await timeToReady(c.opts)
        times.get(c.name)!.push(r.readyMs)
        cpu.get(c.name)!.push(r.cpuMs)
      }
    }
    if (!times.has('jp query')) throw new Error('tti: jp showed no prompt')
    const jp = stats(times.get('jp query')!)
    const row = (name: string, target: string, limit?: number): BenchRow => {
      const b = stats(times.get(name)!)
      const ratio = jp.median / b.median
      return {bench: 'tti', metric: 'jp query: exec → the Query: prompt shows a key typed at exec (pty)', value: jp.median, spread: jp.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName: name, ratio, target, pass: limit === undefined || ratio <= limit}
    }
    const cpuRowOf = (name: string): BenchRow => {
      const [j, b] = [stats(cpu.get('jp query')!), stats(cpu.get(name)!)]
      return {bench: 'tti', metric: 'jp query: CPU time of the process until the key shows', value: j.median, spread: j.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName: name, ratio: j.median / b.median, target: '(report)', pass: true}
    }
    const rows: BenchRow[] = []
    if (times.has('Codex CLI')) rows.push(row('Codex CLI', '≤ 1.0×', 1.0), cpuRowOf('Codex CLI'))
    else process.stderr.write('tti: no Codex CLI row (not installed or no prompt)\n')
    if (times.has('Claude Code')) rows.push(row('Claude Code', '(report)'))
    if (times.has('node -e 0')) rows.push(row('node -e 0', '(report)'))
    for (const name of Object.keys(JSON.parse(process.env.BENCH_TTI_VARIANTS ?? '{}'))) if (times.has(name)) rows.push(row(name, '(report)'), cpuRowOf(name))
    return rows
  } finally {
    if (codexBin) spawnSync(process.execPath, [codexBin, 'app-server', 'daemon', 'stop'], {env: {PATH: process.env.PATH, HOME: join(REFERENCES, 'codex-home'), CODEX_HOME: join(REFERENCES, 'codex-home', '.codex')}, stdio: 'ignore', timeout: 10_000})
    rmSync(dir, {recursive: true, force: true})
    rmSync(work, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run, {exit: true})
