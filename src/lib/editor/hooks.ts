// The typed `jp:editor-backends` hook event (SPEC §13). A plugin that imports
// jp's types gets `options.registry` typed in its hook:
//
//   const hook: Hook<'jp:editor-backends'> = async function ({registry}) {
//     registry.register('mine', (config) => new MyBackend(config))
//   }
import type {EditorBackendRegistry} from './registry.js'

export const EDITOR_BACKENDS_HOOK = 'jp:editor-backends'

/** What the hook receives besides oclif's own `config` and `context`. */
export interface EditorBackendsHookOptions {
  registry: Pick<EditorBackendRegistry, 'register' | 'names'>
}

declare module '@oclif/core/hooks' {
  interface Hooks {
    'jp:editor-backends': {options: EditorBackendsHookOptions; return: void}
  }
}
