// EditCommand: what the keymaps ask the line editor to do, as data
// (reedline's EditCommand). A keymap turns a key into an action name
// (config/keymaps.ts), the edit mode turns the action into commands, and
// LineEditor.apply runs them; nothing else edits the buffer. Pure.
import type {LineEditor} from './line-editor.js'
import {viChangeWordEnd, viNextWordStart, viPrevWordStart, viWordEnd} from './words.js'

export type Motion =
  | 'left'
  | 'right'
  | 'word_left'
  | 'word_right'
  | 'line_start'
  | 'line_end'
  | 'buffer_start'
  | 'buffer_end'
  | 'up'
  | 'down'
  /** h: left, not past the line start. */
  | 'vi_left'
  /** l: right, not past the line's last character. */
  | 'vi_right'
  | 'vi_word_next'
  | 'vi_word_back'
  | 'vi_word_end'
  | 'first_non_blank'
  /** a: onto the position after the cursor's character (not past the line end). */
  | 'vi_append'

export type KillRange = 'line_end' | 'line_start' | 'word_backward' | 'word_forward' | 'bigword_backward'

/** What a vi delete/change takes into the register, from the cursor. */
export type ViRange =
  | 'char'
  | 'char_before'
  | 'to_line_end'
  | 'to_line_start'
  /** dw: to the next word's start, not past the line end. */
  | 'word'
  /** cw: to the end of the word (vi's special case). */
  | 'change_word'
  | 'word_end'
  | 'word_back'
  /** dd: the line and its line break. */
  | 'line'
  /** cc, S: the line's text, keeping an empty line to type on. */
  | 'line_text'

export type EditCommand =
  | {type: 'insert'; text: string}
  | {type: 'move'; to: Motion}
  | {type: 'delete_backward'}
  | {type: 'delete_forward'}
  | {type: 'kill'; range: KillRange}
  | {type: 'yank'}
  | {type: 'yank_pop'}
  | {type: 'transpose'}
  | {type: 'change_case'; to: 'upper' | 'lower' | 'capital'}
  | {type: 'undo'}
  | {type: 'redo'}
  /** Replaces the whole buffer (history, a search match); one undo step. */
  | {type: 'set_text'; text: string; cursor?: number}
  | {type: 'vi_cut'; range: ViRange}
  | {type: 'vi_put'; where: 'after' | 'before'}
  | {type: 'open_line'; where: 'below' | 'above'}
  /** Leaving vi insert mode: onto the last typed character. */
  | {type: 'vi_step_back'}
  /** vi normal mode: the cursor rests on a character, never past the line's end. */
  | {type: 'vi_clamp'}
  /** A key that edits nothing still ends a kill or yank chain (readline). */
  | {type: 'break_chain'}

/** vi's unnamed register, kept apart from the emacs kill ring. */
export interface ViRegister {
  text: string
  /** Whole lines (dd): put goes on its own line. */
  linewise: boolean
}

/** Runs one command on the editor (LineEditor.apply calls this). */
export function applyEditCommand(editor: LineEditor, command: EditCommand, register: ViRegister): void {
  switch (command.type) {
    case 'insert':
      return editor.insert(command.text)
    case 'move':
      return move(editor, command.to)
    case 'delete_backward':
      editor.deleteBackward()
      return
    case 'delete_forward':
      editor.deleteForward()
      return
    case 'kill':
      return kill(editor, command.range)
    case 'yank':
      editor.yank()
      return
    case 'yank_pop':
      editor.yankPop()
      return
    case 'transpose':
      editor.transpose()
      return
    case 'change_case':
      if (command.to === 'upper') editor.upcaseWord()
      else if (command.to === 'lower') editor.downcaseWord()
      else editor.capitalizeWord()
      return
    case 'undo':
      return editor.undo()
    case 'redo':
      return editor.redo()
    case 'set_text':
      return editor.setText(command.text, command.cursor)
    case 'vi_cut':
      return viCut(editor, command.range, register)
    case 'vi_put':
      return viPut(editor, command.where, register)
    case 'open_line':
      if (command.where === 'below') {
        editor.setCursor(editor.lineEnd())
        editor.insertNewline()
      } else {
        const start = editor.lineStart()
        editor.insertAt(start, '\n', start)
      }
      return
    case 'vi_step_back':
      if (editor.cursor > editor.lineStart()) editor.moveLeft()
      else editor.breakChain()
      return
    case 'vi_clamp': {
      const last = lastCharStart(editor)
      if (editor.cursor > last && editor.cursor === editor.lineEnd()) editor.setCursor(last)
      return
    }
    case 'break_chain':
      return editor.breakChain()
  }
}

