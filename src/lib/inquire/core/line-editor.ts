// The pure line-editing core (reedline's core_editor): a text buffer that may
// hold several lines, a cursor, the kill ring, vi's register and undo/redo.
// The keymaps hand it EditCommand data (./edit-command.ts) through `apply`;
// the renderer reads `text` and `cursor`. No I/O.
//
// Invariants: `cursor` is a UTF-16 offset in [0, text.length] that always
// sits on a grapheme boundary; undoing back to the start restores the text
// the editor was created with.
//
// Emacs semantics follow GNU readline (the SPEC's reference): consecutive
// kills grow one kill-ring entry, yank-pop works only right after a yank,
// transpose at the end of a line swaps the two characters before the cursor,
// case commands act from the cursor to the end of the word.
import {displayWidth} from '../text.js'
import {applyEditCommand, type EditCommand, type ViRegister} from './edit-command.js'
import {EditStack, startsNewStep, type UndoBehavior} from './edit-stack.js'
import {KillRing} from './kill-ring.js'
import {bigWordStart, isWordChar, segments, wordEnd, wordStart} from './words.js'
import {graphemeSegments} from '../../text/graphemes.js'

type Command = 'kill' | 'yank' | 'vertical' | 'other'

/** One change to the buffer: [start, end) of the text before it became `text`. */
export interface TextChange {
  start: number
  end: number
  text: string
}

/** The changes a layout can follow instead of reading the whole buffer again (render/buffer-layout.ts). */
export interface ChangeSource {
  readonly revision: number
  /** The changes after `revision`, in order; undefined when they are no longer kept (lay everything out again). */
  changesSince(revision: number): readonly TextChange[] | undefined
}

/** How many changes are kept for a layout that has fallen behind. */
const KEPT_CHANGES = 32


export class LineEditor implements ChangeSource {
  private buffer: string
  private point: number
  private readonly stack: EditStack
  private readonly ring = new KillRing()
  private lastBehavior: UndoBehavior = {kind: 'other'}
  /** The command before the one running now (readline's rl_last_func). */
  private lastCommand: Command = 'other'
  /** Bounds of the text the last yank/yank-pop inserted. */
  private yanked: {start: number; end: number} | undefined
  /** Display column kept across consecutive Up/Down. */
  private goalColumn: number | undefined
  /** The latest changes, for changesSince(); `revision` counts every change ever made. */
  private changes: TextChange[] = []
  private changeCount = 0
  /** vi's unnamed register (d, c, x, p), apart from the kill ring. */
  private readonly register: ViRegister = {text: '', linewise: false}

  constructor(text = '', cursor = text.length) {
    this.buffer = text
    this.point = 0
    this.point = this.snap(Math.max(0, Math.min(cursor, text.length)))
    this.stack = new EditStack({text: this.buffer, cursor: this.point})
  }

  get text(): string {
    return this.buffer
  }

  get revision(): number {
    return this.changeCount
  }

  changesSince(revision: number): readonly TextChange[] | undefined {
    const behind = this.changeCount - revision
    if (behind < 0 || behind > this.changes.length) return undefined
    return this.changes.slice(this.changes.length - behind)
  }

  private recordChange(change: TextChange): void {
    this.changeCount++
    this.changes.push(change)
    if (this.changes.length > KEPT_CHANGES) this.changes.splice(0, this.changes.length - KEPT_CHANGES)
  }

  get cursor(): number {
    return this.point
  }

  get isEmpty(): boolean {
    return this.buffer.length === 0
  }

  /** Number of entries in the kill ring (for tests and diagnostics). */
  get killRingSize(): number {
    return this.ring.size
  }

  /** Runs one edit command (the keymaps' only way to change the buffer). */
  apply(command: EditCommand): void {
    applyEditCommand(this, command, this.register)
  }

  // ---- queries -------------------------------------------------------------

  /** Offset where the line containing `offset` starts. */
  lineStart(offset = this.point): number {
    // lastIndexOf treats a negative fromIndex as 0, which would find a '\n' at 0.
    if (offset <= 0) return 0
    return this.buffer.lastIndexOf('\n', offset - 1) + 1
  }

  /** Offset where the line containing `offset` ends (before its CR LF / LF). */
  lineEnd(offset = this.point): number {
    const nl = this.buffer.indexOf('\n', offset)
    if (nl === -1) return this.buffer.length
    return nl > 0 && this.buffer[nl - 1] === '\r' && nl - 1 >= this.lineStart(offset) ? nl - 1 : nl
  }

