// One line redrawn in place at the cursor (the printer's status line): the
// bytes that draw and erase it are the terminal layer's (SPEC §18). While the
// line is on the screen the restore registry erases it on any exit (a Ctrl+C,
// SIGQUIT, a crash), so the shell's prompt never lands after it.
import {registerRestore} from './restore.js'
import {TERMINAL_SEQUENCES} from './sequences.js'

export class InPlaceLine {
  private unregister: (() => void) | undefined

  constructor(private readonly write: (data: string) => void) {}

  /** Back to column 0, erases the line and writes `text` (which must fit the width: a wrapped line leaves a copy behind). */
  show(text: string): void {
    this.write(TERMINAL_SEQUENCES.eraseLine + text)
    this.unregister ??= registerRestore({name: 'status-line', sequence: TERMINAL_SEQUENCES.eraseLine})
  }

  /** Back to column 0 and erases the line. */
  erase(): void {
    this.unregister?.()
    this.unregister = undefined
    this.write(TERMINAL_SEQUENCES.eraseLine)
  }
}
