// The one construction helper (seed "One construction helper", SPEC §5):
// every caller that wants an editor asks buildEditorBackend, so no call site
// can resolve the editor its own way.
//
// The builder itself and its slot live in slot.ts.
import {EditorConfig, type EditorConfigOptions, type EditorSectionInput} from '../config/editor.js'
import {createEditorBackendRegistry, isBuiltInBackend} from './registry.js'
import {installedEditorBackendBuilder, installEditorBackendBuilder, makeEditorBackendBuilder, PLUGINS_OF, type EditorBackendBuilder} from './slot.js'
import type {EditorBackend} from './types.js'
import type {Interfaces} from '@oclif/core'

export {BUILDER_SLOT, installEditorBackendBuilder, makeEditorBackendBuilder, uninstallEditorBackendBuilder, type EditorBackendBuilder} from './slot.js'

/** What `buildEditorBackend` accepts: an EditorConfig, or the `editor` section plus its environment. */
export type EditorBackendInput = EditorConfig | (EditorSectionInput & EditorConfigOptions)

let fallback: EditorBackendBuilder | undefined

/**
 * The editor backend for this config, or undefined when there is no editor.
 * Only the built-in backends exist unless a builder was installed (library
 * use; inside jp see buildEditorBackendFor).
 */
export function buildEditorBackend(input: EditorBackendInput): EditorBackend | undefined {
  // A plain section is the library's convenience; jp itself passes the command's one EditorConfig (./open.ts).
  const config = isEditorConfig(input) ? input : new EditorConfig(input, input)
  const builder = installedEditorBackendBuilder() ?? (fallback ??= makeEditorBackendBuilder(createEditorBackendRegistry()))
  return builder(config)
}

/**
 * buildEditorBackend inside jp, what the init hook's helper runs
 * (./inject.ts): when `editor.backend` names no built-in backend and no
 * builder is installed yet, the plugins' `jp:editor-backends` hooks run first
 * (once per process; see plugins.ts), each failing or hanging plugin costing
 * one warning through `config.notice`.
 */
export async function buildEditorBackendFor(config: EditorConfig, oclif: Interfaces.Config): Promise<EditorBackend | undefined> {
  if (installedEditorBackendBuilder() === undefined && !isBuiltInBackend(config.backend)) {
    const {loadPluginEditorBackends} = await import('./plugins.js')
    const builder = installEditorBackendBuilder(await loadPluginEditorBackends(oclif, {warn: config.notice}))
    Object.assign(builder, {[PLUGINS_OF]: oclif})
  }
  return buildEditorBackend(config)
}

// Duck-typed: an EditorConfig from another copy of the module must pass too.
function isEditorConfig(x: EditorBackendInput): x is EditorConfig {
  return typeof (x as EditorConfig).command === 'function' && typeof (x as EditorConfig).backend === 'string'
}
