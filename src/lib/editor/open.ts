// A command's editor (SPEC §5, §18): the one place jp builds the command's
// EditorConfig from the loaded `editor` section, and obtains its backend
// through the helper the init hook injected (./inject.ts). `jp query`
// (query/pipeline.ts) and `jp conversation edit` (conversation/edit-policy.ts) call
// this and nothing else for an editor.
import {EditorConfig} from '../config/editor.js'
import type {EditorSection} from '../config/types.js'
import {injectedBuildEditorBackend} from './inject.js'
import type {EditorBackend} from './types.js'

export interface CommandEditor {
  /** The command's one EditorConfig (its `envs` name the variables in a "no editor" message). */
  editorConfig: EditorConfig
  /** Undefined when no editor is configured (or the backend's factory has none to offer). */
  editor: EditorBackend | undefined
}

/**
 * The editor for one command. `notice` receives the one-line notices of the
 * editor resolution (a skipped variable) and the plugins' warnings; an
 * unknown `editor.backend` rejects with a ConfigError.
 */
export async function openEditor(section: EditorSection, opts: {env: NodeJS.ProcessEnv; notice(line: string): void}): Promise<CommandEditor> {
  const editorConfig = new EditorConfig(section, {env: opts.env, notice: opts.notice})
  const editor = await injectedBuildEditorBackend()(editorConfig)
  return {editorConfig, editor}
}
