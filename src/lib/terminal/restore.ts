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
import {closeTtyFd, openTtyFd, writeTtySync} from './tty.js'

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
  hooksInstalled: boolean
  /** Opens the terminal for restore writes; replaceable in tests. */
  openTty: () => number | undefined
}

const KEY = Symbol.for('jp.terminalState')

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>
  return (g[KEY] ??= {next: 0, actions: new Map(), hooksInstalled: false, openTty: () => openTtyFd('w')})
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
