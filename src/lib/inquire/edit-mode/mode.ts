// The edit mode: key → action (the mode's table) → EditCommands applied by
// the LineEditor, or an event for the prompt (submit, cancel, open the
// editor, walk or search history). One class serves emacs and vi; vi
// switches between its two tables (vi_insert, vi_normal), and the prompt
// starts in insert mode, like reedline.
//
// Vi normal mode keeps the cursor on a character (never past the line's
// end) after every command that stays in normal mode. A key that continues
// no sequence after a sequence's first key: in vi_normal both are dropped (vi
// drops `dx`); elsewhere the first key acts alone (a printable character is
// typed, so "j j" = "vi_normal_mode" still lets you type "jx") and the new
// key then acts as usual.
import {KEY_ACTIONS, type KeyActionName} from '../../config/key-actions.js'
import {effectiveKeymap, type Keymap, type KeymapName} from '../../config/keymaps.js'
import type {EditMode} from '../../config/types.js'
import type {EditCommand} from '../core/edit-command.js'
import type {LineEditor} from '../core/line-editor.js'
import type {Key} from '../keys.js'
import {KeySequenceReader} from './keymap.js'
import {type EditAction, type EditModeHandler, type EditModeOptions, outcome} from './types.js'

const mv = (to: Extract<EditCommand, {type: 'move'}>['to']): EditCommand[] => [{type: 'move', to}]
const cut = (range: Extract<EditCommand, {type: 'vi_cut'}>['range']): EditCommand[] => [{type: 'vi_cut', range}]

/** What each editing action asks of the line editor (the prompt's own actions are handled in `run`). */
const COMMANDS: Partial<Record<KeyActionName, EditCommand[]>> = {
  move_left: mv('left'),
  move_right: mv('right'),
  move_word_left: mv('word_left'),
  move_word_right: mv('word_right'),
  move_line_start: mv('line_start'),
  move_line_end: mv('line_end'),
  move_buffer_start: mv('buffer_start'),
  move_buffer_end: mv('buffer_end'),
  move_up: mv('up'),
  move_down: mv('down'),
  delete_backward: [{type: 'delete_backward'}],
  delete_forward: [{type: 'delete_forward'}],
  kill_line_end: [{type: 'kill', range: 'line_end'}],
  kill_line_start: [{type: 'kill', range: 'line_start'}],
  kill_word_backward: [{type: 'kill', range: 'word_backward'}],
  kill_word_forward: [{type: 'kill', range: 'word_forward'}],
  kill_bigword_backward: [{type: 'kill', range: 'bigword_backward'}],
  yank: [{type: 'yank'}],
  yank_pop: [{type: 'yank_pop'}],
  transpose_chars: [{type: 'transpose'}],
  upcase_word: [{type: 'change_case', to: 'upper'}],
  downcase_word: [{type: 'change_case', to: 'lower'}],
  capitalize_word: [{type: 'change_case', to: 'capital'}],
  undo: [{type: 'undo'}],
  redo: [{type: 'redo'}],
  newline: [{type: 'insert', text: '\n'}],
  vi_normal_mode: [{type: 'vi_step_back'}],
  vi_insert: [],
  vi_append: mv('vi_append'),
  vi_append_line_end: mv('line_end'),
  vi_insert_line_start: mv('first_non_blank'),
  vi_open_line_below: [{type: 'open_line', where: 'below'}],
  vi_open_line_above: [{type: 'open_line', where: 'above'}],
  vi_left: mv('vi_left'),
  vi_right: mv('vi_right'),
  vi_word_next: mv('vi_word_next'),
  vi_word_back: mv('vi_word_back'),
  vi_word_end: mv('vi_word_end'),
  vi_first_non_blank: mv('first_non_blank'),
  vi_delete_char: cut('char'),
  vi_delete_char_before: cut('char_before'),
  vi_delete_to_line_end: cut('to_line_end'),
  vi_delete_to_line_start: cut('to_line_start'),
  vi_delete_line: cut('line'),
  vi_delete_word: cut('word'),
  vi_delete_word_end: cut('word_end'),
  vi_delete_word_back: cut('word_back'),
  vi_change_char: cut('char'),
  vi_change_char_before: cut('char_before'),
  vi_change_to_line_end: cut('to_line_end'),
  vi_change_to_line_start: cut('to_line_start'),
  vi_change_line: cut('line_text'),
  vi_change_word: cut('change_word'),
  vi_change_word_end: cut('word_end'),
  vi_change_word_back: cut('word_back'),
  vi_put_after: [{type: 'vi_put', where: 'after'}],
  vi_put_before: [{type: 'vi_put', where: 'before'}],
}

/** In vi normal mode a new line goes after the cursor's character, as vim's `a` then Enter. */
const NORMAL_NEWLINE: EditCommand[] = [{type: 'move', to: 'vi_append'}, {type: 'insert', text: '\n'}]

