// The terminal mode the Ctrl+C key reader needs during a query (SPEC §17):
// no interrupt character (Ctrl+C arrives as a byte instead of SIGINT for the
// whole foreground group) and no line buffering (the byte arrives at once).
// Echo stays on; Ctrl+Z and Ctrl+\ keep their signals. The user's settings
// come back on release, through the restore registry on every exit path,
// and for the time a child (the user's editor) has the terminal.
import {onTerminalBorrow, type Borrower} from './borrow.js'
import {applyTerminalModes, saveTerminalModes} from './modes.js'
import {registerRestore} from './restore.js'
import {withTtyFd} from './tty.js'

/** The stty words that make Ctrl+C a byte: no interrupt character, no line buffering. */
export const INTERRUPT_KEY_MODES = ['intr', 'undef', '-icanon', 'min', '1', 'time', '0']

export interface HeldKeyMode {
  /** Puts the user's settings back (idempotent). */
  release(): void
}

/** Switches the terminal to INTERRUPT_KEY_MODES; undefined when there is no terminal or its settings cannot be changed. */
export function holdInterruptKeyMode(): HeldKeyMode | undefined {
  const original = withTtyFd('r+', (fd) => {
    const saved = saveTerminalModes(fd)
    return saved !== undefined && applyTerminalModes(fd, INTERRUPT_KEY_MODES) ? saved : undefined
  })
  if (original === undefined) return undefined
  const apply = (modes: string | string[]) => void withTtyFd('r+', (fd) => applyTerminalModes(fd, modes))
  let released = false
  const unregister = registerRestore({name: 'interrupt-key', run: () => apply(original)})
  const unsubscribe = onTerminalBorrow({
    // An editor gets the terminal as the user's shell left it, and jp's mode back after.
    borrowed(by: Borrower) {
      if (by === 'child') apply(original)
    },
    returned(by: Borrower) {
      if (by === 'child' && !released) apply(INTERRUPT_KEY_MODES)
    },
  })
  return {
    release() {
      if (released) return
      released = true
      unsubscribe()
      apply(original)
      unregister()
    },
  }
}
