// The process-wide builder slot (SPEC §5): the builder over the registry the
// plugins added to (plugins.ts), installed the first time a command needs a
// plugin's backend, or by a library user or test.
//
// It lives in a process-wide slot (process/slots.ts) because a test may load this module from src/ while
// the command runs it from dist/: two module copies must share one builder.
import type {EditorConfig} from '../config/editor.js'
import {ConfigError} from '../config/errors.js'
import type {EditorBackendRegistry} from './registry.js'
import type {EditorBackend} from './types.js'
import {peekSlot, setSlot, SLOT_KEYS, type ProcessSlots} from '../process/slots.js'

export type EditorBackendBuilder = (config: EditorConfig) => EditorBackend | undefined

export const BUILDER_SLOT = SLOT_KEYS.buildEditorBackend

/** The builder installed now (process/slots.ts `buildEditorBackend`), if any. */
export function installedEditorBackendBuilder(): EditorBackendBuilder | undefined {
  return peekSlot('buildEditorBackend') as EditorBackendBuilder | undefined
}

/**
 * On a builder installed after the plugins' hooks ran: the oclif config whose
 * plugins it knows. A later init (a new oclif config: another in-process run)
 * drops it (./inject.ts); a builder a library user or test installed has none.
 */
export const PLUGINS_OF = Symbol.for('jp.pluginsOfBuilder')

/** What went wrong with the plugins whose hooks filled `registry` (plugins.ts), one line each. */
const PLUGIN_FAILURES = new WeakMap<EditorBackendRegistry, string[]>()

export function recordPluginFailures(registry: EditorBackendRegistry, failures: string[]): void {
  if (failures.length > 0) PLUGIN_FAILURES.set(registry, failures)
}

/**
 * A builder over `registry`: `editor.backend` names the factory; an unknown
 * name is a config error listing the known ones and, when a plugin's hook
 * failed, what went wrong (the backend may be the one it would have added).
 */
export function makeEditorBackendBuilder(registry: EditorBackendRegistry): EditorBackendBuilder {
  return (config) => {
    const name = config.backend
    const factory = registry.get(name)
    if (factory === undefined) {
      const failed = PLUGIN_FAILURES.get(registry) ?? []
      throw new ConfigError({
        source: 'config',
        key: 'editor.backend',
        problem: `unknown editor backend "${name}"; registered: ${registry.names().join(', ')}${failed.map((f) => `; ${f}`).join('')}`,
      })
    }
    return factory(config)
  }
}

/** Installs the builder every later `buildEditorBackend` call uses (after the plugins' hooks ran, or by a library user). */
export function installEditorBackendBuilder(registry: EditorBackendRegistry): EditorBackendBuilder {
  const builder = makeEditorBackendBuilder(registry)
  setSlot('buildEditorBackend', builder as ProcessSlots['buildEditorBackend'])
  return builder
}

/** Removes the installed builder (tests). */
export function uninstallEditorBackendBuilder(): void {
  setSlot('buildEditorBackend', undefined)
}
