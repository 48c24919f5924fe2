// Lending the terminal and taking it back (SPEC §17: the terminal is jp's
// again after every editor, however the editor ended). A prompt borrows it
// in raw mode in this process; a child (the user's editor) gets it as the
// user's shell left it. Listeners (the Ctrl+C key reader, the status line)
// step aside while it is lent.
//
// In a process-wide slot (process/slots.ts): oclif can load this module twice (src via tsx and dist).
import {constants as fsc} from 'node:fs'
import {isatty, type ReadStream} from 'node:tty'

import {openPrompt} from './owner.js'
import {applyTerminalModes, isCanonical, saveTerminalModes, writeTerminal} from './modes.js'
import {EDITOR_RESIDUE_OFF, SAVE_CURSOR} from './sequences.js'
import {closeTtyFd, openTtyFd, withTtyFd} from './tty.js'
import {slot} from '../process/slots.js'

interface BorrowState {
  /** Prompts holding the terminal in raw mode: how to put it back. */
  rawHolders: Set<() => void>
  /** Pending late-teardown checks after an editor. */
  lateChecks: NodeJS.Timeout[]
  /** Told when a prompt or a child borrows the terminal and when it is given back. */
  borrowListeners: Set<BorrowListener>
}

function state(): BorrowState {
  // A process-wide slot (process/slots.ts): oclif can load this module twice.
  return slot('terminalBorrow', () => ({rawHolders: new Set(), lateChecks: [], borrowListeners: new Set()}))
}

/**
 * A prompt put the terminal in raw mode and expects it to stay so; `reapply`
 * puts raw mode (and the prompt's modes) back. Returns the release function.
 */
export function holdRawMode(reapply: () => void): () => void {
  const r = state()
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
  const r = state()
  r.borrowListeners.add(listener)
  return () => {
    r.borrowListeners.delete(listener)
  }
}

function notifyBorrow(by: Borrower, what: 'borrowed' | 'returned'): void {
  for (const l of [...state().borrowListeners]) {
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
  const r = state()
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
  const r = state()
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

/** The terminal as a child (the user's editor) gets it: its stdin and stdout, and how jp takes it back. */
export interface LentTerminal {
  /** An fd of the controlling terminal, or 'inherit' (jp's own stdin/stdout are the terminal, or there is none). */
  stdin: number | 'inherit'
  stdout: number | 'inherit'
  /** Takes the terminal back, however the child ended (saved, cancelled, killed); closes what was opened. */
  takeBack(): void
}

/**
 * Lends the terminal to a child that runs in jp's process group (the
 * editor): its stdin and stdout are jp's own when they are a terminal, else
 * the controlling terminal (`jp ... | cat` must still show the editor), else
 * — no terminal at all (CI, cron) — whatever jp has. jp stops reading its
 * own stdin and leaves raw mode meanwhile, and `handTerminalToChild` saves
 * and restores the rest.
 */
export function lendTerminalToChild(): LentTerminal {
  const fd = isatty(0) && isatty(1) ? undefined : openTtyFd(fsc.O_RDWR | fsc.O_NOCTTY)
  const resume = suspendOwnStdin()
  const takeBack = handTerminalToChild()
  return {
    stdin: fd ?? 'inherit',
    stdout: fd ?? 'inherit',
    takeBack() {
      takeBack()
      resume()
      if (fd !== undefined) closeTtyFd(fd)
    },
  }
}

/**
 * Stops reading jp's stdin when it is a terminal (it would steal the
 * editor's keystrokes) and leaves raw mode so the editor starts from a
 * cooked terminal. The returned function puts jp back as it was; switching
 * raw mode off and on again re-applies it even though the editor changed
 * the terminal behind Node's back.
 */
function suspendOwnStdin(): () => void {
  if (!isatty(0)) return () => {}
  const stdin = process.stdin as ReadStream
  const wasRaw = stdin.isRaw === true
  const wasFlowing = stdin.readableFlowing === true
  if (wasFlowing) stdin.pause()
  if (wasRaw) stdin.setRawMode(false)
  return () => {
    if (wasRaw) stdin.setRawMode(true)
    if (wasFlowing) stdin.resume()
  }
}
