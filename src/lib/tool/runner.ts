// The local tool runner (SPEC §8). A tool is a program: it gets the call's
// arguments as JSON on stdin and in a 0600 file named by
// JP_TOOL_ARGUMENTS_FILE (never in argv or the environment, which the
// kernel caps at 128 KiB a string: arguments of any size work), its name in
// JP_TOOL_NAME, runs in the workspace root with an environment holding no
// secrets (./environment.ts), and its stdout is the result. A non-zero exit
// is an error result carrying stderr and the exit code.
//
// The call ends when the tool's process ends (issue 28): a background child
// that still holds stdout would otherwise keep jp waiting for as long as it
// lives. Once the process has exited, its output is read for a short grace
// period; then whatever is left in its process group is killed and the
// result delivered, saying that the tool left processes behind. A daemon
// that left the group (setsid) is not ours to kill, and is not waited for.
//
// node:child_process rather than execa: we need exactly three things execa
// would wrap — a detached child (its own session and process group, so a
// terminal Ctrl+C reaches jp and not the tool behind jp's back), a kill of
// the whole group on abort (SIGTERM, then SIGKILL after a grace period, so
// grandchildren die too) and a bounded capture of stdout/stderr — and the
// core module costs nothing at start-up.
//
// Commands are never spliced into shell text with the arguments: a string
// command is shlex-split and exec'd directly; `shell = true` runs
// `/bin/sh -c '<program> <quoted args>'` and the arguments still travel only
// through stdin and the environment.
import {spawn} from 'node:child_process'
import {join} from 'node:path'
import {quote} from 'shlex'

import {splitWords, wordsProblem} from '../config/command-words.js'
import type {CommandConfig} from '../config/types.js'
import {signalGroup, trackChildGroup} from '../process/child-groups.js'
import {makePrivateTempDir, type PrivateTempDir} from '../process/temp-dirs.js'
import {toolEnvironment, type ToolEnvPolicy} from './environment.js'

export interface LocalToolRequest {
  /** The tool's configured name (JP_TOOL_NAME). */
  name: string
  /** `command` from the tool config: a string (shlex-split) or a table. */
  command: string | (Pick<CommandConfig, 'program'> & Partial<CommandConfig>)
  /** The call's arguments; sent as JSON. */
  arguments: unknown
  /** The workspace root. */
  cwd: string
  /**
   * Where the tool's environment comes from: `base` (default process.env)
   * filtered by `policy` (`conversation.tools.NAME.env`), with the provider
   * key variables (`providerKeyVars`) dropped unless kept (./environment.ts).
   */
  environment?: {base?: NodeJS.ProcessEnv; policy?: ToolEnvPolicy; providerKeyVars?: readonly string[]}
  /** Aborting kills the tool's whole process group. */
  signal?: AbortSignal
  /** Time between SIGTERM and SIGKILL on abort. Default 2000 ms. */
  killGraceMs?: number
  /** How long output is still read after the tool's process exited, before its group is killed. Default 500 ms. */
  exitGraceMs?: number
  /** Cap per captured stream; the rest is dropped with a marker. Default 10 MiB. */
  maxOutputBytes?: number
}

export interface LocalToolResult {
  /** stdout on success; an error description (with stderr) otherwise. */
  content: string
  isError: boolean
  /** null when the tool could not start or died by a signal. */
  exitCode: number | null
  /** The signal that ended the tool, if one did. */
  signal?: NodeJS.Signals
  /** True when `signal` aborted the run. */
  cancelled?: boolean
  /** True when the tool's process exited but left others behind (killed, or holding its output). */
  leftProcesses?: true
}

/** The program and argv that will be exec'd, after shlex/shell handling. */
export interface ResolvedToolCommand {
  file: string
  args: string[]
  /** The program as the user wrote it, for error messages. */
  display: string
}

