// A real pseudo-terminal for tests: spawns a program in node-pty and renders
// everything it writes into an @xterm/headless terminal, so a test can send
// real key bytes and assert on the rendered screen and the cursor — what the
// user would see — rather than on escape-sequence soup.
//
//   const term = await spawnPty(['--import', 'tsx', fixture('reply.ts')], {cols: 40})
//   await term.waitForText('Reply:')
//   term.send('hello' + keys.enter)
//   const {exitCode} = await term.waitForExit()
//   expect(term.stdoutJson()).to.deep.equal({type: 'submit', text: 'hello'})
//
// The program runs as the session leader of the pty, so `/dev/tty` is the pty.
// Fixtures print their result on stdout; when stdout is the pty too, use
// `sh -c 'node ... > file'` or the `resultFile` env convention (see
// test/fixtures/inquire/README.md) to keep the data apart from the screen.
import {execFileSync} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import type * as XtermHeadless from '@xterm/headless'
import * as nodePty from '@lydell/node-pty'
import {afterEach, beforeEach} from 'mocha'
import {Terminal, UnicodeGraphemesAddon} from './xterm.js'
import {scrubbedEnv} from './cli.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Key bytes as a terminal sends them (xterm defaults unless named otherwise). */
export const keys = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  delete: '\x1b[3~',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  ctrlLeft: '\x1b[1;5D',
  ctrlRight: '\x1b[1;5C',
  altEnter: '\x1b\r',
  /** Shift+Enter under kitty disambiguation (CSI 13;2u). */
  shiftEnterKitty: '\x1b[13;2u',
  /** Ctrl+C as a kitty-protocol terminal reports it once `CSI >1u` is on. */
  ctrlCKitty: '\x1b[99;5u',
  ctrlA: '\x01',
  ctrlB: '\x02',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlE: '\x05',
  ctrlF: '\x06',
  ctrlJ: '\n',
  ctrlK: '\x0b',
  ctrlL: '\x0c',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlX: '\x18',
  ctrlY: '\x19',
  /** Alt+<letter>: ESC prefix. */
  alt: (ch: string) => '\x1b' + ch,
  /** Ctrl+<letter>. */
  ctrl: (ch: string) => String.fromCharCode(ch.toLowerCase().charCodeAt(0) & 0x1f),
} as const

/** Path of a fixture script under test/fixtures/inquire/. */
export function fixture(name: string): string {
  return join(ROOT, 'test', 'fixtures', 'inquire', name)
}

/** argv (after node) to run a TypeScript file through tsx. */
export function tsxArgs(script: string, ...args: string[]): string[] {
  return ['--import', TSX, script, ...args]
}

/** tsx's loader as a URL, so `--import` works whatever the child's cwd. */
export const TSX = import.meta.resolve('tsx')

export interface PtyOptions {
  cols?: number
  rows?: number
  cwd?: string
  /** Merged over a scrubbed copy of process.env (TERM defaults to xterm-256color). */
  env?: NodeJS.ProcessEnv
  /** Program to run; defaults to node (process.execPath). */
  file?: string
}

export interface ExitStatus {
  exitCode: number
  signal?: number
}

export interface PtySession {
  readonly pid: number
  /** The slave side of the pty (e.g. /dev/pts/3). */
  readonly ttyPath: string
  /** The rendering terminal (for anything the helpers do not cover). */
  readonly terminal: XtermHeadless.Terminal
  /** Writes raw bytes to the program, as typed keys. */
  send(data: string): void
  /** Types `text` one key (code point) at a time, waiting for it to be echoed between keys is not needed: the program reads a stream. */
  type(text: string): void
  /** Sends `text` wrapped in bracketed-paste markers. */
  paste(text: string): void
  /** The visible screen, one string per row, right-trimmed. */
  screen(): string[]
  /** The visible screen as one string (rows joined by \n, trailing blank rows dropped). */
  screenText(): string
  /** Cursor position on the visible screen, 0-based. */
  cursor(): {x: number; y: number}
  /** Resolves once the screen contains `pattern` (after the terminal parsed all output). */
  waitForText(pattern: string | RegExp, timeoutMs?: number): Promise<void>
  /** Resolves once `predicate(session)` is true, polling after each output chunk. */
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>
  /** Waits until the output has been quiet for `ms` (the program is waiting for input). */
  settle(ms?: number): Promise<void>
  waitForExit(timeoutMs?: number): Promise<ExitStatus>
  resize(cols: number, rows: number): void
  /** Every byte the program wrote to the pty so far, as a latin1-free UTF-8 string. */
  output(): string
  /** Output written after the last `markOutput()`. */
  outputSinceMark(): string
  markOutput(): void
  /** `stty -a` of the pty, read from outside the program (speed/rows lines excluded). */
  stty(): string
  /** Sends a signal to the program. */
  kill(signal?: NodeJS.Signals): void
  /**
   * Closes the pty's master side, as a terminal window that is closed (or
   * `tmux kill-server`) does: the kernel hangs the terminal up (SIGHUP to
   * the session; reads see EOF, writes and mode changes EIO). The exit is
   * still reported; nothing more is rendered.
   */
  closeMaster(): void
  dispose(): void
}