export class KeymapEditMode implements EditModeHandler {
  private current: KeymapName
  private readonly readers: Partial<Record<KeymapName, KeySequenceReader>> = {}
  private readonly editorEscape: boolean
  private readonly vi: boolean

  constructor(mode: EditMode, private readonly options: EditModeOptions = {}) {
    this.editorEscape = options.editorEscape ?? true
    this.vi = mode === 'vi'
    this.current = this.vi ? 'vi_insert' : 'emacs'
  }

  get cursorShape(): 'bar' | 'block' {
    return this.current === 'vi_normal' ? 'block' : 'bar'
  }

  get table(): KeymapName {
    return this.current
  }

  get keymap(): Keymap {
    return this.reader().keymap
  }

  actionOf(key: Key): KeyActionName | undefined {
    return this.reader().peek(key)
  }

  private reader(table: KeymapName = this.current): KeySequenceReader {
    // Built on first use: an emacs prompt never builds the vi tables.
    this.readers[table] ??= new KeySequenceReader(effectiveKeymap(table, this.options.bindings?.[table]))
    return this.readers[table]
  }

  handle(key: Key, editor: LineEditor): EditAction {
    const normal = this.current === 'vi_normal'
    if (key.name === 'paste') return this.edit(editor, [{type: 'insert', text: key.text ?? ''}], undefined)
    const r = this.reader().read(key)
    switch (r.type) {
      case 'pending':
        return {type: 'none'}
      case 'action':
        return this.run(r.action, editor)
      case 'unbound':
        return this.unbound(key, editor)
      case 'broken': {
        editor.breakChain()
        if (normal) return {type: 'none'}
        const first = this.unbound(r.first, editor)
        return combine(first, this.handle(r.key, editor))
      }
    }
  }

  /** A key no binding claims: a printable character types itself where the mode inserts. */
  private unbound(key: Key, editor: LineEditor): EditAction {
    if (key.name === 'char' && this.current !== 'vi_normal') return outcome(editor, () => editor.apply({type: 'insert', text: key.text ?? ''}))
    // Esc, Ctrl+Q, F-keys, ... do nothing but still end a kill chain.
    editor.breakChain()
    return {type: 'none'}
  }

  private run(action: KeyActionName, editor: LineEditor): EditAction {
    const event = (type: EditAction['type']): EditAction => {
      editor.breakChain()
      return {type} as EditAction
    }
    switch (action) {
      case 'submit':
        return {type: 'submit'}
      case 'cancel':
        return {type: 'cancel'}
      case 'open_editor':
        return this.editorEscape ? {type: 'open-editor'} : event('none')
      case 'history_search':
        return event('history-search')
      case 'history_prev':
        return event('history-prev')
      case 'history_next':
        return event('history-next')
      case 'clear_screen':
        return event('redraw')
      case 'complete':
        return event('complete')
      case 'complete_next':
        return event('complete-next')
      case 'complete_prev':
        return event('complete-prev')
      case 'none':
        return event('none')
      case 'move_up_or_history_prev':
        return editor.isOnFirstLine() ? event('history-prev') : this.edit(editor, COMMANDS.move_up!, action)
      case 'move_down_or_history_next':
        return editor.isOnLastLine() ? event('history-next') : this.edit(editor, COMMANDS.move_down!, action)
      case 'delete_forward_or_cancel':
        return editor.isEmpty ? {type: 'cancel'} : this.edit(editor, COMMANDS.delete_forward!, action)
      case 'cancel_if_empty':
        return editor.isEmpty ? {type: 'cancel'} : event('none')
      case 'newline':
        return this.edit(editor, this.current === 'vi_normal' ? NORMAL_NEWLINE : COMMANDS.newline!, action)
      default:
        return this.edit(editor, COMMANDS[action] ?? [], action)
    }
  }

  /** Applies the commands, then switches vi's table if the action says so. */
  private edit(editor: LineEditor, commands: readonly EditCommand[], action: KeyActionName | undefined): EditAction {
    const enters = this.vi && action ? (KEY_ACTIONS[action] as {enters?: 'insert' | 'normal'}).enters : undefined
    const next: KeymapName = enters === 'insert' ? 'vi_insert' : enters === 'normal' ? 'vi_normal' : this.current
    const result = outcome(editor, () => {
      for (const c of commands) editor.apply(c)
      if (next === 'vi_normal' && this.current === 'vi_normal') editor.apply({type: 'vi_clamp'})
    })
    if (next === this.current) return result
    this.current = next
    this.reader().reset()
    // A mode switch repaints the prompt (cursor shape, help line), never the screen.
    return result.type === 'none' ? {type: 'moved'} : result
  }
}

/** Two results of one key press (a held key, then the key that followed it): the weightier wins. */
function combine(a: EditAction, b: EditAction): EditAction {
  const rank = (x: EditAction) => (x.type === 'none' ? 0 : x.type === 'moved' ? 1 : x.type === 'changed' ? 2 : 3)
  return rank(b) >= rank(a) ? b : a
}
