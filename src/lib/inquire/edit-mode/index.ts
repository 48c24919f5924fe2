// Keymaps over the LineEditor core (reedline's edit_mode): tables of key →
// action (config/keymaps.ts), a reader for two-key sequences (./keymap.ts)
// and the mode that runs the action as EditCommands (./mode.ts).
import type {EditMode} from '../../config/types.js'
import {KeymapEditMode} from './mode.js'
import type {EditModeHandler, EditModeOptions} from './types.js'

export type {EditAction, EditModeHandler, EditModeOptions} from './types.js'
export {KeymapEditMode} from './mode.js'
export {keyChord, KeySequenceReader} from './keymap.js'

/** A fresh keymap for one prompt (vi keeps its mode and a pending key per instance). */
export function createEditMode(mode: EditMode, options: EditModeOptions = {}): EditModeHandler {
  return new KeymapEditMode(mode, options)
}
