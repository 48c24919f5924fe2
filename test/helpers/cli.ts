// Runs the built CLI (bin/run.js) as a real child process in an isolated
// sandbox: its own HOME, XDG dirs, data dir and workspace, no API keys, no tty.
import {spawn} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const BIN = join(ROOT, 'bin', 'run.js')
/**
 * Env that makes oclif answer `jp --version` and the root help rather than
 * bin/run.js's first answer (src/lib/cli/first.ts steps aside under DEBUG):
 * a namespace nothing logs to, so the output is oclif's own.
 */
/**
 * Fails with one line when dist/ is missing or older than a source file:
 * `npm test` builds once before mocha, and no test rebuilds (a rebuild
 * removes dist/ under the other test files running beside it). Run alone,
 * a test file needs `npm run build` first.
 */
export function assertBuilt(): void {
  const bundle = join(ROOT, 'dist', 'jp.cjs')
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` (npm test does)`)
  const built = statSync(bundle).mtimeMs
  const newer = (dir: string): string | undefined => {
    for (const e of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, e.name)
      const found = e.isDirectory() ? newer(path) : statSync(path).mtimeMs > built ? path : undefined
      if (found !== undefined) return found
    }
    return undefined
  }
  const stale = newer(join(ROOT, 'src'))
  if (stale !== undefined) throw new Error(`dist/ is older than ${stale}: run \`npm run build\` (npm test does)`)
}

export const OCLIF_ANSWERS: NodeJS.ProcessEnv = {DEBUG: 'jp-test-nothing-logs-here'}

export interface Sandbox {
  dir: string
  home: string
  /** A workspace directory (not initialised). */
  cwd: string
  env: NodeJS.ProcessEnv
  cleanup(): void
}

/**
 * Environment variables that would leak the developer's (or CI's) setup into
 * a test: keys, paths, editors, the outer terminal, and what turns colour on
 * (CI=true makes oclif colour a pipe; a test that wants it sets it).
 */
const SCRUB = /^(JP_|XDG_|ANTHROPIC_|OPENAI_|OPENROUTER_|OLLAMA_|EDITOR$|VISUAL$|NO_COLOR$|FORCE_COLOR$|COLORTERM$|CI$|TMUX|KITTY_)/

/** A copy of process.env without what SCRUB names. */
export function scrubbedEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUB.test(k)) env[k] = v
  return env
}

export function makeSandbox(extraEnv: NodeJS.ProcessEnv = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'jp-test-'))
  const home = join(dir, 'home')
  const cwd = join(dir, 'work')
  mkdirSync(home, {recursive: true})
  mkdirSync(cwd, {recursive: true})
  const env: NodeJS.ProcessEnv = scrubbedEnv()
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    JP_DATA_DIR: join(home, '.local', 'share', 'jp-oclif'),
    JP_USER_DATA_DIR: join(home, '.local', 'share', 'jp'),
    TERM: 'xterm-256color',
    ...extraEnv,
  })
  return {dir, home, cwd, env, cleanup: () => rmSync(dir, {recursive: true, force: true})}
}

/**
 * A fresh, independent copy of `template` (a sandbox set up once per file in
 * `before`, e.g. by `jp init`): the same files and modes under a new directory
 * of the same length, with the template's path rewritten wherever jp recorded
 * it (the trusted-workspaces file holds absolute paths) and in the env. A
 * case changes its copy freely; copying costs a few milliseconds, a `jp`
 * spawn ~0.3 s of CPU. What jp keys by a hash of a path does not carry over
 * (the active conversation outside a workspace): use `snapshotSandbox` there.
 */
export function copySandbox(template: Sandbox): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'jp-test-'))
  cpSync(template.dir, dir, {recursive: true, verbatimSymlinks: true})
  const rewrite = (path: string): void => {
    for (const e of readdirSync(path, {withFileTypes: true})) {
      const p = join(path, e.name)
      if (e.isDirectory()) rewrite(p)
      else if (e.isFile() && statSync(p).size < 1_000_000) {
        const text = readFileSync(p, 'utf8')
        if (text.includes(template.dir)) writeFileSync(p, text.split(template.dir).join(dir))
      }
    }
  }
  rewrite(dir)
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(template.env)) env[k] = v?.startsWith(template.dir) ? dir + v.slice(template.dir.length) : v
  const moved = (p: string) => dir + p.slice(template.dir.length)
  return {dir, home: moved(template.home), cwd: moved(template.cwd), env, cleanup: () => rmSync(dir, {recursive: true, force: true})}
}

/**
 * Keeps what `sb` holds now (after a file's one-time set-up) and puts it back,
 * at the same paths, with `reset()` before each case. For set-up that jp keys
 * by a hash of a path (the active conversation outside a workspace, drafts),
 * which a copy under another directory (`copySandbox`) would lose. The cases
 * of a file run one after another, so one directory serves them all.
 */
export function snapshotSandbox(sb: Sandbox): {reset(): void; cleanup(): void} {
  const kept = mkdtempSync(join(tmpdir(), 'jp-test-kept-'))
  cpSync(sb.dir, kept, {recursive: true, verbatimSymlinks: true})
  return {
    reset() {
      rmSync(sb.dir, {recursive: true, force: true})
      cpSync(kept, sb.dir, {recursive: true, verbatimSymlinks: true})
    },
    cleanup() {
      sb.cleanup()
      rmSync(kept, {recursive: true, force: true})
    },
  }
}

/** A sandbox whose workspace `jp init --yes` (or `jp INIT_ARGS`) has initialised and trusted; fails when init does. */
export async function initialisedSandbox(initArgs = ['init', '--yes'], extraEnv: NodeJS.ProcessEnv = {}): Promise<Sandbox> {
  const sb = makeSandbox(extraEnv)
  const r = await runJp(initArgs, {sandbox: sb})
  if (r.code !== 0) {
    sb.cleanup()
    throw new Error(`jp init failed (${r.code}): ${r.stderr}`)
  }
  return sb
}

export interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Runs `jp ARGS` with piped stdio (no terminal). `input` is written to stdin, then stdin is closed. */
export function runJp(
  args: string[],
  opts: {sandbox: Sandbox; input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? opts.sandbox.cwd,
      env: {...opts.sandbox.env, ...opts.env},
      stdio: ['pipe', 'pipe', 'pipe'],
      // A new session has no controlling terminal, so /dev/tty cannot be
      // opened: the run is non-interactive even when the tests are started
      // from a terminal.
      detached: true,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr})
    })
    child.stdin.end(opts.input ?? '')
  })
}
