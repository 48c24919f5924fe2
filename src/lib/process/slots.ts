// Every process-wide slot of jp, in one list, each with its type (issue 41).
//
// Why slots at all: oclif can load a module twice — a hook from src/ (tsx)
// and the command from dist/, a plugin that bundles its own copy of the
// library — and each copy would otherwise hold its own registry of restore
// actions, its own set of held locks, its own 'exit' listener. A slot lives
// on `globalThis` under a `Symbol.for` key, so every copy of a module finds
// the same state. The keys are the ones jp always used (`bin/run.js` reads
// `jp.pluginHooksRan` itself), so an older copy shares them too.
//
// This file is on the ground floor (process/): it names no type of a higher
// floor. A slot that holds such an object (a prompt, the signal router, an
// editor builder) says so in its comment, and its owner narrows it in one
// typed accessor. (`jp.pluginsOfBuilder`, editor/slot.ts `PLUGINS_OF`, is
// no slot: it is a property key on an installed builder.)

/** A synchronous undo run at exit (and, `alsoOnCrash`, before an uncaught exception is reported). */
export interface CleanupEntry {
  stage: string
  name: string
  undo: () => void
  alsoOnCrash: boolean
}

/** The restore registry's entry: the shape of terminal/restore.ts `RestoreAction`. */
export interface RestoreEntry {
  name: string
  sequence?: string
  run?: () => void
  terminate?: () => void
}

/** Told when a prompt or a child borrows the terminal and gives it back (terminal/borrow.ts `BorrowListener`). */
export interface BorrowEvents {
  borrowed(by: 'prompt' | 'child'): void
  returned(by: 'prompt' | 'child'): void
}

/** What each slot holds. */
export interface ProcessSlots {
  /** process/lifecycle.ts — the ordered clean-up list and whether the one 'exit' / crash listener is installed. */
  lifecycle: {entries: CleanupEntry[]; exitHooked: boolean}
  /** process/sigint-guard.ts — how many `ignoreSigintDuring` calls are running (an editor owns Ctrl+C). */
  sigintGuard: {depth: number}
  /** process/exit-registry.ts — one set per registry name (`childGroups`, `tempDirs`), undone at exit. */
  exitRegistries: Map<string, {items: Set<unknown>; hooked: boolean}>
  /** conversation/lock.ts — the lock files this process holds, removed at exit if nobody released them. */
  conversationLocks: {held: Set<string>; exitHooked: boolean}
  /** terminal/restore.ts — the restore actions, the stand-in signal listener, the signal router's claims. */
  terminalRestore: {
    next: number
    actions: Map<number, RestoreEntry>
    hooksInstalled: boolean
    /** Opens the terminal for restore writes; replaceable in tests. */
    openTty: () => number | undefined
    /** Owners of the terminating signals now (the signal router); while any, the stand-in does not listen. */
    signalClaims: number
    /** Stops the stand-in's signal listeners while it listens. */
    standIn: (() => void) | undefined
  }
  /** terminal/gone.ts — the terminal went away (or a SIGHUP said it may), and who is told. */
  terminalGone: {gone: boolean; hangupSignalled?: boolean; listeners: Set<() => void>}
  /** terminal/gone.ts — whether stdout/stderr's error listeners are wrapped against the hang-up's EIO. */
  stdioShield: {shielded?: boolean}
  /** terminal/typeahead.ts — raw input a reader read past its answer, for the next reader. */
  terminalTypeahead: {pending: string}
  /**
   * terminal/owner.ts — the open prompts (terminal/owner.ts `OpenPrompt`), the
   * footer (`Footer`) and who is told when a prompt claims or releases the screen.
   */
  terminalOwner: {stack: unknown[]; footer?: unknown; claimListeners: Set<() => void>; releaseListeners: Set<(release: {erased: boolean}) => void>}
  /** terminal/borrow.ts — prompts holding raw mode, late checks after an editor, who is told of a borrow. */
  terminalBorrow: {rawHolders: Set<() => void>; lateChecks: NodeJS.Timeout[]; borrowListeners: Set<BorrowEvents>}
  /** interrupt/signals.ts — the signal router installed now (a `SignalRouter`), if any. */
  signalRouter: object | undefined
  /** editor/slot.ts — the editor backend builder over the plugins' registry (an `EditorBackendBuilder`). */
  buildEditorBackend: ((config: never) => unknown) | undefined
  /** editor/inject.ts — the helper the init hook injects (an `InjectedBuildEditorBackend`). */
  injectedBuildEditorBackend: ((config: never) => Promise<unknown>) | undefined
  /** editor/plugins.ts — set once a plugin's hook ran (bin/run.js then ends the process when the command is done). */
  pluginHooksRan: boolean | undefined
  /** inquire/complete/file-index.ts — each workspace root's file index (its matcher and listing). */
  mentionIndexes: Map<string, unknown>
  /** bin/load.js — the `import()` the CommonJS bundle's dynamic imports call (scripts/build.js rewrites them); set before the bundle runs, read by no module of src/. */
  bundleImport: ((specifier: string) => Promise<unknown>) | undefined
  /**
   * cli/early-prompt.ts — the `Query:` prompt drawn before the CLI loaded
   * (dist/prompt.js), while it is on screen: `release()` stops it, hands
   * the keys it read to the next reader and erases it (terminal/tty.ts calls
   * it before anything else of jp's touches the terminal).
   */
  earlyPrompt: {release(): void} | undefined
  /** cli/pick-first.ts — the conversation `jp query --resume` picked before the CLI loaded; `jp query` takes it instead of opening the picker. */
  resumePicked: {id: string} | undefined
}

