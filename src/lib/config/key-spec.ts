// The key spec grammar of `editor.inline.keys.*` (pure): what a user writes
// ("ctrl-r", "alt-enter", "ctrl-x ctrl-e", "A") and the canonical chord ids
// the keymaps are keyed by. The decoder's keys are turned into the same ids
// at run time (inquire/edit-mode/keymap.ts), so a table entry and a key
// press meet on one string.
//
// Grammar (documented in docs/configuration.md, "Key bindings"):
//   spec  = chord [" " chord]                 (at most two keys: a sequence)
//   chord = {modifier "-"} key
//   modifier = "ctrl" | "alt" | "shift"       (any order, each once, any case)
//   key   = a named key (enter, tab, ...) | one printable character
// Letter case after ctrl- or alt- does not matter (ctrl-R is ctrl-r; write
// shift- for Shift); a plain character stands for itself ("A" is Shift+A in
// vi_normal, "a" is a). shift- goes with a letter or a named key.
//
// Canonical id: modifiers in the order ctrl, alt, shift, then the key in
// lower case ("ctrl-alt-shift-enter"); a plain character is itself, and a
// plain Shift+letter is the upper-case letter.
import {graphemeSegments} from '../text/graphemes.js'

/** The keys a chord may name besides single characters (what the key decoder reports). */
export const NAMED_KEYS = [
  'enter', 'tab', 'backspace', 'delete', 'escape', 'space', 'up', 'down', 'left', 'right',
  'home', 'end', 'pageup', 'pagedown', 'insert',
  'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
] as const

const NAMED = new Set<string>(NAMED_KEYS)
const MODIFIERS = ['ctrl', 'alt', 'shift'] as const
type Modifier = (typeof MODIFIERS)[number]


/** A spec parsed into canonical chord ids (one, or two for a sequence), or why it is not one. */
export type ParsedKeySpec = {ok: true; chords: string[]} | {ok: false; problem: string}

/** The canonical id of a chord made of these modifiers and key (a named key or one character). */
export function chordId(mods: {ctrl?: boolean; alt?: boolean; shift?: boolean}, key: string): string {
  if (!NAMED.has(key) && !mods.ctrl && !mods.alt) {
    // A plain character: Shift is already in it.
    return key
  }
  return (mods.ctrl ? 'ctrl-' : '') + (mods.alt ? 'alt-' : '') + (mods.shift ? 'shift-' : '') + key
}

function parseChord(text: string): {ok: true; id: string} | {ok: false; problem: string} {
  const mods: Partial<Record<Modifier, boolean>> = {}
  let rest = text
  for (;;) {
    const dash = rest.indexOf('-')
    // "-" on its own, or a trailing "-" after modifiers ("alt--"), is the minus key.
    if (dash <= 0 || dash === rest.length - 1) break
    const word = rest.slice(0, dash).toLowerCase()
    if (!(MODIFIERS as readonly string[]).includes(word)) break
    if (mods[word as Modifier]) return {ok: false, problem: `"${word}-" given twice in "${text}"`}
    mods[word as Modifier] = true
    rest = rest.slice(dash + 1)
  }
  const named = rest.toLowerCase()
  if (NAMED.has(named)) return {ok: true, id: chordId(mods, named)}
  // ASCII key names need no segmenter (text/graphemes.ts).
  const graphemes = [...graphemeSegments(rest)].length
  if (graphemes !== 1 || /[\p{C}\s]/u.test(rest)) {
    const hint = rest.includes('-') ? ' (modifiers are ctrl-, alt- and shift-)' : ''
    return {ok: false, problem: `unknown key "${rest}" in "${text}"${hint}: expected a named key (${NAMED_KEYS.join(', ')}) or one character`}
  }
  if (mods.ctrl || mods.alt) return {ok: true, id: chordId(mods, rest.toLowerCase())}
  if (mods.shift) {
    const upper = rest.toUpperCase()
    if (upper === rest.toLowerCase()) return {ok: false, problem: `"shift-" goes with a letter or a named key, not "${rest}" (write the character itself)`}
    return {ok: true, id: upper}
  }
  return {ok: true, id: rest}
}

/** Parses a key spec ("ctrl-x ctrl-e") into canonical chord ids. */
export function parseKeySpec(spec: string): ParsedKeySpec {
  if (spec.trim() === '') return {ok: false, problem: 'empty key spec'}
  const parts = spec.split(' ')
  if (parts.includes('')) return {ok: false, problem: `empty key in "${spec}" (two spaces, or a space at either end)`}
  if (parts.length > 2) return {ok: false, problem: `"${spec}" has ${parts.length} keys; a binding is one key or a sequence of two`}
  const chords: string[] = []
  for (const part of parts) {
    const chord = parseChord(part)
    if (!chord.ok) return chord
    chords.push(chord.id)
  }
  return {ok: true, chords}
}

const DISPLAY: Record<string, string> = {
  escape: 'Esc', pageup: 'PageUp', pagedown: 'PageDown', backspace: 'Backspace', delete: 'Delete',
}

/** How the help line and docs name a canonical spec: "ctrl-x ctrl-e" → "Ctrl+X Ctrl+E", "alt-enter" → "Alt+Enter". */
export function displayKeySpec(canonical: string): string {
  return canonical
    .split(' ')
    .map((chord) => {
      const parts: string[] = []
      let rest = chord
      for (const m of MODIFIERS) {
        if (rest.startsWith(`${m}-`) && rest.length > m.length + 1) {
          parts.push(m === 'ctrl' ? 'Ctrl' : m === 'alt' ? 'Alt' : 'Shift')
          rest = rest.slice(m.length + 1)
        }
      }
      const key = DISPLAY[rest] ?? (NAMED.has(rest) ? rest[0].toUpperCase() + rest.slice(1) : parts.length > 0 ? rest.toUpperCase() : rest)
      return [...parts, key].join('+')
    })
    .join(' ')
}
