// The controlling terminal, reached through /dev/tty so that prompts and
// terminal restoration never touch stdout or stderr (SPEC §1.3). The one
// module that opens it (SPEC §17): the printer, the restore registry, the
// signal router, the Ctrl+C key reader, the prompts and the editor service
// all open the terminal through it. Opening it fails where there is no
// terminal (CI, cron, a setsid child): callers then get undefined and skip
// whatever needed a terminal.
import {closeSync, openSync, readFileSync, writeSync} from 'node:fs'
import tty from 'node:tty'

import {peekSlot} from '../process/slots.js'
import {markTerminalGone, terminalGone} from './gone.js'

export const TTY_PATH = '/dev/tty'

/**
 * Opens /dev/tty (for writing by default); undefined when there is no
 * terminal, or it is gone (terminal/gone.ts). The one place jp opens it.
 */
export function openTtyFd(flags: 'w' | 'r' | 'r+' | number = 'w'): number | undefined {
  releaseEarlyPrompt()
  return openTtyFdAsIs(flags)
}

/**
 * The `Query:` prompt bin/run.js drew before the CLI loaded
 * (cli/early-prompt.ts), if it is still up, goes: whoever opens the terminal
 * next (the inline prompt, a menu, an editor, the Ctrl+C key reader's stty)
 * finds it in its own modes, with the keys typed so far kept for it
 * (typeahead.ts) and the early picture erased. stdout and stderr's first
 * write release it too (the early prompt wraps them).
 */
export function releaseEarlyPrompt(): void {
  peekSlot('earlyPrompt')?.release()
}

function openTtyFdAsIs(flags: 'w' | 'r' | 'r+' | number): number | undefined {
  if (process.platform === 'win32' || terminalGone() || inBackgroundGroup()) return undefined
  try {
    return openSync(TTY_PATH, flags)
  } catch {
    return undefined
  }
}

/**
 * Whether jp runs as a background job of its terminal (`jp query … &`): its
 * process group is not the terminal's foreground group. Such a jp must not
 * touch the terminal — changing its modes raises SIGTTOU and, with
 * `stty tostop`, so does writing to it: the shell's job is stopped — so it
 * behaves as without a terminal (no prompts, the tool rules for no
 * terminal). Linux tells it in /proc/self/stat (pgrp and tpgid, the fields
 * after the command name, which may hold spaces and parentheses); elsewhere
 * jp takes itself for a foreground job.
 */
export function inBackgroundGroup(): boolean {
  if (process.platform !== 'linux') return false
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // state ppid pgrp session tty_nr tpgid …; tpgid -1: no controlling terminal.
    const pgrp = Number(fields[2])
    const tpgid = Number(fields[5])
    return tpgid > 0 && pgrp !== tpgid
  } catch {
    return false
  }
}

/** Closes a tty fd, ignoring errors (already closed, or the terminal went away). */
export function closeTtyFd(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // already gone
  }
}

/** Runs `fn` with /dev/tty open and closes it after; undefined (and `fn` not run) without a terminal. */
export function withTtyFd<T>(flags: 'w' | 'r' | 'r+' | number, fn: (fd: number) => T): T | undefined {
  const fd = openTtyFd(flags)
  if (fd === undefined) return undefined
  try {
    return fn(fd)
  } finally {
    closeTtyFd(fd)
  }
}

let cachedHasTty: boolean | undefined

/**
 * The one "is there a terminal" check: whether this process has a
 * controlling terminal it can open for reading and writing. Prompts, menus,
 * the Ctrl+C key reader, the status line and the router's menus all hinge
 * on it. Cached: a process does not gain a controlling terminal while jp
 * runs, and losing it (a hang-up) ends jp through SIGHUP.
 */
export function hasTty(): boolean {
  if (cachedHasTty === undefined) {
    // Only asks: an early prompt on screen stays up.
    const fd = openTtyFdAsIs('r+')
    cachedHasTty = fd !== undefined && tty.isatty(fd)
    if (fd !== undefined) closeTtyFd(fd)
  }
  return cachedHasTty
}

/** Writes every byte of `data` to `fd` synchronously (exit paths: the event loop will not flush a stream); throws on error. */
export function writeAllSync(fd: number, data: string): void {
  const buf = Buffer.from(data, 'utf8')
  let off = 0
  while (off < buf.length) off += writeSync(fd, buf, off)
}

