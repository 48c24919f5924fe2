// The terminal is always restored (SPEC §1.7). Whoever changes terminal state
// (raw mode, kitty keyboard flags, bracketed paste, a hidden cursor, a cursor
// shape) registers the matching restore action and unregisters it after its
// own cleanup. Whatever is still registered when the process leaves — normal
// exit, process.exit(130) on escalation, a graceful SIGTERM/SIGHUP shutdown
// (the signal router exits through process.exit), an uncaught exception or
// unhandled rejection — is run exactly once.
//
// The registry lives on globalThis: oclif can load this module twice (src via
// tsx and dist), and both copies must share one set of actions. Restore
// sequences go to /dev/tty only, never to stdout/stderr, and only when some
// action registered a sequence (i.e. a prompt had the terminal).
import {spawnSync} from 'node:child_process'

import {closeTtyFd, openTtyFd, withTtyFd, writeTtySync} from '../process/tty.js'
import {openPrompt} from './terminal-owner.js'

/**
 * The escape sequences jp writes to the terminal outside the painter's frame
 * diffing: the modes a prompt turns on and off, the status line's erase, the
 * vi/emacs Ctrl+L clear. The one place they are spelled.
 */
export const TERMINAL_SEQUENCES = {
  bracketedPasteOn: '\u001b[?2004h',
  bracketedPasteOff: '\u001b[?2004l',
  /** Kitty keyboard protocol: push "disambiguate escape codes" / pop. */
  kittyOn: '\u001b[>1u',
  kittyOff: '\u001b[<u',
  cursorShow: '\u001b[?25h',
  cursorHide: '\u001b[?25l',
  /** DECSCUSR: 0 = the terminal's default shape, 2 = steady block, 6 = steady bar. */
  cursorDefault: '\u001b[0 q',
  cursorBlock: '\u001b[2 q',
  cursorBar: '\u001b[6 q',
  /** Home and erase the screen (Ctrl+L). */
  clearScreen: '\u001b[H\u001b[2J',
  /** Back to column 0 and erase the line (the status line). */
  eraseLine: '\r\u001b[2K',
} as const

/** Escape sequences that undo what prompts turn on. */
export const RESTORE_SEQUENCES = {
  /** Pop the kitty keyboard flags pushed with `CSI >1u`. */
  kittyPop: TERMINAL_SEQUENCES.kittyOff,
  bracketedPasteOff: TERMINAL_SEQUENCES.bracketedPasteOff,
  cursorVisible: TERMINAL_SEQUENCES.cursorShow,
  /** DECSCUSR 0: the user's default cursor shape. */
  cursorShapeReset: TERMINAL_SEQUENCES.cursorDefault,
} as const

export interface RestoreAction {
  /** For diagnostics and tests. */
  name: string
  /** Written to /dev/tty on restore. */
  sequence?: string
  /** Run on restore (e.g. `() => input.setRawMode(false)`); errors are ignored. */
  run?: () => void
}

interface Registry {
  next: number
  actions: Map<number, RestoreAction>
  /** Prompts holding the terminal in raw mode: how to put it back. */
  rawHolders: Set<() => void>
  /** Pending late-teardown checks after an editor. */
  lateChecks: NodeJS.Timeout[]
  /** Told when a prompt or a child borrows the terminal and when it is given back. */
  borrowListeners: Set<BorrowListener>
  hooksInstalled: boolean
  /** Opens the terminal for restore writes; replaceable in tests. */
  openTty: () => number | undefined
}

const KEY = Symbol.for('jp.terminalState')

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>
  const r = (g[KEY] ??= {next: 0, actions: new Map(), hooksInstalled: false, openTty: () => openTtyFd('w')} as Registry)
  // A copy of this module from before these fields existed may have made it.
  r.rawHolders ??= new Set()
  r.lateChecks ??= []
  r.borrowListeners ??= new Set()
  return r
}

/**
 * Registers a restore action; returns the function that unregisters it
 * (call it once your own cleanup has undone the change).
 */
export function registerRestore(action: RestoreAction): () => void {
  const r = registry()
  const id = r.next++
  r.actions.set(id, action)
  return () => {
    r.actions.delete(id)
  }
}

/** Names of the actions currently registered, oldest first. */
export function pendingRestores(): string[] {
  return [...registry().actions.values()].map((a) => a.name)
}

