// The vi keymap (SPEC §6): insert and normal modes. The prompt starts in
// insert mode, like reedline. Insert mode is the emacs keymap with Esc
// switching to normal mode (so Ctrl+W, arrows, paste, Enter, Shift/Alt+Enter,
// Ctrl+X and Ctrl+C behave the same). Normal mode has the usual motions and
// operators: h j k l w b e 0 ^ $ x X dd dw db de d$ d0 D cw cc C S p P u
// Ctrl+R i a A I o O. Vi keeps its own unnamed register, separate from the
// emacs kill ring.
import type {LineEditor} from '../core/line-editor.js'
import {viChangeWordEnd, viNextWordStart, viPrevWordStart, viWordEnd} from '../core/words.js'
import type {Key} from '../keys.js'
import {EmacsMode} from './emacs.js'
import {ctrl, type EditAction, type EditModeHandler, type EditModeOptions, isNewlineKey, isSubmitKey, outcome, plain} from './types.js'

interface Register {
  text: string
  /** Whole lines (dd): put goes on its own line. */
  linewise: boolean
}

type Operator = 'd' | 'c'

/** The character a normal-mode key stands for ('l', '$', ...), or undefined for chords. */
function normalChar(key: Key): string | undefined {
  if (key.name === 'char') return key.text
  if (key.ctrl || key.meta) return undefined
  const aliases: Record<string, string> = {left: 'h', right: 'l', up: 'k', down: 'j', home: '0', end: '$', delete: 'x'}
  return aliases[key.name]
}

export class ViMode implements EditModeHandler {
  private mode: 'insert' | 'normal' = 'insert'
  private pending: Operator | undefined
  private register: Register = {text: '', linewise: false}
  private readonly insertKeys: EmacsMode
  private readonly editorEscape: boolean

  constructor(options: EditModeOptions = {}) {
    this.editorEscape = options.editorEscape ?? true
    this.insertKeys = new EmacsMode(options)
  }

  get cursorShape(): 'bar' | 'block' {
    return this.mode === 'insert' ? 'bar' : 'block'
  }

  handle(key: Key, editor: LineEditor): EditAction {
    if (this.mode === 'insert') {
      if (plain(key, 'escape')) {
        this.mode = 'normal'
        // Like vi, leaving insert mode steps back onto the last typed character.
        if (editor.cursor > editor.lineStart()) editor.moveLeft()
        else editor.breakChain()
        // A mode switch repaints the prompt (cursor, help line), never the screen.
        return {type: 'moved'}
      }
      return this.insertKeys.handle(key, editor)
    }
    return this.normal(key, editor)
  }

  private normal(key: Key, editor: LineEditor): EditAction {
    // Bound in both modes.
    if (isSubmitKey(key)) return {type: 'submit'}
    if (ctrl(key, 'c')) return {type: 'cancel'}
    if (ctrl(key, 'x')) return this.editorEscape ? {type: 'open-editor'} : {type: 'none'}
    if (ctrl(key, 'd') && editor.isEmpty) return {type: 'cancel'}
    if (ctrl(key, 'l')) return {type: 'redraw'}
    if (isNewlineKey(key)) return this.enterInsert(editor, () => editor.insertNewline())
    if (key.name === 'paste') return this.clamped(editor, () => editor.insert(key.text ?? ''))
    if (ctrl(key, 'r')) return this.clamped(editor, () => editor.redo())

    const ch = normalChar(key)
    if (ch === undefined || plain(key, 'escape')) {
      this.pending = undefined
      return {type: 'none'}
    }
    if (this.pending) return this.operator(this.pending, ch, editor)

    switch (ch) {
      case 'h': return this.clamped(editor, () => editor.cursor > editor.lineStart() && editor.moveLeft())
      case 'l': return this.clamped(editor, () => this.lastCharStart(editor) > editor.cursor && editor.moveRight())
      case 'k': return editor.isOnFirstLine() ? {type: 'history-prev'} : this.clamped(editor, () => editor.moveUp())
      case 'j': return editor.isOnLastLine() ? {type: 'history-next'} : this.clamped(editor, () => editor.moveDown())
      case 'w': return this.clamped(editor, () => editor.setCursor(viNextWordStart(editor.text, editor.cursor)))
      case 'b': return this.clamped(editor, () => editor.setCursor(viPrevWordStart(editor.text, editor.cursor)))
      case 'e': return this.clamped(editor, () => editor.setCursor(viWordEnd(editor.text, editor.cursor)))
      case '0': return this.clamped(editor, () => editor.moveLineStart())
      case '^': return this.clamped(editor, () => editor.setCursor(this.firstNonBlank(editor)))
      case '$': return this.clamped(editor, () => editor.moveLineEnd())
      case 'x': return this.clamped(editor, () => this.cut(editor, editor.cursor, Math.min(editor.nextBoundary(), editor.lineEnd()), false))
      case 'X': return this.clamped(editor, () => this.cut(editor, Math.max(editor.prevBoundary(), editor.lineStart()), editor.cursor, false))
      case 'D': return this.clamped(editor, () => this.cut(editor, editor.cursor, editor.lineEnd(), false))
      case 'C': return this.enterInsert(editor, () => this.cut(editor, editor.cursor, editor.lineEnd(), false))
      case 'S': return this.enterInsert(editor, () => this.cut(editor, editor.lineStart(), editor.lineEnd(), false))
      case 'd':
      case 'c':
        this.pending = ch
        return {type: 'none'}
      case 'p': return this.clamped(editor, () => this.put(editor, 'after'))
      case 'P': return this.clamped(editor, () => this.put(editor, 'before'))
      case 'u': return this.clamped(editor, () => editor.undo())
      case 'i': return this.enterInsert(editor, () => undefined)
      case 'a': return this.enterInsert(editor, () => editor.cursor < editor.lineEnd() && editor.moveRight())
      case 'A': return this.enterInsert(editor, () => editor.moveLineEnd())
      case 'I': return this.enterInsert(editor, () => editor.setCursor(this.firstNonBlank(editor)))
      case 'o': return this.enterInsert(editor, () => {
        editor.setCursor(editor.lineEnd())
        editor.insertNewline()
      })
      case 'O': return this.enterInsert(editor, () => {
        const start = editor.lineStart()
        editor.insertAt(start, '\n', start)
      })
      default:
        editor.breakChain()
        return {type: 'none'}
    }
  }