/** Spawns `args` (node arguments by default) in a fresh pseudo-terminal. */
export async function spawnPty(args: string[], opts: PtyOptions = {}): Promise<PtySession> {
  const cols = opts.cols ?? 80
  const rows = opts.rows ?? 24
  const env = scrubbedEnv()
  env.TERM = 'xterm-256color'
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }

  const terminal = new Terminal({cols, rows, allowProposedApi: true, scrollback: 1000})
  terminal.loadAddon(new UnicodeGraphemesAddon())
  terminal.unicode.activeVersion = '15-graphemes'
  const pty = nodePty.spawn(opts.file ?? process.execPath, args, {
    name: env.TERM,
    cols,
    rows,
    cwd: opts.cwd ?? ROOT,
    env,
  })

  let raw = ''
  let mark = 0
  let pendingWrites = 0
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const l of [...listeners]) l()
  }
  pty.onData((data) => {
    raw += data
    pendingWrites++
    // xterm parses asynchronously; only look at the screen once it has.
    terminal.write(data, () => {
      pendingWrites--
      notify()
    })
  })

  let exit: ExitStatus | undefined
  pty.onExit(({exitCode, signal}) => {
    exit = {exitCode, signal}
    notify()
  })

  const screen = (): string[] => {
    const buf = terminal.buffer.active
    const out: string[] = []
    for (let i = 0; i < terminal.rows; i++) out.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '')
    return out
  }

  const waitFor = (predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (pendingWrites === 0 && predicate()) {
          cleanup()
          resolve()
        }
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${screen().join('\n')}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
      check()
    })

  const session: PtySession = {
    pid: pty.pid,
    ttyPath: (pty as unknown as {ptsName: string}).ptsName,
    terminal,
    send: (data) => pty.write(data),
    type: (text) => {
      for (const ch of text) pty.write(ch)
    },
    paste: (text) => pty.write(`\x1b[200~${text}\x1b[201~`),
    screen,
    screenText: () => {
      const lines = screen()
      while (lines.length > 0 && lines.at(-1) === '') lines.pop()
      return lines.join('\n')
    },
    cursor: () => ({x: terminal.buffer.active.cursorX, y: terminal.buffer.active.cursorY}),
    waitForText: (pattern, timeoutMs) =>
      waitFor(
        () => {
          const text = screen().join('\n')
          return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)
        },
        `screen text ${String(pattern)}`,
        timeoutMs,
      ),
    waitFor,
    settle: (ms = 150) =>
      new Promise((resolve) => {
        let timer = setTimeout(done, ms)
        function done() {
          if (pendingWrites > 0) {
            timer = setTimeout(done, ms)
            return
          }
          listeners.delete(reset)
          resolve()
        }
        function reset() {
          clearTimeout(timer)
          timer = setTimeout(done, ms)
        }
        listeners.add(reset)
      }),
    waitForExit: async (timeoutMs = 10_000) => {
      await waitFor(() => exit !== undefined, 'process exit', timeoutMs)
      return exit!
    },
    resize: (c, r) => {
      pty.resize(c, r)
      terminal.resize(c, r)
    },
    output: () => raw,
    outputSinceMark: () => raw.slice(mark),
    markOutput: () => {
      mark = raw.length
    },
    stty: () => sttyOf(session.ttyPath),
    kill: (signal = 'SIGTERM') => {
      try {
        process.kill(pty.pid, signal)
      } catch {
        // already gone
      }
    },
    closeMaster: () => {
      // node-pty's own destroy() also sends SIGHUP itself; the kernel's hang-up is what a closed window gives.
      ;(pty as unknown as {_socket: {destroy(): void}})._socket.destroy()
    },
    dispose: () => {
      if (exit === undefined) {
        try {
          pty.kill('SIGKILL')
        } catch {
          // already gone
        }
      }
      terminal.dispose()
    },
  }
  return session
}

/**
 * The terminal settings of `ttyPath` as `stty -a` prints them, minus the
 * first line (speed, rows, columns: a resize legitimately changes those).
 * Runs stty in a separate process with the pty as its stdin, so it works
 * while (and after) the program under test owns the terminal.
 */
export function sttyOf(ttyPath: string): string {
  const fd = openSync(ttyPath, 'r')
  try {
    const out = execFileSync('stty', ['-a'], {stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8'})
    return out.split('\n').slice(1).join('\n')
  } finally {
    closeSync(fd)
  }
}

/** A private temp dir for files a test's child writes (results, captured stdout). */
export function tempDir(): {dir: string; file(name: string): string; read(name: string): string; cleanup(): void} {
  const dir = mkdtempSync(join(tmpdir(), 'jp-pty-'))
  return {
    dir,
    file: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    cleanup: () => rmSync(dir, {recursive: true, force: true}),
  }
}

export type TempDir = ReturnType<typeof tempDir>

/**
 * A describe block's per-test pty session and temp dir: `tmp` is fresh before
 * each test; after it the session (set `term` when spawned) is disposed and
 * the dir removed.
 */
export function ptyTestContext(): {tmp: TempDir; term: PtySession | undefined} {
  const ctx = {tmp: undefined as unknown as TempDir, term: undefined as PtySession | undefined}
  beforeEach(() => {
    ctx.tmp = tempDir()
  })
  afterEach(() => {
    ctx.term?.dispose()
    ctx.term = undefined
    ctx.tmp.cleanup()
  })
  return ctx
}

/** Quotes a word for `sh -c` (tests build pipelines like `node x | cat`). */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`
}