  isOnFirstLine(): boolean {
    return this.point === 0 || this.buffer.lastIndexOf('\n', this.point - 1) === -1
  }

  isOnLastLine(): boolean {
    return this.buffer.indexOf('\n', this.point) === -1
  }

  /** Zero-based line of the cursor. */
  get lineIndex(): number {
    let n = 0
    for (let i = this.buffer.indexOf('\n'); i !== -1 && i < this.point; i = this.buffer.indexOf('\n', i + 1)) n++
    return n
  }

  /** Display column of the cursor within its line (East-Asian width). */
  get column(): number {
    return displayWidth(this.buffer.slice(this.lineStart(), this.point))
  }

  /** Grapheme boundary at or before `offset`. Graphemes never span a newline, so one line suffices. */
  snap(offset: number): number {
    if (offset >= this.buffer.length) return this.buffer.length
    if (offset <= 0) return 0
    if (this.buffer[offset - 1] === '\r' && this.buffer[offset] === '\n') return offset - 1
    const start = this.lineStart(offset)
    const nl = this.buffer.indexOf('\n', offset)
    const lineEnd = nl === -1 ? this.buffer.length : nl
    if (offset === lineEnd) return offset
    let last = start
    for (const {index} of graphemeSegments(this.buffer.slice(start, lineEnd))) {
      if (start + index > offset) break
      last = start + index
    }
    return last
  }

  /** The boundary after `offset` (text.length stays). */
  nextBoundary(offset = this.point): number {
    if (offset >= this.buffer.length) return this.buffer.length
    if (this.buffer.startsWith('\r\n', offset)) return offset + 2
    if (this.buffer[offset] === '\n') return offset + 1
    const start = this.lineStart(offset)
    const line = this.buffer.slice(start, this.lineEnd(offset))
    for (const {index, segment} of graphemeSegments(line)) {
      if (start + index + segment.length > offset) return start + index + segment.length
    }
    return this.lineEnd(offset)
  }

  /** The boundary before `offset` (0 stays). */
  prevBoundary(offset = this.point): number {
    if (offset <= 0) return 0
    if (this.buffer[offset - 1] === '\n') return offset >= 2 && this.buffer[offset - 2] === '\r' ? offset - 2 : offset - 1
    const start = this.lineStart(offset)
    const line = this.buffer.slice(start, offset)
    let prev = start
    for (const {index} of graphemeSegments(line)) prev = start + index
    return prev
  }

  // ---- bookkeeping ---------------------------------------------------------

  /** Starts a command: remembers what ran before it (for kill/yank chains). */
  private begin(kind: Command): Command {
    const previous = this.lastCommand
    this.lastCommand = kind
    if (kind !== 'vertical') this.goalColumn = undefined
    return previous
  }

  /**
   * Tells the editor a key ran that is not an editor command (e.g. redraw),
   * which ends a kill or yank chain as in readline.
   */
  breakChain(): void {
    this.begin('other')
  }

  private moveTo(offset: number): void {
    this.point = offset
    this.stack.moveCursor(offset)
    // Typing after a motion starts a new undo step.
    this.lastBehavior = {kind: 'move'}
  }

  /** Replaces [start, end) with `text`, leaves the cursor at `cursor`, records undo. */
  private edit(start: number, end: number, text: string, cursor: number, behavior: UndoBehavior): string {
    const removed = this.buffer.slice(start, end)
    this.buffer = this.buffer.slice(0, start) + text + this.buffer.slice(end)
    this.recordChange({start, end, text})
    this.point = this.snap(cursor)
    const snapshot = {text: this.buffer, cursor: this.point}
    if (startsNewStep(this.lastBehavior, behavior)) this.stack.push(snapshot)
    else this.stack.replace(snapshot)
    this.lastBehavior = behavior
    return removed
  }

  /** The single grapheme `s` is, or undefined when it is empty or several. */
  private single(s: string): string | undefined {
    if (s === '') return undefined
    const it = graphemeSegments(s)[Symbol.iterator]()
    it.next()
    return it.next().done ? s : undefined
  }

  private kill(start: number, end: number, direction: 'forward' | 'backward', previous: Command): void {
    this.lastCommand = 'kill'
    if (start === end) {
      // readline: an empty kill still counts as a kill for appending.
      if (previous === 'kill') this.ring.add('', direction, true)
      return
    }
    const removed = this.edit(start, end, '', start, {kind: 'other'})
    this.ring.add(removed, direction, previous === 'kill')
  }