  /** An operator (d/c) followed by its motion. */
  private operator(op: Operator, ch: string, editor: LineEditor): EditAction {
    this.pending = undefined
    const at = editor.cursor
    let range: [number, number] | undefined
    let linewise = false
    switch (ch) {
      case op:
        linewise = true
        break
      case 'w': {
        // cw changes to the end of the word (vi's special case); dw stops at the line end.
        const end = op === 'c' ? viChangeWordEnd(editor.text, at) : Math.min(viNextWordStart(editor.text, at), this.lineEndAt(editor, at))
        range = [at, end]
        break
      }
      case 'e': range = [at, editor.nextBoundary(viWordEnd(editor.text, at))]; break
      case 'b': range = [viPrevWordStart(editor.text, at), at]; break
      case '$': range = [at, editor.lineEnd()]; break
      case '0': range = [editor.lineStart(), at]; break
      case 'h': range = [Math.max(editor.prevBoundary(), editor.lineStart()), at]; break
      case 'l': range = [at, Math.min(editor.nextBoundary(), editor.lineEnd())]; break
      default:
        editor.breakChain()
        return {type: 'none'}
    }
    const run = (): void => {
      if (linewise) this.cutLine(editor, op === 'c')
      else if (range) this.cut(editor, range[0], range[1], false)
    }
    return op === 'c' ? this.enterInsert(editor, run) : this.clamped(editor, run)
  }

  private lineEndAt(editor: LineEditor, offset: number): number {
    return editor.lineEnd(offset)
  }

  /** dd / cc: the whole line goes to the register; cc keeps an empty line to type on. */
  private cutLine(editor: LineEditor, keepLine: boolean): void {
    const start = editor.lineStart()
    const end = editor.lineEnd()
    const text = editor.text
    this.register = {text: text.slice(start, end), linewise: true}
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

  private cut(editor: LineEditor, start: number, end: number, linewise: boolean): void {
    if (end <= start) return
    this.register = {text: editor.text.slice(start, end), linewise}
    editor.deleteRange(start, end)
  }

  private put(editor: LineEditor, where: 'after' | 'before'): void {
    const {text, linewise} = this.register
    if (text === '') return
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

  private firstNonBlank(editor: LineEditor): number {
    const start = editor.lineStart()
    const line = editor.text.slice(start, editor.lineEnd())
    const lead = /^[ \t]*/.exec(line)![0].length
    return start + lead
  }

  /** Start of the last grapheme of the cursor's line (where normal mode's cursor may rest). */
  private lastCharStart(editor: LineEditor): number {
    const end = editor.lineEnd()
    return end === editor.lineStart() ? end : editor.prevBoundary(end)
  }

  private enterInsert(editor: LineEditor, fn: () => unknown): EditAction {
    const result = outcome(editor, fn)
    this.mode = 'insert'
    return result.type === 'none' ? {type: 'moved'} : result
  }

  /** Runs a normal-mode command and keeps the cursor on a character, not past the line end. */
  private clamped(editor: LineEditor, fn: () => unknown): EditAction {
    return outcome(editor, () => {
      fn()
      const last = this.lastCharStart(editor)
      if (editor.cursor > last && editor.cursor === editor.lineEnd()) editor.setCursor(last)
    })
  }
}
