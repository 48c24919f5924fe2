// The terminal went away (issue 23, finding 2): its window was closed, tmux
// was killed, the ssh connection dropped. The kernel hangs the terminal up:
// SIGHUP to the session, EOF on reads, EIO on writes and on every change of
// its settings, ENXIO on opening /dev/tty. From then on jp never writes to it
// nor resets it (there is nothing left to restore), and it finishes as a
// graceful shutdown (SIGHUP's 129) that saves what arrived.
//
// One trap is Node's own: at exit it puts stdio's terminal settings back
// (`ResetStdio()`) and aborts the process when that fails with anything but
// EPERM (nodejs/node#51519, fixed in 2025 after Node 20), so a jp whose
// stdin/stdout/stderr were the dead terminal died by SIGABRT with a native
// stack instead of exiting 129. `detachDeadStdio` points those descriptors
// at /dev/null before the exit: Node restores only the files stdio still
// refers to, so it leaves them alone.
//
// Whether the terminal still answers is asked through terminal/tty.ts (the
// one opener of /dev/tty: `confirmHangup`), which also refuses to open or
// write a terminal that is gone.
//
// In process-wide slots (process/slots.ts): oclif can load this module twice
// (src via tsx and dist).
import {closeSync, fstatSync, openSync, statSync} from 'node:fs'
import {isatty} from 'node:tty'
import {onCleanup} from '../process/lifecycle.js'
import {slot} from '../process/slots.js'

function state() {
  // hangupSignalled: a SIGHUP came; the terminal may go any moment (tmux kill-server signals, then closes it).
  return slot('terminalGone', () => ({gone: false, listeners: new Set<() => void>()}))
}

/** True once the controlling terminal is known to be gone: nothing may write to it or change its modes. */
export function terminalGone(): boolean {
  return state().gone
}

/**
 * The terminal is gone (idempotent): stdout and stderr, which may be that
 * terminal, stop reporting their write errors as crashes, and every
 * listener (the signal router: a graceful shutdown, 129) is told once.
 */
export function markTerminalGone(): void {
  const s = state()
  if (s.gone) return
  s.gone = true
  // Writes to a hung-up terminal fail with EIO; with no listener that would
  // be an uncaught exception in the middle of saving.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
  for (const listener of [...s.listeners]) {
    try {
      listener()
    } catch {
      // one listener must not keep the others from hearing it
    }
  }
}

/** A SIGHUP arrived (the terminal still answering or not): see `detachStdioAtExit`. */
export function noteHangupSignal(): void {
  state().hangupSignalled = true
}

/**
 * Called last on every exit path. The terminal gone, or a SIGHUP received:
 * a terminal that still answered when the signal was handled can be closed
 * while jp saves and exits (tmux kill-server sends SIGHUP, then closes the
 * pty), and Node's reset of it would then abort. jp restored its own modes
 * already (restore.ts), so nothing is lost by skipping Node's reset.
 */
export function detachStdioAtExit(): void {
  const s = state()
  if (s.gone || s.hangupSignalled || deadTerminalStdio()) detachDeadStdio()
}

/**
 * Whether stdin, stdout or stderr is a terminal that no longer answers (a
 * character device, not /dev/null, that is not a tty any more: its
 * settings cannot be read). The window can close while jp starts, before
 * it hears the hang-up or could ask the terminal: Node would still reset it.
 */
function deadTerminalStdio(): boolean {
  let devNull: number
  try {
    devNull = statSync('/dev/null').rdev
  } catch {
    return false
  }
  for (const fd of [0, 1, 2]) {
    try {
      const stat = fstatSync(fd)
      if (stat.isCharacterDevice() && stat.rdev !== devNull && !isatty(fd)) return true
    } catch {
      // a closed descriptor: nothing for Node to reset
    }
  }
  return false
}

/** Registers `detachStdioAtExit` as the lifecycle's last clean-up (the 'stdio' stage, after the terminal's restore). */
export function detachStdioAtExitAfterCleanup(): void {
  onCleanup('stdio', 'stdio detached from a dead terminal', detachStdioAtExit)
}

/** Calls `listener` once when the terminal goes away (at once if it is gone); returns the unsubscribe. */
export function onTerminalGone(listener: () => void): () => void {
  const s = state()
  if (s.gone) {
    listener()
    return () => {}
  }
  s.listeners.add(listener)
  return () => s.listeners.delete(listener)
}

/**
 * A write to stdout or stderr that is the hung-up terminal fails with EIO,
 * and listeners that rethrow what they do not expect — @oclif/core's
 * module-level stdout listener rethrows everything but EPIPE — would turn
 * that into a crash (exit 1) in the middle of saving. The listeners present
 * now are wrapped: an error that `isHangup` confirms (the terminal no longer
 * answers) is the hang-up's, handled by its graceful shutdown; any other
 * still reaches them. Once per process.
 */
export function shieldStdioFromHangup(isHangup: (error: NodeJS.ErrnoException) => boolean): void {
  const s = slot('stdioShield', () => ({}))
  if (s.shielded) return
  s.shielded = true
  for (const stream of [process.stdout, process.stderr]) {
    const earlier = stream.listeners('error') as Array<(error: NodeJS.ErrnoException) => void>
    if (earlier.length === 0) continue
    stream.removeAllListeners('error')
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error?.code === 'EIO' || error?.code === 'ENXIO') {
        // The terminal hung up (confirmed: its graceful shutdown follows), or hung up before jp could
        // ask it (the window closed while jp started: stdout was then opened as a file whose writes
        // fail, and there is no terminal left to confirm). The printer's own listener stops writing
        // to the stream either way; neither is a crash.
        isHangup(error)
        return
      }
      for (const listener of earlier) listener.call(stream, error)
    })
  }
}

/**
 * Before the process exits with the terminal gone: stdin, stdout and stderr
 * that are terminals (character devices other than /dev/null) are pointed at
 * /dev/null, so Node's exit-time reset of their settings skips them (see the
 * top of this file). Files and pipes are left as they are.
 */
export function detachDeadStdio(): void {
  let devNull: number | undefined
  try {
    devNull = statSync('/dev/null').rdev
  } catch {
    return
  }
  for (const fd of [0, 1, 2]) {
    let stat
    try {
      stat = fstatSync(fd)
    } catch {
      continue
    }
    if (!stat.isCharacterDevice() || stat.rdev === devNull) continue
    // Close, then open: the lowest free descriptor is this one again.
    closeQuietly(fd)
    try {
      const reopened = openSync('/dev/null', fd === 0 ? 'r' : 'w')
      if (reopened !== fd) closeQuietly(reopened)
    } catch {
      // a closed descriptor is skipped by Node's reset too
    }
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // already gone
  }
}
