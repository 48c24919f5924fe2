// The actions a key of the inline prompt can be bound to (pure data): the
// vocabulary of `editor.inline.keys.*`. The edit modes (inquire/edit-mode/)
// say what each one does; this list names and documents them, and the
// configuration reference is generated from it.

export interface ActionDoc {
  /** What the action does, one sentence, for docs/configuration.md. */
  description: string
  /** Only meaningful in the vi tables (vi_insert, vi_normal); an emacs binding of it is an error. */
  vi?: true
  /** Ends vi's insert mode / enters it (the vi handler switches after running it). */
  enters?: 'insert' | 'normal'
}

export const KEY_ACTIONS = {
  // ---- the prompt ----------------------------------------------------------
  submit: {description: 'Send the buffer (ends the prompt; an empty buffer is sent empty).'},
  newline: {description: "Insert a line break. In vi_normal: after the cursor's character, as vim's `a` then Enter, and go to insert mode.", enters: 'insert'},
  cancel: {description: 'Cancel the prompt (what Ctrl+C does).'},
  open_editor: {description: 'Hand the buffer to your editor and come back with what you saved (only where the prompt offers an editor).'},
  history_search: {description: 'Reverse incremental search of the history, as readline\'s Ctrl+R: ``(reverse-i-search)`TEXT\': MATCH``.'},
  history_prev: {description: 'Replace the buffer with the previous (older) history entry.'},
  history_next: {description: 'Replace the buffer with the next (newer) history entry, back to the draft.'},
  complete: {description: 'After `@`: open the list of workspace files to complete the mention; in the list, take the chosen file into the buffer (without sending).'},
  complete_next: {description: 'In the `@` completion list: the next file (Down and Ctrl+N do this too while the list is open).'},
  complete_prev: {description: 'In the `@` completion list: the previous file (Up and Ctrl+P do this too while the list is open).'},
  clear_screen: {description: 'Clear the screen and draw the prompt again at the top.'},
  none: {description: 'Nothing: unbinds the key (and the default bindings it overlaps).'},
  // ---- motion --------------------------------------------------------------
  move_left: {description: 'One character left (across line breaks).'},
  move_right: {description: 'One character right (across line breaks).'},
  move_word_left: {description: 'To the start of the word left of the cursor (letters and digits, as readline).'},
  move_word_right: {description: 'To the end of the word right of the cursor.'},
  move_line_start: {description: 'To the start of the line.'},
  move_line_end: {description: 'To the end of the line.'},
  move_buffer_start: {description: 'To the start of the buffer.'},
  move_buffer_end: {description: 'To the end of the buffer.'},
  move_up: {description: 'One line up, keeping the column.'},
  move_down: {description: 'One line down, keeping the column.'},
  move_up_or_history_prev: {description: 'One line up; on the first line, the previous history entry.'},
  move_down_or_history_next: {description: 'One line down; on the last line, the next history entry.'},
  // ---- editing -------------------------------------------------------------
  delete_backward: {description: 'Delete the character before the cursor.'},
  delete_forward: {description: 'Delete the character under the cursor.'},
  delete_forward_or_cancel: {description: 'Delete the character under the cursor; on an empty buffer, cancel (readline\'s Ctrl+D).'},
  cancel_if_empty: {description: 'Cancel when the buffer is empty; otherwise nothing.'},
  kill_line_end: {description: 'Kill to the end of the line; at its end, join the next line.'},
  kill_line_start: {description: 'Kill from the start of the line to the cursor.'},
  kill_word_backward: {description: 'Kill the word left of the cursor (letters and digits).'},
  kill_word_forward: {description: 'Kill to the end of the word right of the cursor.'},
  kill_bigword_backward: {description: 'Kill the whitespace-delimited word left of the cursor (readline\'s unix-word-rubout).'},
  yank: {description: 'Insert the newest kill.'},
  yank_pop: {description: 'Right after a yank: replace it with the next older kill.'},
  transpose_chars: {description: 'Swap the characters around the cursor (the last two at the end of a line).'},
  upcase_word: {description: 'Upper-case from the cursor to the end of the word.'},
  downcase_word: {description: 'Lower-case from the cursor to the end of the word.'},
  capitalize_word: {description: 'Capitalize from the cursor to the end of the word.'},
  undo: {description: 'Undo the last edit.'},
  redo: {description: 'Redo what undo undid.'},
  // ---- vi ------------------------------------------------------------------
  vi_normal_mode: {description: 'Leave insert mode for normal mode (the cursor steps back onto the last typed character).', vi: true, enters: 'normal'},
  vi_insert: {description: 'Insert before the cursor (i).', vi: true, enters: 'insert'},
  vi_append: {description: 'Insert after the cursor\'s character (a).', vi: true, enters: 'insert'},
  vi_append_line_end: {description: 'Insert at the end of the line (A).', vi: true, enters: 'insert'},
  vi_insert_line_start: {description: 'Insert before the first non-blank of the line (I).', vi: true, enters: 'insert'},
  vi_open_line_below: {description: 'Open a line below and insert there (o).', vi: true, enters: 'insert'},
  vi_open_line_above: {description: 'Open a line above and insert there (O).', vi: true, enters: 'insert'},
  vi_left: {description: 'One character left, not past the start of the line (h).', vi: true},
  vi_right: {description: 'One character right, not past the last character of the line (l).', vi: true},
  vi_word_next: {description: 'To the start of the next word (w).', vi: true},
  vi_word_back: {description: 'To the start of the word (b).', vi: true},
  vi_word_end: {description: 'To the end of the word (e).', vi: true},
  vi_first_non_blank: {description: 'To the first non-blank character of the line (^).', vi: true},
  vi_delete_char: {description: 'Delete the character under the cursor into the register (x, dl).', vi: true},
  vi_delete_char_before: {description: 'Delete the character before the cursor into the register (X, dh).', vi: true},
  vi_delete_to_line_end: {description: 'Delete to the end of the line (D, d$).', vi: true},
  vi_delete_to_line_start: {description: 'Delete to the start of the line (d0).', vi: true},
  vi_delete_line: {description: 'Delete the whole line (dd).', vi: true},
  vi_delete_word: {description: 'Delete to the start of the next word, not past the line end (dw).', vi: true},
  vi_delete_word_end: {description: 'Delete to the end of the word (de).', vi: true},
  vi_delete_word_back: {description: 'Delete to the start of the word (db).', vi: true},
  vi_change_char: {description: 'Change the character under the cursor (cl).', vi: true, enters: 'insert'},
  vi_change_char_before: {description: 'Change the character before the cursor (ch).', vi: true, enters: 'insert'},
  vi_change_to_line_end: {description: 'Change to the end of the line (C, c$).', vi: true, enters: 'insert'},
  vi_change_to_line_start: {description: 'Change to the start of the line (c0).', vi: true, enters: 'insert'},
  vi_change_line: {description: 'Change the whole line (cc, S).', vi: true, enters: 'insert'},
  vi_change_word: {description: 'Change to the end of the word (cw).', vi: true, enters: 'insert'},
  vi_change_word_end: {description: 'Change to the end of the word (ce).', vi: true, enters: 'insert'},
  vi_change_word_back: {description: 'Change to the start of the word (cb).', vi: true, enters: 'insert'},
  vi_put_after: {description: 'Put the register after the cursor (p; a deleted line goes below).', vi: true},
  vi_put_before: {description: 'Put the register before the cursor (P; a deleted line goes above).', vi: true},
} as const satisfies Record<string, ActionDoc>

export type KeyActionName = keyof typeof KEY_ACTIONS

export const KEY_ACTION_NAMES = Object.keys(KEY_ACTIONS) as KeyActionName[]

export function isKeyAction(name: string): name is KeyActionName {
  return Object.hasOwn(KEY_ACTIONS, name)
}
