// Messages for one-line reports. Every `Error: ...` line, warning and notice
// jp prints is a single line (SPEC §11): a message with line breaks would
// break grep and the terminal layout, so each caller folds it here.

/** `s` on one line: each line break and the blanks around it become one space. */
export function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').trim()
}

/** The message of a thrown value: an Error's message, else its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The message of a thrown value, on one line. */
export function errorLine(error: unknown): string {
  return oneLine(errorMessage(error))
}
