// The escape sequences jp writes to the terminal outside the painter's frame
// diffing (SPEC §18: spelled only in src/lib/terminal/ and the painter).

/**
 * The modes a prompt turns on and off, the status line's erase, the vi/emacs
 * Ctrl+L clear.
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

/**
 * From the first row of a prompt back to where the line above it stopped:
 * one row up, to 0-based column `column` (text printed above a prompt
 * continues the answer's unfinished line there).
 */
export function rowAboveAt(column: number): string {
  return '\u001b[A' + (column > 0 ? `\u001b[${column + 1}G` : '\r')
}

/** A search match on the terminal (`jp conversation grep`): bold red, then every attribute off. */
export const MATCH_ON = '\u001b[1;31m'
export const MATCH_OFF = '\u001b[0m'
