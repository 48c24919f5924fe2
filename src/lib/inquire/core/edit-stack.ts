// Undo/redo as reedline's edit stack: a list of buffer snapshots and an index.
// Whether an edit starts a new undo step or extends the current one is
// decided by comparing it with the previous edit (UndoBehavior below).

export interface Snapshot {
  text: string
  cursor: number
}

/**
 * What the last edit was, for grouping. `char` is the grapheme inserted or
 * deleted when the edit touched exactly one; otherwise undefined.
 */
export type UndoBehavior =
  | {kind: 'insert'; char: string}
  | {kind: 'backspace'; char?: string}
  | {kind: 'delete'; char?: string}
  | {kind: 'move'}
  | {kind: 'history'}
  | {kind: 'other'}

const isNewline = (c: string): boolean => c === '\n' || c === '\r' || c === '\r\n'
const isSpace = (c: string): boolean => /^\s+$/u.test(c)

/**
 * True when `next` after `prev` begins a new undo step. Typing groups a word
 * with the whitespace before it (a step ends where whitespace follows a
 * non-space character), a newline always starts a fresh step, and cursor
 * motion never creates one on its own.
 */
export function startsNewStep(prev: UndoBehavior, next: UndoBehavior): boolean {
  if (next.kind === 'move') return false
  if (prev.kind === 'history' && next.kind === 'history') return false
  if (prev.kind === 'insert' && next.kind === 'insert') {
    return isNewline(prev.char) || (!isSpace(prev.char) && isSpace(next.char))
  }
  if (prev.kind === 'backspace' && next.kind === 'backspace') {
    if (prev.char === undefined || next.char === undefined) return false
    return isNewline(next.char) || (isSpace(prev.char) && !isSpace(next.char))
  }
  if (prev.kind === 'delete' && next.kind === 'delete') {
    if (prev.char === undefined || next.char === undefined) return false
    return isNewline(next.char) || (isSpace(prev.char) && !isSpace(next.char))
  }
  return true
}

export class EditStack {
  private states: Snapshot[]
  private index = 0

  constructor(initial: Snapshot) {
    this.states = [initial]
  }

  /** Adds a new step after the current one, dropping any redo history. */
  push(state: Snapshot): void {
    this.states.length = this.index + 1
    this.states.push(state)
    this.index++
  }

  /** Overwrites the current step (drops redo history too). */
  replace(state: Snapshot): void {
    this.states.length = this.index + 1
    this.states[this.index] = state
  }

  /** Records a cursor move on the current step, keeping redo history. */
  moveCursor(cursor: number): void {
    this.states[this.index] = {...this.states[this.index], cursor}
  }

  undo(): Snapshot {
    if (this.index > 0) this.index--
    return this.states[this.index]
  }

  redo(): Snapshot {
    if (this.index < this.states.length - 1) this.index++
    return this.states[this.index]
  }
}
