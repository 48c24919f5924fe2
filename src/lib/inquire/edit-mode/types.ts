// The contract between keymaps and the prompt (docs/architecture.md "Edit modes").
import type {KeyActionName} from '../../config/key-actions.js'
import type {KeyBindings, Keymap, KeymapName} from '../../config/keymaps.js'
import type {LineEditor} from '../core/line-editor.js'
import type {Key} from '../keys.js'

/**
 * What the prompt should do after a key: 'changed' (text changed; repaint),
 * 'moved' (only the cursor moved, or the mode changed), 'redraw' (repaint
 * everything), 'none' (nothing happened), or end the prompt / walk or search
 * history.
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
  | {type: 'history-search'}
  | {type: 'complete'}
  | {type: 'complete-next'}
  | {type: 'complete-prev'}

export interface EditModeHandler {
  /** Turns a key into an action of the current table and runs it on the editor. */
  handle(key: Key, editor: LineEditor): EditAction
  /** Terminal cursor shape to show now (vi: bar in insert, block in normal). */
  readonly cursorShape: 'bar' | 'block'
  /** The table keys are looked up in now ('emacs', or vi's 'vi_insert' / 'vi_normal'). */
  readonly table: KeymapName
  /** That table's bindings (canonical key spec → action), for the help line. */
  readonly keymap: Keymap
  /** What `key` alone is bound to in the current table, without acting (the history search asks). */
  actionOf(key: Key): KeyActionName | undefined
}

export interface EditModeOptions {
  /** open_editor (Ctrl+X, Ctrl+G) → open-editor; false leaves those keys doing nothing. Default true. */
  editorEscape?: boolean
  /** The user's `editor.inline.keys` tables, merged over the defaults. */
  bindings?: KeyBindings
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
