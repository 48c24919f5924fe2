// The terminal is always restored (SPEC §1.7), through this one registry
// (SPEC §17). Whoever changes terminal state (a prompt's raw mode, kitty
// keyboard flags, bracketed paste, a hidden cursor, a cursor shape; the
// Ctrl+C key reader's stty settings; a question's raw mode) registers the
// matching restore action and unregisters it after its own cleanup.
// Whatever is still registered when the process leaves — normal exit,
// process.exit(130) on escalation, a graceful SIGTERM/SIGHUP shutdown (the
// signal router exits through process.exit), an uncaught exception or
// unhandled rejection — is run exactly once.
//
// Terminating signals. The signal router (interrupt/signals.ts) decides what
// SIGTERM and SIGHUP mean: it claims them (`claimTerminatingSignals`), tells
// the registered owners (`terminateRegistered`: an open prompt ends as
// cancelled) and restores through this registry when it exits. Where no
// router runs (a prompt before a query's router exists, `jp init`,
// `jp conversation edit`, a plugin's prompt) the registry stands in, with one
// set of listeners held only while something is registered: it restores and
// lets the signal end the process as Node's default would (it stops
// listening and raises the signal again), unless other code listens for it
// and so decides. The stand-in takes SIGINT and SIGQUIT too: a raw prompt
// makes no such signal from a key, but `kill -INT` from outside still ends jp,
// and Node's default would leave the terminal raw. No prompt listens to
// signals itself.
//
// The registry lives in a process-wide slot (process/slots.ts): oclif can load
// this module twice (src via tsx and dist), and both copies must share one set
// of actions. It runs at exit from the process lifecycle (process/lifecycle.ts):
// the open prompts' last picture first, then the terminal's modes. Restore
// sequences go to /dev/tty only, never to stdout/stderr, and only when some
// action registered a sequence (i.e. a prompt had the terminal).
import {detachStdioAtExitAfterCleanup, terminalGone} from './gone.js'
import {listenToSignal, onCleanup} from '../process/lifecycle.js'
import {isSigintIgnored} from '../process/sigint-guard.js'
import {slot, type ProcessSlots} from '../process/slots.js'
import {leaveOpenPrompts} from './owner.js'
import {closeTtyFd, openTtyFd, writeTtySync} from './tty.js'

export interface RestoreAction {
  /** For diagnostics and tests. */
  name: string
  /** Written to /dev/tty on restore. */
  sequence?: string
  /** Run on restore (e.g. `() => input.setRawMode(false)`); errors are ignored. */
  run?: () => void
  /**
   * Told when a terminating signal arrives under the signal router, before
   * its shutdown: the owner ends early (an open prompt settles as
   * cancelled, restoring what it changed). Errors are ignored.
   */
  terminate?: () => void
}

/** The signals that end jp from outside (a supervisor, a hung-up terminal). */
export const TERMINATING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP']

/**
 * The keyboard's signals. While a prompt holds the terminal raw no key makes
 * them, but `kill -INT` / `kill -QUIT` from outside still can: the stand-in
 * restores before they end jp, as it does for the terminating ones.
 */
const KEYBOARD_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGQUIT']

/** What the stand-in listens for (the signal router owns all four while it runs). */
const STAND_IN_SIGNALS = [...TERMINATING_SIGNALS, ...KEYBOARD_SIGNALS]

/** The registry's state: one process-wide slot (process/slots.ts documents its fields). */
type Registry = ProcessSlots['terminalRestore']

function registry(): Registry {
  return slot('terminalRestore', () => ({next: 0, actions: new Map(), hooksInstalled: false, openTty: () => openTtyFd('w'), signalClaims: 0, standIn: undefined}))
}

/**
 * Registers a restore action; returns the function that unregisters it
 * (call it once your own cleanup has undone the change).
 */
