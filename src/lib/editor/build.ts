// The one construction helper (seed "One construction helper", SPEC §5):
// every caller that wants an editor asks buildEditorBackend, so no call site
// can resolve the editor its own way.
//
// The builder lives in a process-wide slot because oclif reloads Config for
// every command (what the init hook stores on it is gone by run()) and a
// command may load this module from dist/ while the hook loaded it from src/.
import {ConfigError} from '../config/errors.js'
import {EditorConfig, type EditorConfigOptions, type EditorSectionInput} from '../config/editor.js'
import {createEditorBackendRegistry, type EditorBackendRegistry} from './registry.js'
import type {EditorBackend} from './types.js'

export type EditorBackendBuilder = (config: EditorConfig) => EditorBackend | undefined

export const BUILDER_SLOT = Symbol.for('jp.buildEditorBackend')

type Slot = Record<symbol, EditorBackendBuilder | undefined>

/** What `buildEditorBackend` accepts: an EditorConfig, or the `editor` section plus its environment. */
export type EditorBackendInput = EditorConfig | (EditorSectionInput & EditorConfigOptions)

/** A builder over `registry`: `editor.backend` names the factory; an unknown name is a config error listing the known ones. */
export function makeEditorBackendBuilder(registry: EditorBackendRegistry): EditorBackendBuilder {
  return (config) => {
    const name = config.backend
    const factory = registry.get(name)
    if (factory === undefined) {
      throw new ConfigError({
        source: 'config',
        key: 'editor.backend',
        problem: `unknown editor backend "${name}"; registered: ${registry.names().join(', ')}`,
      })
    }
    return factory(config)
  }
}

/** Installs the builder every later `buildEditorBackend` call uses (done by the init hook). */
export function installEditorBackendBuilder(registry: EditorBackendRegistry): EditorBackendBuilder {
  const builder = makeEditorBackendBuilder(registry)
  ;(globalThis as unknown as Slot)[BUILDER_SLOT] = builder
  return builder
}

/** Removes the installed builder (tests). */
export function uninstallEditorBackendBuilder(): void {
  delete (globalThis as unknown as Slot)[BUILDER_SLOT]
}

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
