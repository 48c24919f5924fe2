import type {Hook} from '@oclif/core'

import {installEditorBackendBuilder} from '../lib/editor/slot.js'
import {EDITOR_BACKENDS_HOOK} from '../lib/editor/hooks.js'
import {createEditorBackendRegistry} from '../lib/editor/registry.js'

// Installs buildEditorBackend (SPEC §5, §13): collect every plugin's editor
// backends, then leave the builder in the process-wide slot for commands.
// Imports stay light (no execa/tmp/smol-toml): this runs before every command.

/** A plugin hook that never settles must not hang jp. */
const PLUGIN_HOOK_TIMEOUT_MS = 10_000

const hook: Hook.Init = async function () {
  const registry = createEditorBackendRegistry()
  // captureErrors: a plugin calling this.error() must not take jp down with it.
  const result = await this.config.runHook(EDITOR_BACKENDS_HOOK, {registry}, PLUGIN_HOOK_TIMEOUT_MS, true)
  for (const {plugin, error} of result.failures) {
    const why = error instanceof Error ? error.message : String(error)
    this.warn(`plugin ${plugin.name}: ${EDITOR_BACKENDS_HOOK} hook failed: ${why.replace(/\s*\n\s*/g, ' ')}`)
  }
  installEditorBackendBuilder(registry)
}

export default hook
