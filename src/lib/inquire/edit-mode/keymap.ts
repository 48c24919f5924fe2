// Looking decoded keys up in a keymap (config/keymaps.ts): a key becomes the
// chord id the key spec grammar produces (config/key-spec.ts), and the first
// key of a two-key sequence is held until the next key decides.
import {chordId} from '../../config/key-spec.js'
import type {Keymap} from '../../config/keymaps.js'
import type {KeyActionName} from '../../config/key-actions.js'
import type {Key} from '../keys.js'

/** The chord id of a decoded key ('ctrl-x', 'alt-enter', 'A'), or undefined for a paste. */
export function keyChord(key: Key): string | undefined {
  if (key.name === 'paste') return undefined
  if (key.name === 'char') return key.text === ' ' ? 'space' : key.text
  return chordId({ctrl: key.ctrl, alt: key.meta, shift: key.shift}, key.name)
}

/** The same key without Shift: a key bound without Shift also answers with it (Shift+Home is Home). */
function unshifted(key: Key): string | undefined {
  return key.shift && key.name !== 'char' ? chordId({ctrl: key.ctrl, alt: key.meta}, key.name) : undefined
}

export type Resolution =
  | {type: 'action'; action: KeyActionName}
  /** The first key of a sequence: wait for the next. */
  | {type: 'pending'}
  /** Not bound (a printable character then types itself where the mode inserts). */
  | {type: 'unbound'}
  /** A sequence's first key, then a key that continues none. */
  | {type: 'broken'; first: Key; key: Key}

/** Reads keys against one keymap, holding the first key of a sequence. */
export class KeySequenceReader {
  private readonly prefixes = new Set<string>()
  private pending: {key: Key; chord: string} | undefined

  constructor(readonly keymap: Keymap) {
    for (const spec of keymap.keys()) {
      const space = spec.indexOf(' ')
      if (space !== -1) this.prefixes.add(spec.slice(0, space))
    }
  }

  /** True while the first key of a sequence waits for the second. */
  get waiting(): boolean {
    return this.pending !== undefined
  }

  /** Forgets a held first key (the mode changed under it). */
  reset(): void {
    this.pending = undefined
  }

  /** The action `key` alone is bound to, without holding it (a sequence's first key has none). */
  peek(key: Key): KeyActionName | undefined {
    const chord = keyChord(key)
    const plain = unshifted(key)
    return (chord === undefined ? undefined : this.keymap.get(chord)) ?? (plain === undefined ? undefined : this.keymap.get(plain))
  }

  read(key: Key): Resolution {
    const chord = keyChord(key)
    const first = this.pending
    if (first) {
      this.pending = undefined
      const plain = unshifted(key)
      const action =
        (chord === undefined ? undefined : this.keymap.get(`${first.chord} ${chord}`)) ??
        (plain === undefined ? undefined : this.keymap.get(`${first.chord} ${plain}`))
      return action ? {type: 'action', action} : {type: 'broken', first: first.key, key}
    }
    if (chord === undefined) return {type: 'unbound'}
    for (const id of [chord, unshifted(key)]) {
      if (id === undefined) continue
      const action = this.keymap.get(id)
      if (action) return {type: 'action', action}
      if (this.prefixes.has(id)) {
        this.pending = {key, chord: id}
        return {type: 'pending'}
      }
    }
    return {type: 'unbound'}
  }
}
