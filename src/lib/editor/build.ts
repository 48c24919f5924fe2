// The one construction helper (seed "One construction helper", SPEC §5):
// every caller that wants an editor asks buildEditorBackend, so no call site
// can resolve the editor its own way.
//
// The builder itself and its slot live in slot.ts (light enough for the init hook).
import {EditorConfig, type EditorConfigOptions, type EditorSectionInput} from '../config/editor.js'
import {createEditorBackendRegistry} from './registry.js'
import {BUILDER_SLOT, makeEditorBackendBuilder, type EditorBackendBuilder, type Slot} from './slot.js'
import type {EditorBackend} from './types.js'

export {BUILDER_SLOT, installEditorBackendBuilder, makeEditorBackendBuilder, uninstallEditorBackendBuilder, type EditorBackendBuilder} from './slot.js'

/** What `buildEditorBackend` accepts: an EditorConfig, or the `editor` section plus its environment. */
export type EditorBackendInput = EditorConfig | (EditorSectionInput & EditorConfigOptions)

let fallback: EditorBackendBuilder | undefined

/**
 * The editor backend for this config, or undefined when there is no editor.
 * Without the init hook (library use) only the built-in backends exist.
 */
export function buildEditorBackend(input: EditorBackendInput): EditorBackend | undefined {
  const config = isEditorConfig(input) ? input : new EditorConfig(input, input)
  const builder = (globalThis as unknown as Slot)[BUILDER_SLOT] ?? (fallback ??= makeEditorBackendBuilder(createEditorBackendRegistry()))
  return builder(config)
}

// Duck-typed: an EditorConfig from another copy of the module must pass too.
function isEditorConfig(x: EditorBackendInput): x is EditorConfig {
  return typeof (x as EditorConfig).command === 'function' && typeof (x as EditorConfig).backend === 'string'
}
