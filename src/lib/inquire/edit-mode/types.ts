// The contract between keymaps and the prompt (docs/architecture.md "Edit modes").
import type {LineEditor} from '../core/line-editor.js'
import type {Key} from '../keys.js'

/**
 * What the prompt should do after a key: 'changed' (text changed; repaint),
 * 'moved' (only the cursor moved), 'redraw' (repaint everything), 'none'
 * (nothing happened), or end the prompt / walk history.
 */
export type EditAction =
  | {type: 'none'}
  | {type: 'changed'}
  | {type: 'moved'}
  | {type: 'redraw'}
  | {type: 'submit'}
  | {type: 'cancel'}
  | {type: 'open-editor'}
  | {type: 'history-prev'}
  | {type: 'history-next'}

export interface EditModeHandler {
  handle(key: Key, editor: LineEditor): EditAction
  /** Terminal cursor shape to show now (vi: bar in insert, block in normal). */
  readonly cursorShape: 'bar' | 'block'
}

export interface EditModeOptions {
  /** Ctrl+X → open-editor; false leaves Ctrl+X unbound. Default true. */
  editorEscape?: boolean
}

/** Runs `fn` on the editor and reports whether the text or only the cursor changed. */
export function outcome(editor: LineEditor, fn: () => unknown): EditAction {
  const text = editor.text
  const cursor = editor.cursor
  fn()
  if (editor.text !== text) return {type: 'changed'}
  if (editor.cursor !== cursor) return {type: 'moved'}
  return {type: 'none'}
}

/** A plain (unmodified) key of this name. */
export function plain(key: Key, name: string): boolean {
  return key.name === name && !key.ctrl && !key.meta
}

export function ctrl(key: Key, name: string): boolean {
  return key.name === name && key.ctrl && !key.meta
}

export function alt(key: Key, name: string): boolean {
  return key.name === name && key.meta && !key.ctrl
}

/** Shift+Enter, Alt+Enter (either order of modifiers) and Ctrl+J insert a newline. */
export function isNewlineKey(key: Key): boolean {
  return (key.name === 'enter' && (key.shift || key.meta) && !key.ctrl) || ctrl(key, 'j')
}

export function isSubmitKey(key: Key): boolean {
  return key.name === 'enter' && !key.shift && !key.meta && !key.ctrl
}