/** Turns a tool `command` into an exec'able file + argv. Throws on bad quoting. */
export function resolveToolCommand(command: LocalToolRequest['command'], toolName: string): ResolvedToolCommand {
  if (typeof command === 'string') {
    // The one splitter (config/command-words.ts): the load-time check splits the same way.
    const problem = wordsProblem(command)
    if (problem !== undefined) throw new Error(`conversation.tools.${toolName}.command: ${problem}: ${command}`)
    const words = splitWords(command)!
    if (words.length === 0) throw new Error(`conversation.tools.${toolName}.command is empty`)
    return {file: words[0], args: words.slice(1), display: words[0]}
  }
  const program = command.program ?? ''
  const args = command.args ?? []
  if (program.trim() === '') throw new Error(`conversation.tools.${toolName}.command.program is empty`)
  if (command.shell && process.platform !== 'win32') {
    // The program is shell text by the user's choice; its args are quoted.
    const script = [program, ...args.map((a) => quote(a))].join(' ')
    return {file: '/bin/sh', args: ['-c', script], display: program}
  }
  return {file: program, args, display: program}
}

const DEFAULT_GRACE_MS = 2000
const DEFAULT_EXIT_GRACE_MS = 500
const DEFAULT_MAX_OUTPUT = 10 * 1024 * 1024

/** Told to the model (and shown) after the output, when the tool left processes behind. */
export const LEFT_PROCESSES_KILLED = '[jp: the tool exited but left processes running in its process group; they were killed]'
export const LEFT_PROCESSES_HOLDING = '[jp: the tool exited, but processes it started still hold its output; jp stopped reading it]'

export async function runLocalTool(req: LocalToolRequest): Promise<LocalToolResult> {
  let resolved: ResolvedToolCommand
  try {
    resolved = resolveToolCommand(req.command, req.name)
  } catch (error) {
    return {content: `Tool '${req.name}' could not be run: ${(error as Error).message}`, isError: true, exitCode: null}
  }
  if (req.signal?.aborted) {
    return {content: `Tool '${req.name}' was cancelled before it started.`, isError: true, exitCode: null, cancelled: true}
  }
  const json = JSON.stringify(req.arguments ?? {})
  // The arguments also wait in a private file, for tools that read stdin for
  // something else (or not at all): 0600 in a fresh 0700 directory, removed
  // after — also when jp exits while the tool runs (process/temp-dirs.ts).
  let argsDir: PrivateTempDir | undefined
  try {
    argsDir = await makePrivateTempDir('jp-tool-')
    await argsDir.file('arguments.json', json)
  } catch (error) {
    await argsDir?.remove()
    return {content: `Tool '${req.name}' could not be run: cannot write its arguments: ${(error as Error).message}`, isError: true, exitCode: null}
  }
  try {
    return await spawnTool(req, resolved, json, join(argsDir.path, 'arguments.json'))
  } finally {
    await argsDir.remove()
  }
}

