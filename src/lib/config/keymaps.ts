// The inline prompt's keymaps as data (pure): each mode is a table from a
// key spec (one key, or a sequence of two) to an action name. These are the
// defaults of `editor.inline.keys.<mode>`; a user's tables are merged over
// them here, and checked at load time (./load.ts) so that a binding that
// cannot work stops jp with the file, line and key. The edit modes
// (inquire/edit-mode/) only look keys up in the result and run the action.
import {isKeyAction, KEY_ACTIONS, type KeyActionName} from './key-actions.js'
import {displayKeySpec, parseKeySpec} from './key-spec.js'
import {nearest} from '../text/nearest.js'

export const KEYMAP_NAMES = ['emacs', 'vi_insert', 'vi_normal'] as const
export type KeymapName = (typeof KEYMAP_NAMES)[number]

/** A keymap: canonical key spec → action. */
export type Keymap = ReadonlyMap<string, KeyActionName>

/** A user's tables as written in TOML (spec → action name), by mode. */
export type KeyBindings = Partial<Record<KeymapName, Record<string, string>>>

type Table = Record<string, KeyActionName>

/** The prompt's own keys, the same in every table (SPEC §6: bound in both vi modes). */
const PROMPT_KEYS: Table = {
  enter: 'submit',
  // Alt+Enter first: the help line names the first key of an action, and
  // Shift+Enter needs the kitty protocol (tmux does not pass it on).
  'alt-enter': 'newline',
  'shift-enter': 'newline',
  'ctrl-j': 'newline',
  'ctrl-c': 'cancel',
  'ctrl-x': 'open_editor',
  'ctrl-g': 'open_editor',
}

/** readline's emacs set plus jp's Enter, Ctrl+X, Ctrl+R (SPEC §6, §18). */
const EMACS: Table = {
  ...PROMPT_KEYS,
  'ctrl-r': 'history_search',
  'ctrl-l': 'clear_screen',
  // `@` mentions: the list opens on Tab (SPEC §19); vi insert mode inherits it.
  tab: 'complete',
  // motion
  'ctrl-a': 'move_line_start',
  home: 'move_line_start',
  'ctrl-e': 'move_line_end',
  end: 'move_line_end',
  'ctrl-b': 'move_left',
  left: 'move_left',
  'ctrl-f': 'move_right',
  right: 'move_right',
  'alt-b': 'move_word_left',
  'ctrl-left': 'move_word_left',
  'alt-left': 'move_word_left',
  'alt-f': 'move_word_right',
  'ctrl-right': 'move_word_right',
  'alt-right': 'move_word_right',
  'alt-<': 'move_buffer_start',
  'ctrl-home': 'move_buffer_start',
  'alt->': 'move_buffer_end',
  'ctrl-end': 'move_buffer_end',
  up: 'move_up_or_history_prev',
  'ctrl-p': 'move_up_or_history_prev',
  down: 'move_down_or_history_next',
  'ctrl-n': 'move_down_or_history_next',
  // editing
  backspace: 'delete_backward',
  'ctrl-h': 'delete_backward',
  delete: 'delete_forward',
  'ctrl-d': 'delete_forward_or_cancel',
  'ctrl-w': 'kill_bigword_backward',
  'alt-backspace': 'kill_word_backward',
  'ctrl-backspace': 'kill_word_backward',
  'alt-d': 'kill_word_forward',
  'ctrl-delete': 'kill_word_forward',
  'ctrl-k': 'kill_line_end',
  'ctrl-u': 'kill_line_start',
  'ctrl-y': 'yank',
  'alt-y': 'yank_pop',
  'ctrl-t': 'transpose_chars',
  'alt-u': 'upcase_word',
  'alt-l': 'downcase_word',
  'alt-c': 'capitalize_word',
  'ctrl-_': 'undo',
  'ctrl-z': 'undo',
  // Ctrl+G opens the editor now (SPEC §18); redo moves to emacs 28's C-M-_.
  'ctrl-alt-_': 'redo',
  'ctrl-shift-z': 'redo',
}