export type SlotName = keyof ProcessSlots

/** Each slot's key on globalThis. */
export const SLOT_KEYS: {readonly [K in SlotName]: symbol} = {
  lifecycle: Symbol.for('jp.lifecycle'),
  sigintGuard: Symbol.for('jp.sigintGuard'),
  exitRegistries: Symbol.for('jp.exitRegistries'),
  conversationLocks: Symbol.for('jp.conversationLocks'),
  terminalRestore: Symbol.for('jp.terminalState'),
  terminalGone: Symbol.for('jp.terminalGone'),
  stdioShield: Symbol.for('jp.stdioShield'),
  terminalTypeahead: Symbol.for('jp.terminalTypeahead'),
  terminalOwner: Symbol.for('jp.terminalOwner'),
  terminalBorrow: Symbol.for('jp.terminalBorrow'),
  signalRouter: Symbol.for('jp.signalRouter'),
  buildEditorBackend: Symbol.for('jp.buildEditorBackend'),
  injectedBuildEditorBackend: Symbol.for('jp.injectedBuildEditorBackend'),
  pluginHooksRan: Symbol.for('jp.pluginHooksRan'),
  mentionIndexes: Symbol.for('jp.mentionIndexes'),
  bundleImport: Symbol.for('jp.import'),
  earlyPrompt: Symbol.for('jp.earlyPrompt'),
  resumePicked: Symbol.for('jp.resumePicked'),
}

/** Names of every slot (tests list them). */
export const SLOT_NAMES = Object.keys(SLOT_KEYS) as SlotName[]

type Global = Record<symbol, unknown>

/** The slot's value, made with `init` the first time any copy of jp asks. */
export function slot<K extends SlotName>(name: K, init: () => ProcessSlots[K]): ProcessSlots[K] {
  const g = globalThis as unknown as Global
  const key = SLOT_KEYS[name]
  g[key] ??= init()
  return g[key] as ProcessSlots[K]
}

/** The slot's value, or undefined when nothing was stored. */
export function peekSlot<K extends SlotName>(name: K): ProcessSlots[K] | undefined {
  return (globalThis as unknown as Global)[SLOT_KEYS[name]] as ProcessSlots[K] | undefined
}

/** Stores `value` in the slot (undefined: empties it). */
export function setSlot<K extends SlotName>(name: K, value: ProcessSlots[K] | undefined): void {
  const g = globalThis as unknown as Global
  if (value === undefined) delete g[SLOT_KEYS[name]]
  else g[SLOT_KEYS[name]] = value
}