function spawnTool(req: LocalToolRequest, resolved: ResolvedToolCommand, json: string, argsFile: string): Promise<LocalToolResult> {
  const maxBytes = req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT
  const grace = req.killGraceMs ?? DEFAULT_GRACE_MS
  const exitGrace = req.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS
  const base = toolEnvironment(req.environment?.base ?? process.env, req.environment?.policy, req.environment?.providerKeyVars ?? [])

  return new Promise<LocalToolResult>((resolve) => {
    const child = spawn(resolved.file, resolved.args, {
      cwd: req.cwd,
      env: {...base, JP_TOOL_NAME: req.name, JP_TOOL_ARGUMENTS_FILE: argsFile},
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own session + process group: a terminal Ctrl+C is jp's to route.
      detached: process.platform !== 'win32',
      windowsHide: true,
    })
    const stdout = new Capture(maxBytes)
    const stderr = new Capture(maxBytes)
    let cancelled = false
    let spawnError: NodeJS.ErrnoException | undefined
    let killTimer: NodeJS.Timeout | undefined
    let exitTimer: NodeJS.Timeout | undefined
    let exited: {code: number | null; sig: NodeJS.Signals | null} | undefined
    let settled = false
    // If jp exits before the group is reaped (third Ctrl+C, watchdog), the
    // exit hook SIGKILLs it: a tool that ignores SIGTERM never outlives jp.
    const untrack = child.pid === undefined ? () => {} : trackChildGroup(child.pid)

    const killGroup = (sig: NodeJS.Signals): boolean => {
      if (child.pid === undefined) return false
      if (process.platform === 'win32') return child.kill(sig)
      return signalGroup(child.pid, sig)
    }
    const onAbort = () => {
      cancelled = true
      killGroup('SIGTERM')
      // Grandchildren that ignore SIGTERM must not outlive the call.
      killTimer = setTimeout(() => killGroup('SIGKILL'), grace)
      killTimer.unref()
    }
    req.signal?.addEventListener('abort', onAbort, {once: true})

    child.stdout.on('data', (b: Buffer) => stdout.add(b))
    child.stderr.on('data', (b: Buffer) => stderr.add(b))
    // A tool that never reads stdin closes it early: EPIPE is not a failure.
    child.stdin.on('error', () => {})
    child.stdin.end(json)

    /** The call is over: `outputClosed` says whether stdout and stderr reached their end. */
    const settle = (code: number | null, sig: NodeJS.Signals | null, outputClosed: boolean) => {
      if (settled) return
      settled = true
      req.signal?.removeEventListener('abort', onAbort)
      if (killTimer) clearTimeout(killTimer)
      if (exitTimer) clearTimeout(exitTimer)
      // The leader is gone: nothing it left in its group lives on (a kill that
      // finds no process means none was left).
      const killedLeftovers = !spawnError && killGroup('SIGKILL') && !cancelled
      if (!outputClosed) {
        // Held open by processes outside the group (a setsid daemon): stop reading, do not wait.
        child.stdout.destroy()
        child.stderr.destroy()
      }
      untrack()
      const result = buildResult(req.name, resolved, {code, sig, spawnError, cancelled, stdout: stdout.text(), stderr: stderr.text()})
      const notes = [killedLeftovers ? LEFT_PROCESSES_KILLED : '', outputClosed ? '' : LEFT_PROCESSES_HOLDING].filter(Boolean)
      resolve(notes.length === 0 || cancelled ? result : {...result, content: `${result.content}${result.content.endsWith('\n') || result.content === '' ? '' : '\n'}${notes.join('\n')}`, leftProcesses: true})
    }

    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error
    })
    child.on('exit', (code, sig) => {
      exited = {code, sig}
      // Its output is read a little longer: then whatever still holds the pipes is not waited for.
      exitTimer = setTimeout(() => settle(code, sig, false), exitGrace)
    })
    child.on('close', (code, sig) => settle(exited?.code ?? code, exited?.sig ?? sig, true))
  })
}

function buildResult(
  name: string,
  cmd: ResolvedToolCommand,
  r: {
    code: number | null
    sig: NodeJS.Signals | null
    spawnError?: NodeJS.ErrnoException
    cancelled: boolean
    stdout: string
    stderr: string
  },
): LocalToolResult {
  if (r.spawnError) {
    const why =
      r.spawnError.code === 'ENOENT'
        ? `program '${cmd.display}' not found`
        : r.spawnError.code === 'EACCES'
          ? `program '${cmd.display}' is not executable`
          : `failed to start '${cmd.display}': ${r.spawnError.message}`
    return {content: `Tool '${name}' could not be run: ${why}`, isError: true, exitCode: null}
  }
  const sig = r.sig ?? undefined
  if (r.cancelled) {
    return {
      content: withOutput(`Tool '${name}' was cancelled.`, r.stderr),
      isError: true,
      exitCode: r.code,
      signal: sig,
      cancelled: true,
    }
  }
  if (r.code === 0) return {content: r.stdout, isError: false, exitCode: 0}
  const head =
    r.code === null ? `Tool '${name}' was killed by ${sig ?? 'a signal'}.` : `Tool '${name}' failed with exit code ${r.code}.`
  // stderr is where a failing tool explains itself; without it, stdout may.
  return {
    content: withOutput(head, r.stderr.trim() !== '' ? r.stderr : r.stdout),
    isError: true,
    exitCode: r.code,
    signal: sig,
  }
}

function withOutput(head: string, output: string): string {
  return output.trim() === '' ? head : `${head}\n${output}`
}

/** Collects a stream's bytes up to a cap. */
class Capture {
  private chunks: Buffer[] = []
  private size = 0
  private dropped = false
  constructor(private readonly max: number) {}

  add(b: Buffer): void {
    if (this.size >= this.max) {
      this.dropped = true
      return
    }
    const room = this.max - this.size
    if (b.length > room) {
      b = b.subarray(0, room)
      this.dropped = true
    }
    this.chunks.push(b)
    this.size += b.length
  }

  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8')
    return this.dropped ? `${s}\n[output truncated at ${this.max} bytes]` : s
  }
}
