// Input read from the terminal but not consumed by whoever read it (SPEC
// §18: keys that arrive in the same read as a menu key go to the prompt that
// key opens). A terminal's own line discipline keeps unread input for the
// next reader; jp reads the terminal in raw mode through several readers in
// turn (a menu, the reply it opens, the Ctrl+C key reader), so what one
// reader read past its answer is kept here, in order, and the next reader
// takes it before reading the terminal itself.
//
// In a process-wide slot (process/slots.ts): oclif can load this module twice (src and dist).
import {slot} from '../process/slots.js'

function state(): {pending: string} {
  return slot('terminalTypeahead', () => ({pending: ''}))
}

/** Keeps raw input a reader did not consume (after what is kept already). */
export function keepTypeahead(input: string): void {
  if (input !== '') state().pending += input
}

/** Takes (and forgets) the input kept for the next reader; '' when there is none. */
export function takeTypeahead(): string {
  const s = state()
  const input = s.pending
  s.pending = ''
  return input
}
