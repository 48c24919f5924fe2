// The typed `jp:editor-backends` hook event (SPEC §13). A plugin that imports
// jp's types gets `options.registry` typed in its hook:
//
//   const hook: Hook<'jp:editor-backends'> = async function ({registry, jp}) {
//     registry.register('mine', (config) => new MyBackend(config, jp.EditorError))
//   }
import type {Hook} from '@oclif/core'
import type {JpPluginApi} from './plugin-api.js'
import type {EditorBackendRegistry} from './registry.js'

export const EDITOR_BACKENDS_HOOK = 'jp:editor-backends'

/**
 * What the hook receives besides oclif's own `config` and `context`.
 * A type alias, not an interface: oclif's `Hooks` demands options assignable
 * to `Record<string, unknown>`, which an interface never is (TS2411 in a
 * plugin's `tsc` with the default `skipLibCheck: false`).
 */
export type EditorBackendsHookOptions = {
  registry: Pick<EditorBackendRegistry, 'register' | 'names'>
  /** jp's run-time API (EditorError, the outcomes): no import of jp's package needed. */
  jp: JpPluginApi
}

declare module '@oclif/core/hooks' {
  interface Hooks {
    'jp:editor-backends': {options: EditorBackendsHookOptions; return: void}
  }
}

/** A plugin's hook, typed without a dependency of its own on @oclif/core: `const hook: EditorBackendsHook = async function ({registry, jp}) {...}`. */
export type EditorBackendsHook = Hook<'jp:editor-backends'>