function move(editor: LineEditor, to: Motion): void {
  switch (to) {
    case 'left': return editor.moveLeft()
    case 'right': return editor.moveRight()
    case 'word_left': return editor.moveWordLeft()
    case 'word_right': return editor.moveWordRight()
    case 'line_start': return editor.moveLineStart()
    case 'line_end': return editor.moveLineEnd()
    case 'buffer_start': return editor.moveBufferStart()
    case 'buffer_end': return editor.moveBufferEnd()
    case 'up':
      editor.moveUp()
      return
    case 'down':
      editor.moveDown()
      return
    case 'vi_left':
      if (editor.cursor > editor.lineStart()) editor.moveLeft()
      else editor.breakChain()
      return
    case 'vi_right':
      if (lastCharStart(editor) > editor.cursor) editor.moveRight()
      else editor.breakChain()
      return
    case 'vi_word_next': return editor.setCursor(viNextWordStart(editor.text, editor.cursor))
    case 'vi_word_back': return editor.setCursor(viPrevWordStart(editor.text, editor.cursor))
    case 'vi_word_end': return editor.setCursor(viWordEnd(editor.text, editor.cursor))
    case 'first_non_blank': return editor.setCursor(firstNonBlank(editor))
    case 'vi_append':
      if (editor.cursor < editor.lineEnd()) editor.moveRight()
      else editor.breakChain()
      return
  }
}

function kill(editor: LineEditor, range: KillRange): void {
  switch (range) {
    case 'line_end': return editor.killLineEnd()
    case 'line_start': return editor.killLineStart()
    case 'word_backward': return editor.killWordBackward()
    case 'word_forward': return editor.killWordForward()
    case 'bigword_backward': return editor.killBigWordBackward()
  }
}

function viCut(editor: LineEditor, range: ViRange, register: ViRegister): void {
  const at = editor.cursor
  const cut = (start: number, end: number) => {
    if (end <= start) {
      editor.breakChain()
      return
    }
    register.text = editor.text.slice(start, end)
    register.linewise = false
    editor.deleteRange(start, end)
  }
  switch (range) {
    case 'char': return cut(at, Math.min(editor.nextBoundary(), editor.lineEnd()))
    case 'char_before': return cut(Math.max(editor.prevBoundary(), editor.lineStart()), at)
    case 'to_line_end': return cut(at, editor.lineEnd())
    case 'to_line_start': return cut(editor.lineStart(), at)
    case 'word': return cut(at, Math.min(viNextWordStart(editor.text, at), editor.lineEnd(at)))
    case 'change_word': return cut(at, viChangeWordEnd(editor.text, at))
    case 'word_end': return cut(at, editor.nextBoundary(viWordEnd(editor.text, at)))
    case 'word_back': return cut(viPrevWordStart(editor.text, at), at)
    case 'line':
    case 'line_text':
      return cutLine(editor, range === 'line_text', register)
  }
}

/** dd / cc: the whole line goes to the register; cc keeps an empty line to type on. */
function cutLine(editor: LineEditor, keepLine: boolean, register: ViRegister): void {
  const start = editor.lineStart()
  const end = editor.lineEnd()
  const text = editor.text
  register.text = text.slice(start, end)
  register.linewise = true
  if (keepLine) {
    editor.deleteRange(start, end)
    return
  }
  if (end < text.length) {
    // Remove the line and its line break; the cursor lands on the next line.
    editor.deleteRange(start, editor.nextBoundary(end))
  } else if (start > 0) {
    // Last line: remove the break before it; the cursor goes to the previous line's start.
    const prevStart = editor.lineStart(start - 1)
    editor.deleteRange(editor.prevBoundary(start), end)
    editor.setCursor(prevStart)
  } else {
    editor.deleteRange(start, end)
  }
}

function viPut(editor: LineEditor, where: 'after' | 'before', register: ViRegister): void {
  const {text, linewise} = register
  if (text === '') return editor.breakChain()
  if (linewise) {
    if (where === 'after') {
      const end = editor.lineEnd()
      editor.insertAt(end, '\n' + text, end + 1)
    } else {
      const start = editor.lineStart()
      editor.insertAt(start, text + '\n', start)
    }
    return
  }
  const at = where === 'after' && editor.cursor < editor.lineEnd() ? editor.nextBoundary() : editor.cursor
  // The cursor ends on the last put character, as in vi.
  editor.insertAt(at, text, at + text.length)
  editor.moveLeft()
}

function firstNonBlank(editor: LineEditor): number {
  const start = editor.lineStart()
  const line = editor.text.slice(start, editor.lineEnd())
  return start + /^[ \t]*/.exec(line)![0].length
}

/** Start of the last grapheme of the cursor's line (where normal mode's cursor may rest). */
function lastCharStart(editor: LineEditor): number {
  const end = editor.lineEnd()
  return end === editor.lineStart() ? end : editor.prevBoundary(end)
}
