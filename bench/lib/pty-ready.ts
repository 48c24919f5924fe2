// Time to interactive on a real pty: from exec to the moment a key typed at
// exec shows in the program's prompt. The program runs under
// `sh -c 'stty -echo; …; exec PROG'` so the terminal's own echo cannot show
// the key before the program does (every program pays the same sh and stty);
// the key is sent as soon as the shell says echo is off, so it waits in the
// terminal's input queue until the program reads it: a program that takes
// keys typed ahead shows it with its first prompt, one that drops them would
// never show it (a failed run, not a fast one). The screen is an
// @xterm/headless terminal that answers the program's queries (cursor
// position, device attributes, colours), as a terminal emulator does:
// Codex's TUI waits for those answers.
import * as nodePty from '@lydell/node-pty'
import type * as XtermHeadless from '@xterm/headless'
import {createRequire} from 'node:module'
import {readdirSync, readFileSync} from 'node:fs'

const require = createRequire(import.meta.url)
const {Terminal} = require('@xterm/headless') as typeof XtermHeadless

/** Printed by the wrapper once echo is off (an empty window title: nothing on screen). */
const ECHO_OFF = '\x1b]0;\x07'
/** Typed at exec; three keys no prompt shows by itself. */
export const PROBE = 'zqj'

export interface ReadyRun {
  /** exec → PROBE on the screen (ms); for a program that reads no key, exec → exit. */
  readyMs: number
  /** What the screen showed then (for a failed run's message). */
  screen: string
  /**
   * CPU time the program's process had used by then (all its threads, from
   * /proc/PID/task/*\/schedstat; the shell before the exec included): steadier
   * than the wall on a loaded machine. NaN where /proc has no schedstat.
   * Work done in other processes (Codex's daemon) is not in it.
   */
  cpuMs: number
}

/** Nanoseconds on a CPU of every thread of `pid`, in ms. */
export function processCpuMs(pid: number): number {
  try {
    let ns = 0
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    return ns / 1e6
  } catch {
    return Number.NaN
  }
}

export interface ReadyOptions {
  file: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** No key is read: the run ends at the program's exit (`node -e 0`). */
  exitOnly?: boolean
  timeoutMs?: number
}

/** Answers OSC 10/11 colour queries, which xterm.js leaves unanswered. */
function colourReplies(data: string): string {
  let out = ''
  if (data.includes('\x1b]10;?')) out += '\x1b]10;rgb:cccc/cccc/cccc\x1b\\'
  if (data.includes('\x1b]11;?')) out += '\x1b]11;rgb:0000/0000/0000\x1b\\'
  return out
}

/** One run: exec, type PROBE, wait for it on screen; then Ctrl+C twice and kill. */
export function timeToReady(opts: ReadyOptions): Promise<ReadyRun> {
  const cols = 100
  const rows = 30
  const terminal = new Terminal({cols, rows, allowProposedApi: true})
  const wrapper = `stty -echo; printf '${ECHO_OFF.replace('\x1b', '\\033').replace('\x07', '\\007')}'; exec "$@"`
  const t0 = process.hrtime.bigint()
  const pty = nodePty.spawn('/bin/sh', ['-c', wrapper, 'sh', opts.file, ...opts.args], {name: 'xterm-256color', cols, rows, cwd: opts.cwd, env: opts.env})
  const elapsed = () => Number(process.hrtime.bigint() - t0) / 1e6
  const screenText = () => {
    const buf = terminal.buffer.active
    const lines: string[] = []
    for (let i = 0; i < rows; i++) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '')
    return lines.join('\n')
  }
  return new Promise((resolve, reject) => {
    let sent = false
    let done = false
    let raw = ''
    const finish = (error: Error | undefined, run?: ReadyRun) => {
      if (done) return
      done = true
      clearTimeout(timer)
      try {
        pty.write('\x03\x03')
      } catch {
        // already gone
      }
      setTimeout(() => {
        try {
          pty.kill('SIGKILL')
        } catch {
          // already gone
        }
        terminal.dispose()
        if (error) reject(error)
        else resolve(run!)
      }, 100)
    }
    const timer = setTimeout(() => finish(new Error(`${opts.file} ${opts.args.join(' ')}: no prompt took a key within ${opts.timeoutMs ?? 10_000} ms; screen:\n${screenText()}`)), opts.timeoutMs ?? 10_000)
    terminal.onData((reply) => pty.write(reply))
    pty.onData((data) => {
      raw += data
      if (!sent && raw.includes(ECHO_OFF)) {
        sent = true
        if (!opts.exitOnly) pty.write(PROBE)
      }
      const replies = colourReplies(data)
      if (replies) pty.write(replies)
      // The screen is read once xterm has parsed this chunk (it parses asynchronously).
      const at = elapsed()
      terminal.write(data, () => {
        if (!opts.exitOnly && screenText().includes(PROBE)) finish(undefined, {readyMs: at, screen: screenText(), cpuMs: processCpuMs(pty.pid)})
      })
    })
    pty.onExit(({exitCode}) => {
      if (opts.exitOnly) finish(exitCode === 0 ? undefined : new Error(`${opts.file} exited ${exitCode}`), {readyMs: elapsed(), screen: '', cpuMs: Number.NaN})
      else finish(new Error(`${opts.file} ${opts.args.join(' ')} exited (${exitCode}) before a key showed; screen:\n${screenText()}`))
    })
  })
}