/** vi normal mode's operators (d, c) followed by a motion: a two-key sequence each. */
function operatorSequences(): Table {
  const out: Table = {}
  const motions: Array<[string[], KeyActionName, KeyActionName]> = [
    [['w'], 'vi_delete_word', 'vi_change_word'],
    [['e'], 'vi_delete_word_end', 'vi_change_word_end'],
    [['b'], 'vi_delete_word_back', 'vi_change_word_back'],
    [['$', 'end'], 'vi_delete_to_line_end', 'vi_change_to_line_end'],
    [['0', 'home'], 'vi_delete_to_line_start', 'vi_change_to_line_start'],
    [['h', 'left'], 'vi_delete_char_before', 'vi_change_char_before'],
    [['l', 'right'], 'vi_delete_char', 'vi_change_char'],
  ]
  out['d d'] = 'vi_delete_line'
  out['c c'] = 'vi_change_line'
  for (const [keys, del, change] of motions) {
    for (const k of keys) {
      out[`d ${k}`] = del
      out[`c ${k}`] = change
    }
  }
  return out
}

const VI_NORMAL: Table = {
  ...PROMPT_KEYS,
  'ctrl-d': 'cancel_if_empty',
  'ctrl-l': 'clear_screen',
  'ctrl-r': 'redo',
  // motions
  h: 'vi_left',
  left: 'vi_left',
  l: 'vi_right',
  right: 'vi_right',
  k: 'move_up_or_history_prev',
  up: 'move_up_or_history_prev',
  j: 'move_down_or_history_next',
  down: 'move_down_or_history_next',
  w: 'vi_word_next',
  b: 'vi_word_back',
  e: 'vi_word_end',
  '0': 'move_line_start',
  home: 'move_line_start',
  '^': 'vi_first_non_blank',
  $: 'move_line_end',
  end: 'move_line_end',
  // edits
  x: 'vi_delete_char',
  delete: 'vi_delete_char',
  X: 'vi_delete_char_before',
  D: 'vi_delete_to_line_end',
  C: 'vi_change_to_line_end',
  S: 'vi_change_line',
  ...operatorSequences(),
  p: 'vi_put_after',
  P: 'vi_put_before',
  u: 'undo',
  // into insert mode
  i: 'vi_insert',
  a: 'vi_append',
  A: 'vi_append_line_end',
  I: 'vi_insert_line_start',
  o: 'vi_open_line_below',
  O: 'vi_open_line_above',
}

/** The built-in tables, keyed by canonical spec. */
export const DEFAULT_KEYMAPS: Readonly<Record<KeymapName, Readonly<Table>>> = {
  emacs: EMACS,
  // Insert mode is the emacs keymap with Esc to normal mode, like reedline's.
  vi_insert: {...EMACS, escape: 'vi_normal_mode'},
  vi_normal: VI_NORMAL,
}

/** One user binding, parsed. */
export interface ParsedBinding {
  /** As written (the TOML key). */
  spec: string
  /** Canonical chord ids. */
  chords: string[]
  action: KeyActionName
}

/**
 * Why a user table entry cannot be a binding of `mode`, or undefined. Checked
 * for every layer when it is read (config/validate.ts), so the error names
 * the file and line of the entry.
 */
export function bindingEntryProblem(mode: KeymapName, spec: string, action: unknown): string | undefined {
  const parsed = parseKeySpec(spec)
  if (!parsed.ok) return parsed.problem
  if (typeof action !== 'string') return `expected an action name (a string), got ${typeof action}`
  if (!isKeyAction(action)) {
    const near = nearest(action, Object.keys(KEY_ACTIONS))
    return `unknown action "${action}"${near ? ` (did you mean "${near}"?)` : ''}; the actions are listed under "Key bindings" in docs/configuration.md`
  }
  if (mode === 'emacs' && (KEY_ACTIONS[action] as {vi?: true}).vi) return `"${action}" is a vi action; bind it in editor.inline.keys.vi_insert or vi_normal`
  return undefined
}

/** Two entries of one table that are the same key written differently ("ctrl-r", "Ctrl-R"). */
export function duplicateSpec(table: Record<string, unknown>): {spec: string; other: string} | undefined {
  const seen = new Map<string, string>()
  for (const spec of Object.keys(table)) {
    const parsed = parseKeySpec(spec)
    if (!parsed.ok) continue
    const id = parsed.chords.join(' ')
    const other = seen.get(id)
    if (other !== undefined) return {spec, other}
    seen.set(id, spec)
  }
  return undefined
}

function parseTable(table: Record<string, string> | undefined): ParsedBinding[] {
  const out: ParsedBinding[] = []
  for (const [spec, action] of Object.entries(table ?? {})) {
    const parsed = parseKeySpec(spec)
    if (parsed.ok && typeof action === 'string' && isKeyAction(action)) out.push({spec, chords: parsed.chords, action})
  }
  return out
}

