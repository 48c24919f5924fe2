// The one construction helper (seed "One construction helper", SPEC §5):
// every caller that wants an editor asks buildEditorBackend, so no call site
// can resolve the editor its own way.
//
// The builder itself and its slot live in slot.ts.
import {EditorConfig, type EditorConfigOptions, type EditorSectionInput} from '../config/editor.js'
import {createEditorBackendRegistry} from './registry.js'
import {BUILDER_SLOT, installEditorBackendBuilder, makeEditorBackendBuilder, type EditorBackendBuilder, type Slot} from './slot.js'
import type {EditorBackend} from './types.js'
import type {Config as OclifConfig} from '@oclif/core'

export {BUILDER_SLOT, installEditorBackendBuilder, makeEditorBackendBuilder, uninstallEditorBackendBuilder, type EditorBackendBuilder} from './slot.js'

/** What `buildEditorBackend` accepts: an EditorConfig, or the `editor` section plus its environment. */
export type EditorBackendInput = EditorConfig | (EditorSectionInput & EditorConfigOptions)

let fallback: EditorBackendBuilder | undefined

/**
 * The editor backend for this config, or undefined when there is no editor.
 * Only the built-in backends exist unless a builder was installed (library
 * use; inside jp see buildEditorBackendWithPlugins).
 */
export function buildEditorBackend(input: EditorBackendInput): EditorBackend | undefined {
  const config = isEditorConfig(input) ? input : new EditorConfig(input, input)
  const builder = (globalThis as unknown as Slot)[BUILDER_SLOT] ?? (fallback ??= makeEditorBackendBuilder(createEditorBackendRegistry()))
  return builder(config)
}

/**
 * buildEditorBackend inside jp: when `editor.backend` names no built-in
 * backend, the plugins' `jp:editor-backends` hooks run first (once per
 * process; see plugins.ts), each failing or hanging plugin costing one warning.
 */
export async function buildEditorBackendWithPlugins(
  input: EditorBackendInput,
  oclif: OclifConfig,
  opts: {warn(line: string): void},
): Promise<EditorBackend | undefined> {
  const config = isEditorConfig(input) ? input : new EditorConfig(input, input)
  const slot = globalThis as unknown as Slot
  if (slot[BUILDER_SLOT] === undefined && createEditorBackendRegistry().get(config.backend) === undefined) {
    const {loadPluginEditorBackends} = await import('./plugins.js')
    installEditorBackendBuilder(await loadPluginEditorBackends(oclif, opts))
  }
  return buildEditorBackend(config)
}

// Duck-typed: an EditorConfig from another copy of the module must pass too.
function isEditorConfig(x: EditorBackendInput): x is EditorConfig {
  return typeof (x as EditorConfig).command === 'function' && typeof (x as EditorConfig).backend === 'string'
}