  // ---- motions -------------------------------------------------------------

  setCursor(offset: number): void {
    this.begin('other')
    this.moveTo(this.snap(Math.max(0, Math.min(offset, this.buffer.length))))
  }

  moveLeft(): void {
    this.begin('other')
    this.moveTo(this.prevBoundary())
  }

  moveRight(): void {
    this.begin('other')
    this.moveTo(this.nextBoundary())
  }

  moveWordLeft(): void {
    this.begin('other')
    this.moveTo(wordStart(this.buffer, this.point))
  }

  moveWordRight(): void {
    this.begin('other')
    this.moveTo(wordEnd(this.buffer, this.point))
  }

  moveLineStart(): void {
    this.begin('other')
    this.moveTo(this.lineStart())
  }

  moveLineEnd(): void {
    this.begin('other')
    this.moveTo(this.lineEnd())
  }

  moveBufferStart(): void {
    this.begin('other')
    this.moveTo(0)
  }

  moveBufferEnd(): void {
    this.begin('other')
    this.moveTo(this.buffer.length)
  }

  /** Moves to the previous line at the same display column; false on the first line. */
  moveUp(): boolean {
    if (this.isOnFirstLine()) {
      this.begin('other')
      return false
    }
    return this.moveVertical(this.lineStart(this.lineStart() - 1))
  }

  /** Moves to the next line at the same display column; false on the last line. */
  moveDown(): boolean {
    if (this.isOnLastLine()) {
      this.begin('other')
      return false
    }
    return this.moveVertical(this.buffer.indexOf('\n', this.point) + 1)
  }

  private moveVertical(targetLineStart: number): boolean {
    const goal = this.goalColumn ?? this.column
    this.begin('vertical')
    this.goalColumn = goal
    const line = this.buffer.slice(targetLineStart, this.lineEnd(targetLineStart))
    let width = 0
    let offset = targetLineStart
    for (const {index, segment} of graphemeSegments(line)) {
      const w = displayWidth(segment)
      // Stop before a wide character that would overshoot the goal column.
      if (width + w > goal) break
      width += w
      offset = targetLineStart + index + segment.length
    }
    this.moveTo(offset)
    return true
  }

  // ---- insertion -----------------------------------------------------------

  /** Inserts `text` at the cursor (typed or pasted); the cursor ends after it. */
  insert(text: string): void {
    this.begin('other')
    if (text === '') return
    const g = this.single(text)
    this.edit(this.point, this.point, text, this.point + text.length, g === undefined ? {kind: 'other'} : {kind: 'insert', char: g})
  }

  insertNewline(): void {
    this.insert('\n')
  }

  /** Replaces the whole buffer (history navigation); undoable, cursor at the end. */
  setText(text: string, cursor = text.length): void {
    this.begin('other')
    this.edit(0, this.buffer.length, text, Math.max(0, Math.min(cursor, text.length)), {kind: 'history'})
  }

  // ---- deletion ------------------------------------------------------------

  /** Backspace: deletes the grapheme before the cursor. */
  deleteBackward(): boolean {
    this.begin('other')
    const start = this.prevBoundary()
    if (start === this.point) return false
    const g = this.buffer.slice(start, this.point)
    this.edit(start, this.point, '', start, {kind: 'backspace', char: g})
    return true
  }

  /** Delete: deletes the grapheme under the cursor. */
  deleteForward(): boolean {
    this.begin('other')
    const end = this.nextBoundary()
    if (end === this.point) return false
    const g = this.buffer.slice(this.point, end)
    this.edit(this.point, end, '', this.point, {kind: 'delete', char: g})
    return true
  }

  /** Deletes [start, end) without touching the kill ring; returns the removed text. */
  deleteRange(start: number, end: number, cursor = start): string {
    this.begin('other')
    const s = this.snap(Math.max(0, Math.min(start, end)))
    const e = this.snap(Math.min(this.buffer.length, Math.max(start, end)))
    return this.edit(s, e, '', cursor === start ? s : cursor, {kind: 'other'})
  }

  /** Inserts `text` at `offset` leaving the cursor at `cursor` (vi put). */
  insertAt(offset: number, text: string, cursor: number): void {
    this.begin('other')
    const at = this.snap(Math.max(0, Math.min(offset, this.buffer.length)))
    this.edit(at, at, text, cursor, {kind: 'other'})
  }

  // ---- kills and yanks -----------------------------------------------------