const joined = (chords: readonly string[]) => chords.join(' ')

/**
 * The keymap a prompt uses: the defaults with the user's bindings over them.
 * A user binding replaces the default of the same key and displaces the
 * defaults it overlaps: binding the sequence "ctrl-x ctrl-e" makes Ctrl+X a
 * prefix, so the default Ctrl+X (open_editor) goes; "none" removes the key.
 * (A user key that would cut off a default sequence is refused at load
 * time; see keyBindingConflicts.)
 */
export function effectiveKeymap(mode: KeymapName, user?: Record<string, string>): Map<string, KeyActionName> {
  const defaults = new Map<string, KeyActionName>(Object.entries(DEFAULT_KEYMAPS[mode]))
  const mine = new Map<string, KeyActionName>()
  for (const b of parseTable(user)) {
    const key = joined(b.chords)
    for (const table of [defaults, mine]) {
      for (const existing of [...table.keys()]) {
        const first = existing.split(' ')[0]
        // The same key, the user's key's first key, or a sequence the user's key starts.
        if (existing === key || (b.chords.length === 2 && existing === b.chords[0]) || (b.chords.length === 1 && first === key && existing !== key)) table.delete(existing)
      }
    }
    if (b.action !== 'none') mine.set(key, b.action)
  }
  // The user's keys first: the help line names the first key bound to an action.
  return new Map([...mine, ...defaults])
}

/** A user key that shadows a longer sequence: pressing it would run it before the sequence could be typed. */
export interface KeyConflict {
  mode: KeymapName
  /** The shorter key (a user binding). */
  spec: string
  /** The longer sequences it cuts off, as written (user) or canonical (defaults). */
  shadowed: string[]
  /** Whether every shadowed sequence is a default one (the fix is to unbind them). */
  defaults: boolean
}

/**
 * Every user binding (not "none") that is the first key of another bound
 * sequence: the user's own, or a default one the user did not unbind.
 */
export function keyBindingConflicts(bindings: KeyBindings | undefined): KeyConflict[] {
  const out: KeyConflict[] = []
  for (const mode of KEYMAP_NAMES) {
    const user = parseTable(bindings?.[mode])
    // Later entries of the same key win (a later layer's spelling of it).
    const userById = new Map<string, ParsedBinding>()
    for (const b of user) userById.set(joined(b.chords), b)
    for (const b of userById.values()) {
      if (b.chords.length !== 1 || b.action === 'none') continue
      const key = b.chords[0]
      const shadowedUser = [...userById.values()].filter((o) => o.chords.length === 2 && o.chords[0] === key && o.action !== 'none').map((o) => o.spec)
      const shadowedDefault = Object.keys(DEFAULT_KEYMAPS[mode]).filter((d) => {
        const chords = d.split(' ')
        return chords.length === 2 && chords[0] === key && !userById.has(d)
      })
      if (shadowedUser.length + shadowedDefault.length > 0) {
        out.push({mode, spec: b.spec, shadowed: [...shadowedUser, ...shadowedDefault], defaults: shadowedUser.length === 0})
      }
    }
  }
  return out
}

/** The one-line problem of a conflict, for the ConfigError naming the key. */
export function conflictProblem(c: KeyConflict): string {
  const names = c.shadowed.map((s) => `"${s}"`)
  const list = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ')
  const fix = c.defaults ? `bind ${c.shadowed.length > 1 ? 'them' : 'it'} to "none" first, or choose another key` : 'remove one of the two'
  return `shadows the longer sequence${c.shadowed.length > 1 ? 's' : ''} ${list} (a key that starts a sequence cannot also act alone); ${fix}`
}

/** The keys bound to `action` in a keymap, in table order (defaults first). */
export function keysFor(map: Keymap, action: KeyActionName): string[] {
  return [...map.entries()].filter(([, a]) => a === action).map(([k]) => k)
}

/** "Ctrl+X" for the first single key bound to `action` (a sequence if no single key is), or undefined. */
export function keyLabel(map: Keymap, action: KeyActionName): string | undefined {
  const keys = keysFor(map, action)
  const best = keys.find((k) => !k.includes(' ')) ?? keys[0]
  return best === undefined ? undefined : displayKeySpec(best)
}