/**
 * Runs every registered action once, newest first (undoing in reverse order
 * of the changes), and clears them. Synchronous, so it is safe in an 'exit'
 * listener. Returns the names of the actions run.
 */
export function restoreTerminal(): string[] {
  const r = registry()
  const actions = [...r.actions.values()].reverse()
  r.actions.clear()
  if (actions.length === 0) return []
  for (const a of actions) {
    try {
      a.run?.()
    } catch {
      // Restoring is best effort: one failure must not stop the others.
    }
  }
  const seq = actions.map((a) => a.sequence ?? '').join('')
  if (seq !== '') {
    const fd = r.openTty()
    if (fd !== undefined) {
      writeTtySync(fd, seq)
      closeTtyFd(fd)
    }
  }
  return actions.map((a) => a.name)
}

/**
 * Installs the process hooks (once per process, whatever the module copy):
 * 'exit' covers normal exit and every process.exit call; the uncaught
 * exception monitor restores before Node prints the error, so the stack
 * trace lands on a sane terminal.
 */
export function installTerminalRestoreHooks(): void {
  const r = registry()
  if (r.hooksInstalled) return
  r.hooksInstalled = true
  process.on('exit', () => {
    restoreTerminal()
  })
  process.on('uncaughtExceptionMonitor', () => {
    restoreTerminal()
  })
}

/** Test seam: where restore sequences are written. Returns the previous opener. */
export function setRestoreTtyOpener(open: () => number | undefined): () => number | undefined {
  const r = registry()
  const prev = r.openTty
  r.openTty = open
  return prev
}

// ---------------------------------------------------------------------------
// Taking the terminal back after a child had it (SPEC §17: the terminal is
// jp's again after every editor, however the editor ended).
//
// Node cannot read or set termios itself, so the settings are saved and
// re-applied with `stty -g` / `stty <saved>` on the controlling terminal
// (a few milliseconds each, once per editor round trip). Everything here is
// best effort: without stty or a terminal, it does nothing.

/**
 * Modes a full-screen program may turn on and, killed or torn down late,
 * leave on. Written after every editor, whether or not it used them: each
 * is harmless when already off. Leaving the alternate screen first also
 * restores the cursor saved by SAVE_CURSOR (or by the editor's own entry).
 */
export const EDITOR_RESIDUE_OFF =
  '\u001b[?1049l' + // main screen (restores the saved cursor)
  '\u001b[?1004l' + // focus reporting
  '\u001b[>4m' + // modifyOtherKeys back to the terminal's default
  '\u001b[?1l\u001b>' + // cursor keys and keypad: normal mode
  '\u001b[?1000l\u001b[?1002l\u001b[?1003l\u001b[?1006l' + // mouse reporting
  TERMINAL_SEQUENCES.bracketedPasteOff + // (a prompt turns it on again itself)
  TERMINAL_SEQUENCES.cursorShow

/** DECSC / DECRC: where a prompt redraws after an editor. */
export const SAVE_CURSOR = '\u001b7'
export const RESTORE_CURSOR = '\u001b8'
/** Erase from the cursor to the end of the screen. */
export const ERASE_BELOW = '\u001b[J'

/** The terminal's settings as `stty -g` prints them, or undefined (no stty, no terminal). */
export function saveTerminalModes(fd: number): string | undefined {
  const r = spawnSync('stty', ['-g'], {stdio: [fd, 'pipe', 'ignore'], encoding: 'utf8', timeout: 2000})
  const out = typeof r.stdout === 'string' ? r.stdout.trim() : ''
  return r.status === 0 && out !== '' ? out : undefined
}

/** Re-applies settings saved by saveTerminalModes (or applies stty words: `['intr', 'undef']`). */
export function applyTerminalModes(fd: number, modes: string | string[]): boolean {
  const r = spawnSync('stty', typeof modes === 'string' ? [modes] : modes, {stdio: [fd, 'ignore', 'ignore'], timeout: 2000})
  return r.status === 0
}

/**
 * Whether saved settings have canonical (line) input on: the state a cooked
 * terminal is in, which an open prompt (raw) must never be left in. Reads
 * both the GNU (`iflag:oflag:cflag:lflag:...`, ICANON 0x2) and the BSD
 * (`gfmt1:...:lflag=HEX:...`, ICANON 0x100) forms.
 */
