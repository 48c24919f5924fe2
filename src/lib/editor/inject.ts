// The editor helper jp's oclif `init` hook injects (SPEC §5, §18): the one
// route by which `jp query` and `jp conversation edit` obtain an editor.
//
//   src/hooks/init.ts        injectBuildEditorBackend(oclif config)  (every start-up)
//   editor/open.ts           openEditor(section, {env, notice}): the command's one
//                            EditorConfig, then the injected helper for its backend
//   editor/build.ts          buildEditorBackendFor: the plugins' hooks (only for a
//                            backend that is not built in, once), then buildEditorBackend
//
// The hook runs on every start-up, `jp --help` and `jp --version` included,
// so this module imports only the slot list (process/slots.ts, no imports of
// its own) at run time and the hook only stores a
// closure: no plugin code, no registry, no module behind it loads until a
// command asks for an editor.
//
// On globalThis, like the other process-wide slots: the hook and a test may
// hold two copies of this module (src/ and dist/).
import type {Interfaces} from '@oclif/core'
import type {EditorConfig} from '../config/editor.js'
import type {EditorBackend} from './types.js'
import {peekSlot, setSlot, SLOT_KEYS, type ProcessSlots} from '../process/slots.js'

/** buildEditorBackend as the commands get it: asynchronous, since a plugin's backend needs the plugins' hooks to have run. */
export type InjectedBuildEditorBackend = (config: EditorConfig) => Promise<EditorBackend | undefined>

export const INJECTED_BUILDER_SLOT = SLOT_KEYS.injectedBuildEditorBackend

/** What the init hook does: injects the helper over this run's oclif config (its plugins). */
export function injectBuildEditorBackend(oclif: Interfaces.Config): void {
  // A builder over an earlier run's plugins (an earlier in-process run) knows
  // the wrong plugins: this run loads its own when it needs them. Spelled
  // here, not imported from ./slot.ts, so the hook loads nothing but the
  // slot list.
  const builder = peekSlot('buildEditorBackend') as {[k: symbol]: unknown} | undefined
  const pluginsOf = builder?.[Symbol.for('jp.pluginsOfBuilder')]
  if (pluginsOf !== undefined && pluginsOf !== oclif) setSlot('buildEditorBackend', undefined)
  const helper: InjectedBuildEditorBackend = async (config) => {
    const {buildEditorBackendFor} = await import('./build.js')
    return buildEditorBackendFor(config, oclif)
  }
  setSlot('injectedBuildEditorBackend', helper as ProcessSlots['injectedBuildEditorBackend'])
}

/** The injected helper. jp's init hook always runs before a command; its absence is a packaging bug, said as such. */
export function injectedBuildEditorBackend(): InjectedBuildEditorBackend {
  const helper = peekSlot('injectedBuildEditorBackend') as InjectedBuildEditorBackend | undefined
  if (helper === undefined) throw new Error("jp's init hook did not run (package.json oclif.hooks.init), so no editor can be built")
  return helper
}
