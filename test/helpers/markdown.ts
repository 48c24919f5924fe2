// Reading runnable command lines out of the docs, and running them with `jp`
// on PATH the way a reader would (bin/run.js under its installed name).
import {spawn} from 'node:child_process'
import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'

import {BIN, type RunResult, type Sandbox} from './cli.js'

/** The fenced code blocks (of `lang`, default sh) in the section under `heading` (up to the next heading of that level or higher). */
export function codeBlocksUnder(markdown: string, heading: string, lang = 'sh'): string[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((l) => l.replace(/^#+ /, '') === heading && /^#+ /.test(l))
  if (start < 0) throw new Error(`no heading "${heading}"`)
  const level = /^#+/.exec(lines[start])![0].length
  const blocks: string[] = []
  // Inside any fence (of any language) a `# ...` line is code, not a heading.
  let fence: {lang: string; lines: string[]} | undefined
  for (const line of lines.slice(start + 1)) {
    if (fence === undefined) {
      const h = /^(#+) /.exec(line)
      if (h && h[1].length <= level) break
      const open = /^```(\S*)\s*$/.exec(line.trim())
      if (open) fence = {lang: open[1], lines: []}
    } else if (line.trim() === '```') {
      if (fence.lang === lang) blocks.push(fence.lines.join('\n'))
      fence = undefined
    } else {
      fence.lines.push(line)
    }
  }
  return blocks
}

/** A directory holding `jp` → bin/run.js, to put first on PATH. */
export function jpBinDir(sandbox: Sandbox): string {
  const dir = join(sandbox.dir, 'bin')
  mkdirSync(dir, {recursive: true})
  try {
    symlinkSync(BIN, join(dir, 'jp'))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  return dir
}

/** Runs `script` with bash -e (each line as written) in `cwd`, `jp` on PATH, the sandbox's environment and TMPDIR. */
export function runScript(
  script: string,
  opts: {sandbox: Sandbox; cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number},
): Promise<RunResult> {
  const {sandbox} = opts
  const tmp = join(sandbox.dir, 'tmp')
  mkdirSync(tmp, {recursive: true})
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: opts.cwd,
      env: {...sandbox.env, TMPDIR: tmp, ...opts.env, PATH: `${jpBinDir(sandbox)}:${opts.env?.PATH ?? sandbox.env.PATH}`},
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // no controlling terminal: jp runs non-interactively
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), opts.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr})
    })
  })
}