export function isCanonical(modes: string): boolean | undefined {
  if (modes.startsWith('gfmt1')) {
    const m = /(?:^|:)lflag=([0-9a-f]+)/i.exec(modes)
    return m ? (Number.parseInt(m[1], 16) & 0x100) !== 0 : undefined
  }
  const fields = modes.split(':')
  if (fields.length < 4) return undefined
  const lflag = Number.parseInt(fields[3], 16)
  return Number.isNaN(lflag) ? undefined : (lflag & 0x2) !== 0
}

/** Writes bytes to the terminal fd, ignoring a terminal that is gone. */
export function writeTerminal(fd: number, data: string): void {
  writeTtySync(fd, data)
}

/**
 * A prompt put the terminal in raw mode and expects it to stay so; `reapply`
 * puts raw mode (and the prompt's modes) back. Returns the release function.
 */
export function holdRawMode(reapply: () => void): () => void {
  const r = registry()
  r.rawHolders.add(reapply)
  notifyBorrow('prompt', 'borrowed')
  return () => {
    if (r.rawHolders.delete(reapply)) notifyBorrow('prompt', 'returned')
  }
}

/**
 * Who borrows the terminal: a prompt (reads keys in raw mode in this
 * process; terminal settings stay as they are) or a child (an editor: it
 * gets the terminal as the user's shell left it).
 */
export type Borrower = 'prompt' | 'child'

export interface BorrowListener {
  borrowed(by: Borrower): void
  returned(by: Borrower): void
}

/** Listens for borrows (the Ctrl+C key reader steps aside); returns the unsubscribe function. */
export function onTerminalBorrow(listener: BorrowListener): () => void {
  const r = registry()
  r.borrowListeners.add(listener)
  return () => {
    r.borrowListeners.delete(listener)
  }
}

function notifyBorrow(by: Borrower, what: 'borrowed' | 'returned'): void {
  for (const l of [...registry().borrowListeners]) {
    try {
      l[what](by)
    } catch {
      // a listener must not break a prompt or an editor
    }
  }
}

/** Delays after an editor returns at which jp checks that nobody took the terminal back late. */
export const LATE_TEARDOWN_CHECKS_MS = [100, 300, 700, 1500, 3000]

/**
 * Hands the terminal to a child (the user's editor): saves jp's terminal
 * settings and the cursor. The returned function takes the terminal back,
 * however the child ended (saved, cancelled, killed): it re-applies the
 * settings, turns off what an editor may have left on, and schedules checks
 * for a late teardown (a server restoring "its" settings after the client
 * exited): whoever holds raw mode then gets it back and the open prompt
 * redraws where it stood.
 */
export function handTerminalToChild(): () => void {
  const r = registry()
  for (const t of r.lateChecks.splice(0)) clearTimeout(t)
  const fd = openTtyFd('r+')
  if (fd === undefined) return () => {}
  // The key reader steps aside first and gives the child the settings the
  // user's shell left (the interrupt character on).
  notifyBorrow('child', 'borrowed')
  const saved = saveTerminalModes(fd)
  writeTerminal(fd, SAVE_CURSOR)
  return () => {
    if (saved !== undefined) applyTerminalModes(fd, saved)
    writeTerminal(fd, EDITOR_RESIDUE_OFF)
    notifyBorrow('child', 'returned')
    // What jp's terminal looks like now (the key reader may have changed it
    // again): the late checks hold it to that.
    const expected = saved === undefined ? undefined : saveTerminalModes(fd)
    closeTtyFd(fd)
    if (expected === undefined) return
    for (const ms of LATE_TEARDOWN_CHECKS_MS) {
      const t = setTimeout(() => checkLateTeardown(expected), ms)
      t.unref()
      r.lateChecks.push(t)
    }
  }
}

function checkLateTeardown(saved: string): void {
  const r = registry()
  withTtyFd('r+', (fd) => {
    const now = saveTerminalModes(fd)
    if (now === undefined) return
    if (r.rawHolders.size > 0) {
      // A prompt is open and expects raw mode; canonical input means someone
      // restored "their" cooked settings over it.
      if (isCanonical(now) !== true) return
      writeTerminal(fd, EDITOR_RESIDUE_OFF)
      for (const reapply of r.rawHolders) reapply()
      openPrompt()?.repairAfterEditor?.()
    } else if (now !== saved) {
      applyTerminalModes(fd, saved)
      writeTerminal(fd, EDITOR_RESIDUE_OFF)
    }
  })
}
