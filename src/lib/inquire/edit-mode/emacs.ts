// The emacs keymap (SPEC §6): readline's bindings over LineEditor, plus jp's
// Enter/Shift+Enter/Ctrl+X/Ctrl+C. Esc and Ctrl+Q are deliberately unbound.
import type {LineEditor} from '../core/line-editor.js'
import type {Key} from '../keys.js'
import {ctrl, type EditAction, type EditModeHandler, type EditModeOptions, isNewlineKey, isSubmitKey, outcome, plain} from './types.js'

type Command = (editor: LineEditor) => unknown

/** Key id: modifiers then name, e.g. 'C-a', 'M-b', 'C-M-h', 'left'. */
function keyId(key: Key): string {
  return (key.ctrl ? 'C-' : '') + (key.meta ? 'M-' : '') + key.name
}

const EDITS: Record<string, Command> = {
  // motion
  'C-a': (e) => e.moveLineStart(),
  home: (e) => e.moveLineStart(),
  'C-e': (e) => e.moveLineEnd(),
  end: (e) => e.moveLineEnd(),
  'C-b': (e) => e.moveLeft(),
  left: (e) => e.moveLeft(),
  'C-f': (e) => e.moveRight(),
  right: (e) => e.moveRight(),
  'M-b': (e) => e.moveWordLeft(),
  'C-left': (e) => e.moveWordLeft(),
  'M-left': (e) => e.moveWordLeft(),
  'M-f': (e) => e.moveWordRight(),
  'C-right': (e) => e.moveWordRight(),
  'M-right': (e) => e.moveWordRight(),
  'M-<': (e) => e.moveBufferStart(),
  'C-home': (e) => e.moveBufferStart(),
  'M->': (e) => e.moveBufferEnd(),
  'C-end': (e) => e.moveBufferEnd(),
  // editing
  backspace: (e) => e.deleteBackward(),
  'C-h': (e) => e.deleteBackward(),
  delete: (e) => e.deleteForward(),
  'C-w': (e) => e.killBigWordBackward(),
  'M-backspace': (e) => e.killWordBackward(),
  'C-backspace': (e) => e.killWordBackward(),
  'M-d': (e) => e.killWordForward(),
  'C-delete': (e) => e.killWordForward(),
  'C-k': (e) => e.killLineEnd(),
  'C-u': (e) => e.killLineStart(),
  'C-y': (e) => e.yank(),
  'M-y': (e) => e.yankPop(),
  'C-t': (e) => e.transpose(),
  'M-u': (e) => e.upcaseWord(),
  'M-l': (e) => e.downcaseWord(),
  'M-c': (e) => e.capitalizeWord(),
  'C-_': (e) => e.undo(),
  'C-z': (e) => e.undo(),
  'C-g': (e) => e.redo(),
}

export class EmacsMode implements EditModeHandler {
  readonly cursorShape = 'bar' as const
  private readonly editorEscape: boolean

  constructor(options: EditModeOptions = {}) {
    this.editorEscape = options.editorEscape ?? true
  }

  handle(key: Key, editor: LineEditor): EditAction {
    if (key.name === 'char') return outcome(editor, () => editor.insert(key.text ?? ''))
    if (key.name === 'paste') return outcome(editor, () => editor.insert(key.text ?? ''))
    if (isSubmitKey(key)) return {type: 'submit'}
    if (isNewlineKey(key)) return outcome(editor, () => editor.insertNewline())
    if (ctrl(key, 'c')) return {type: 'cancel'}
    if (ctrl(key, 'd')) {
      if (editor.isEmpty) return {type: 'cancel'}
      return outcome(editor, () => editor.deleteForward())
    }
    if (ctrl(key, 'x')) {
      if (this.editorEscape) return {type: 'open-editor'}
      editor.breakChain()
      return {type: 'none'}
    }
    if (plain(key, 'up') || ctrl(key, 'p')) {
      if (editor.isOnFirstLine()) {
        editor.breakChain()
        return {type: 'history-prev'}
      }
      return outcome(editor, () => editor.moveUp())
    }
    if (plain(key, 'down') || ctrl(key, 'n')) {
      if (editor.isOnLastLine()) {
        editor.breakChain()
        return {type: 'history-next'}
      }
      return outcome(editor, () => editor.moveDown())
    }
    if (ctrl(key, 'l')) {
      editor.breakChain()
      return {type: 'redraw'}
    }
    // Shift is ignored here (it only matters for Enter): Shift+Home acts as Home.
    const command = EDITS[keyId(key)]
    if (command) return outcome(editor, () => command(editor))
    // Unbound keys (Esc, Ctrl+Q, F-keys, ...) do nothing but still end a kill chain.
    editor.breakChain()
    return {type: 'none'}
  }
}
