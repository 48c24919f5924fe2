// Keymaps over the LineEditor core (reedline's edit_mode).
import type {EditMode} from '../../config/types.js'
import {EmacsMode} from './emacs.js'
import type {EditModeHandler, EditModeOptions} from './types.js'
import {ViMode} from './vi.js'

export type {EditAction, EditModeHandler, EditModeOptions} from './types.js'
export {EmacsMode} from './emacs.js'
export {ViMode} from './vi.js'

/** A fresh keymap for one prompt (vi keeps its mode and pending operator per instance). */
export function createEditMode(mode: EditMode, options: EditModeOptions = {}): EditModeHandler {
  return mode === 'vi' ? new ViMode(options) : new EmacsMode(options)
}
