// jp's run-time API for plugins, handed to every `jp:editor-backends` hook as
// `options.jp`. A plugin takes EditorError and the outcome constants from
// here instead of importing jp's package: a plugin installed from a tarball,
// a path or a link then runs with nothing else installed, and it always gets
// the copy of jp that runs it (the package is only needed for types).
import {EDIT_OUTCOMES, EditorError, isEditorError} from './types.js'

/** What a plugin's hook gets as `options.jp`; frozen, values only (types come from `import type ... from 'jp-llm-cli'`). */
export interface JpPluginApi {
  /** Reject with it when the editor cannot be used: jp keeps the user's text and says why. */
  readonly EditorError: typeof EditorError
  /** True for an EditorError from any copy of jp's modules (compares `name` and `kind`). */
  readonly isEditorError: typeof isEditorError
  /** `'saved'` and `'cancelled'`, what `editText` and `editFile` resolve to. */
  readonly EDIT_OUTCOMES: typeof EDIT_OUTCOMES
  /** The running jp's version (package.json), for a plugin that needs a minimum. */
  readonly version: string
}

export function pluginApi(version: string): JpPluginApi {
  return Object.freeze({EditorError, isEditorError, EDIT_OUTCOMES, version})
}