/**
 * Whether the controlling terminal still answers, asked now (not cached):
 * /dev/tty opens and is a terminal. After a hang-up the process has no
 * controlling terminal (ENXIO), or its settings cannot be read (EIO).
 */
export function terminalAnswers(): boolean {
  if (process.platform === 'win32') return false
  let fd: number | undefined
  try {
    fd = openSync(TTY_PATH, 'r+')
    return tty.isatty(fd)
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeTtyFd(fd)
  }
}

/**
 * A read of the terminal ended (EOF) or one of its streams failed (EIO): on
 * a terminal that happens when it was hung up, unless it still answers (a
 * stream merely closed). Marks it gone then; returns whether it is gone.
 * `hasTty()` is cached from its first call (the signal
 * router asks at install), so it says whether there was a terminal.
 */
export function confirmHangup(): boolean {
  // Only a terminal jp had can go away: without one (CI, cron) nothing is lost.
  if (!terminalGone() && hasTty() && !terminalAnswers()) markTerminalGone()
  return terminalGone()
}

/** Writes synchronously to a tty fd, ignoring errors (the terminal may be gone); nothing once it is gone. */
export function writeTtySync(fd: number, data: string): void {
  if (terminalGone()) return
  try {
    writeAllSync(fd, data)
  } catch {
    // A hung-up terminal (SIGHUP) is not a reason to fail an exit path.
  }
}

/** A write stream on the controlling terminal (the printer's), or undefined without one. */
export function openTtyWriteStream(): tty.WriteStream | undefined {
  const fd = openTtyFd('w')
  if (fd === undefined) return undefined
  try {
    const stream = new tty.WriteStream(fd)
    // EIO once the terminal is hung up: it is gone (terminal/gone.ts), not a crash.
    stream.on('error', () => confirmHangup())
    return stream
  } catch {
    closeTtyFd(fd)
    return undefined
  }
}

/** A read stream on the controlling terminal (the Ctrl+C key reader's), or undefined without one. */
export function openTtyReadStream(): tty.ReadStream | undefined {
  const fd = openTtyFd('r')
  if (fd === undefined) return undefined
  try {
    const stream = new tty.ReadStream(fd)
    // EOF or EIO: the terminal was hung up (a closed window); the signal router hears of it and shuts down.
    stream.on('error', () => confirmHangup())
    stream.on('end', () => confirmHangup())
    return stream
  } catch {
    closeTtyFd(fd)
    return undefined
  }
}

export interface TtyStreams {
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  /** Closes both streams (idempotent). */
  close(): void
}

/**
 * Opens fresh read/write streams on the controlling terminal, or returns
 * undefined when there is none (CI, cron, a detached process): the caller
 * then falls back (no prompt, a documented default).
 *
 * Prompts open a fresh pair for each prompt and close it after. Reusing one
 * pair across prompts breaks the second one (a closed MuteStream, a paused
 * handle), and a fresh pair also means `jp … | jq` and `2> err.txt` leave
 * the prompt on the screen.
 */
export function openTty(): TtyStreams | undefined {
  let readFd: number | undefined
  let writeFd: number | undefined
  try {
    readFd = openTtyFd('r')
    writeFd = openTtyFd('w')
    if (readFd === undefined || writeFd === undefined || !tty.isatty(readFd) || !tty.isatty(writeFd)) throw new Error('not a terminal')
    const input = new tty.ReadStream(readFd)
    const output = new tty.WriteStream(writeFd)
    // EIO once the terminal is hung up: the terminal is gone, not a crash.
    input.on('error', () => confirmHangup())
    output.on('error', () => confirmHangup())
    let closed = false
    return {
      input,
      output,
      close() {
        if (closed) return
        closed = true
        try {
          if (input.isRaw) input.setRawMode(false)
        } catch {
          // the terminal went away; nothing left to restore
        }
        input.destroy()
        output.destroy()
      },
    }
  } catch {
    if (readFd !== undefined) closeTtyFd(readFd)
    if (writeFd !== undefined) closeTtyFd(writeFd)
    return undefined
  }
}
