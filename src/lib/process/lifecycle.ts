// The process's one way out (issue 41). Everything jp must undo however it
// ends — the prompt's last picture, the terminal's modes, tool process
// groups, private temporary files, conversation locks — is registered here
// by its owner, under a named stage, and run in the order of CLEANUP_STAGES
// from the one 'exit' listener (process.exit, the end of the event loop, an
// uncaught exception's exit all pass through it). Entries registered
// `alsoOnCrash` run before Node reports an uncaught exception as well, so its
// stack trace lands on a sane terminal and no tool outlives jp.
//
// It is also the one place that installs process signal listeners
// (`listenToSignal`): the signal router, the restore registry's stand-in,
// the SIGINT guard and the terminal's resize go through it, so the list of
// who listens for what is here to read. Each listener stays a listener of
// its own on the process: Node's rule that a signal with no listener ends
// the process, and the order listeners run in, are what they always were.
//
// Synchronous only: an 'exit' listener cannot wait. A SIGKILL of jp is the
// one way out nothing can cover.
import {type CleanupEntry, slot} from './slots.js'

/**
 * The clean-up order: the screen first while the prompt's modes still hold,
 * then the modes, then what jp started (children), made (temporary files)
 * and holds (locks), then its threads, and last stdio's own descriptors.
 */
export const CLEANUP_STAGES = ['prompt picture', 'terminal modes', 'children', 'temporary files', 'locks', 'workers', 'stdio'] as const
export type CleanupStage = (typeof CLEANUP_STAGES)[number]

function state(): {entries: CleanupEntry[]; exitHooked: boolean} {
  return slot('lifecycle', () => ({entries: [], exitHooked: false}))
}

/**
 * Registers `undo` (synchronous; errors are ignored) to run at exit in its
 * stage's place; returns the function that unregisters it.
 */
export function onCleanup(stage: CleanupStage, name: string, undo: () => void, opts: {alsoOnCrash?: boolean} = {}): () => void {
  const s = state()
  installExitHook(s)
  const entry: CleanupEntry = {stage, name, undo, alsoOnCrash: opts.alsoOnCrash ?? false}
  s.entries.push(entry)
  return () => {
    const i = s.entries.indexOf(entry)
    if (i >= 0) s.entries.splice(i, 1)
  }
}

/** What is registered now, in the order it would run (`stage: name`). */
export function pendingCleanups(): string[] {
  return ordered(state().entries).map((e) => `${e.stage}: ${e.name}`)
}

/** Runs the entries (all at exit; on a crash only `alsoOnCrash` ones), stage by stage; entries stay registered. */
export function runCleanups(reason: 'exit' | 'crash'): void {
  for (const entry of ordered(state().entries)) {
    if (reason === 'crash' && !entry.alsoOnCrash) continue
    try {
      entry.undo()
    } catch {
      // one undo failing must not keep the later stages from running
    }
  }
}

function ordered(entries: readonly CleanupEntry[]): CleanupEntry[] {
  const rank = (e: CleanupEntry) => (CLEANUP_STAGES as readonly string[]).indexOf(e.stage)
  // Array sort is stable: within a stage, registration order.
  return [...entries].sort((a, b) => rank(a) - rank(b))
}

const onExit = () => runCleanups('exit')
const onCrash = () => runCleanups('crash')

function installExitHook(s: {exitHooked: boolean}): void {
  if (s.exitHooked) return
  s.exitHooked = true
  process.on('exit', onExit)
  process.on('uncaughtExceptionMonitor', onCrash)
}

/**
 * Listens for `signal` until the returned function is called. `first`: ahead
 * of every other listener (the restore registry's stand-in must see the
 * others gone before they look, see terminal/restore.ts).
 */
export function listenToSignal(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void, opts: {first?: boolean} = {}): () => void {
  if (opts.first) process.prependListener(signal, listener)
  else process.on(signal, listener)
  return () => {
    process.removeListener(signal, listener)
  }
}
