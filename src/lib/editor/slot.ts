// The process-wide builder slot (SPEC §5). Kept apart from build.ts so the
// init hook, which runs before every command (even --help), loads no editor
// resolution code (shlex, which): only this and the registry.
//
// The builder lives in a process-wide slot because oclif reloads Config for
// every command (what the init hook stores on it is gone by run()) and a
// command may load this module from dist/ while the hook loaded it from src/.
import type {EditorConfig} from '../config/editor.js'
import {ConfigError} from '../config/errors.js'
import type {EditorBackendRegistry} from './registry.js'
import type {EditorBackend} from './types.js'

export type EditorBackendBuilder = (config: EditorConfig) => EditorBackend | undefined

export const BUILDER_SLOT = Symbol.for('jp.buildEditorBackend')

export type Slot = Record<symbol, EditorBackendBuilder | undefined>

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