  /** Ctrl+K: kill to the end of the line; at the end, join the next line. */
  killLineEnd(): void {
    const previous = this.begin('kill')
    const end = this.lineEnd()
    const stop = end === this.point ? this.nextBoundary() : end
    this.kill(this.point, stop, 'forward', previous)
  }

  /** Ctrl+U: kill from the start of the line to the cursor. */
  killLineStart(): void {
    const previous = this.begin('kill')
    this.kill(this.lineStart(), this.point, 'backward', previous)
  }

  /** Alt+Backspace: kill the alphanumeric word left of the cursor. */
  killWordBackward(): void {
    const previous = this.begin('kill')
    this.kill(wordStart(this.buffer, this.point), this.point, 'backward', previous)
  }

  /** Alt+D: kill to the end of the alphanumeric word right of the cursor. */
  killWordForward(): void {
    const previous = this.begin('kill')
    this.kill(this.point, wordEnd(this.buffer, this.point), 'forward', previous)
  }

  /** Ctrl+W: kill the whitespace-delimited word left of the cursor. */
  killBigWordBackward(): void {
    const previous = this.begin('kill')
    this.kill(bigWordStart(this.buffer, this.point), this.point, 'backward', previous)
  }

  /** Ctrl+Y: insert the current kill-ring entry. */
  yank(): boolean {
    this.begin('yank')
    const text = this.ring.current()
    if (text === undefined || text === '') return false
    const start = this.point
    this.edit(start, start, text, start + text.length, {kind: 'other'})
    this.yanked = {start, end: start + text.length}
    return true
  }

  /** Alt+Y: right after a yank, replace the yanked text with the next older entry. */
  yankPop(): boolean {
    const previous = this.begin('yank')
    if (previous !== 'yank' || !this.yanked || this.ring.size === 0) {
      this.lastCommand = 'other'
      return false
    }
    const text = this.ring.rotate() ?? ''
    const {start, end} = this.yanked
    this.edit(start, end, text, start + text.length, {kind: 'other'})
    this.yanked = {start, end: start + text.length}
    return true
  }

  // ---- transforms ----------------------------------------------------------

  /** Ctrl+T: swap the graphemes around the cursor (the last two at a line end). */
  transpose(): boolean {
    this.begin('other')
    const lineStart = this.lineStart()
    if (this.point === lineStart) return false
    let mid = this.point
    if (mid === this.lineEnd()) mid = this.prevBoundary(mid)
    if (mid === lineStart) return false
    const left = this.prevBoundary(mid)
    const right = this.nextBoundary(mid)
    const a = this.buffer.slice(left, mid)
    const b = this.buffer.slice(mid, right)
    this.edit(left, right, b + a, right, {kind: 'other'})
    return true
  }

  upcaseWord(): void {
    this.changeCase((g) => g.toUpperCase())
  }

  downcaseWord(): void {
    this.changeCase((g) => g.toLowerCase())
  }

  /**
   * Alt+C: from the cursor to the end of the word, the first letter or digit
   * of each word goes upper case and the rest lower (readline: starting mid
   * word capitalizes the letter under the cursor).
   */
  capitalizeWord(): void {
    let inWord = false
    this.changeCase((g) => {
      if (!isWordChar(g)) {
        inWord = false
        return g
      }
      const out = inWord ? g.toLowerCase() : titleCase(g)
      inWord = true
      return out
    })
  }

  private changeCase(map: (g: string) => string): void {
    this.begin('other')
    const end = wordEnd(this.buffer, this.point)
    if (end === this.point) return
    let out = ''
    for (const {segment} of segments(this.buffer.slice(this.point, end))) out += map(segment)
    this.edit(this.point, end, out, this.point + out.length, {kind: 'other'})
  }

  // ---- undo ----------------------------------------------------------------

  undo(): void {
    this.begin('other')
    this.restore(this.stack.undo())
  }

  redo(): void {
    this.begin('other')
    this.restore(this.stack.redo())
  }

  private restore(s: {text: string; cursor: number}): void {
    if (s.text !== this.buffer) this.recordChange({start: 0, end: this.buffer.length, text: s.text})
    this.buffer = s.text
    this.point = s.cursor
    // The next edit always starts a fresh step after an undo/redo.
    this.lastBehavior = {kind: 'other'}
  }
}

/** Upper-cases the first character of a grapheme's upper-case form ("ß" → "Ss"). */
function titleCase(g: string): string {
  const upper = g.toUpperCase()
  const first = String.fromCodePoint(upper.codePointAt(0)!)
  return first + upper.slice(first.length).toLowerCase()
}