export function registerRestore(action: RestoreAction): () => void {
  const r = registry()
  installTerminalRestoreHooks()
  const id = r.next++
  r.actions.set(id, action)
  syncStandIn(r)
  return () => {
    r.actions.delete(id)
    syncStandIn(r)
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
  // First the screen, while the prompts' modes still hold: an open prompt
  // ends its picture and the line it was on.
  leavePromptsIfTerminal()
  const r = registry()
  const actions = [...r.actions.values()].reverse()
  r.actions.clear()
  syncStandIn(r)
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
 * Registers the restore with the process lifecycle (once per process,
 * whatever the module copy): at exit — normal exit and every process.exit
 * call — and before an uncaught exception is reported, so the stack trace
 * lands on a sane terminal. The prompts' last picture goes first, while
 * their modes still hold; stdio is detached from a dead terminal last.
 */
export function installTerminalRestoreHooks(): void {
  const r = registry()
  if (r.hooksInstalled) return
  r.hooksInstalled = true
  onCleanup('prompt picture', 'open prompts leave their last picture', leavePromptsIfTerminal, {alsoOnCrash: true})
  onCleanup('terminal modes', 'restore registry', () => void restoreTerminal(), {alsoOnCrash: true})
  // Last, before Node's own reset of stdio, which aborts on a dead terminal.
  detachStdioAtExitAfterCleanup()
}

function leavePromptsIfTerminal(): void {
  if (!terminalGone()) leaveOpenPrompts()
}

/** Test seam: where restore sequences are written. Returns the previous opener. */
export function setRestoreTtyOpener(open: () => number | undefined): () => number | undefined {
  const r = registry()
  const prev = r.openTty
  r.openTty = open
  return prev
}

/**
 * The caller decides what SIGTERM and SIGHUP mean from now on (the signal
 * router, on install): the registry's stand-in stops listening. Returns the
 * release (on uninstall).
 */
export function claimTerminatingSignals(): () => void {
  const r = registry()
  r.signalClaims++
  syncStandIn(r)
  let released = false
  return () => {
    if (released) return
    released = true
    r.signalClaims--
    syncStandIn(r)
  }
}

/** Tells every registered owner that a terminating signal arrived (see RestoreAction.terminate). */
export function terminateRegistered(): void {
  for (const a of [...registry().actions.values()].reverse()) {
    try {
      a.terminate?.()
    } catch {
      // one owner failing must not keep the others open
    }
  }
}

/** The stand-in listens exactly while something is registered and nobody claimed the signals. */
function syncStandIn(r: Registry): void {
  const wanted = r.actions.size > 0 && r.signalClaims === 0
  if (wanted && !r.standIn) {
    const standIn = (signal: NodeJS.Signals) => {
      // While the user's editor has the terminal, a Ctrl+C is the editor's
      // (process/sigint-guard.ts): nothing to restore over it.
      if (signal === 'SIGINT' && isSigintIgnored()) return
      stopStandIn(r)
      // Other code listening for the signal (a library's exit hook, an
      // embedder's handler) decides what it means; the owners end first.
      const othersDecide = process.listenerCount(signal) > 0
      if (othersDecide) terminateRegistered()
      restoreTerminal()
      // Nobody else: behave as if nobody had listened, so the signal's
      // default action ends the process.
      if (!othersDecide) process.kill(process.pid, signal)
    }
    // First in line, so the others see it gone: signal-exit (under the stock
    // @inquirer/core of jp init's question) raises the signal again only when
    // its own listeners are all that is left; after it, the stand-in would
    // see it listening and leave the ending to it, and neither would end jp.
    const stops = STAND_IN_SIGNALS.map((s) => listenToSignal(s, standIn, {first: true}))
    r.standIn = () => {
      for (const stop of stops) stop()
    }
  } else if (!wanted && r.standIn) {
    stopStandIn(r)
  }
}

function stopStandIn(r: Registry): void {
  const stop = r.standIn
  if (!stop) return
  r.standIn = undefined
  stop()
}
