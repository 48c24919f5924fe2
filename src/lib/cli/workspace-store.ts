// What a command opens from its global flags, shared by JpCommand and the
// resume picker's lean start-up (pick-first.ts), so both find the same
// workspace, refuse the same broken configuration and announce the same
// things: the workspace (--workspace-dir, nearest .jp/, else the default),
// the configuration check, and the conversation store with its notices.
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'

export interface CommandPlace {
  cwd: string
  env: NodeJS.ProcessEnv
  /** `-w/--workspace-dir`. */
  explicit?: string
  /** `--cfg` arguments in command-line order. */
  cfgArgs: readonly string[]
}

/** The workspace the command works in; throws WorkspaceError naming the directory. */
export async function commandWorkspace(place: CommandPlace): Promise<Workspace> {
  const {findWorkspace} = await import('../conversation/workspace.js')
  return findWorkspace({cwd: place.cwd, explicit: place.explicit, env: place.env})
}

/** Loads the configuration (no conversation's layer) only to throw on a bad file; its notices are left to the commands that use it. */
export async function checkConfig(workspace: Workspace, place: CommandPlace): Promise<void> {
  const {loadWorkspaceConfig} = await import('../conversation/config.js')
  await loadWorkspaceConfig({workspace, cfgArgs: place.cfgArgs, cwd: place.cwd, env: place.env, notice: () => {}})
}

/** The workspace's store; `say` announces the default workspace the one time it is created, and a directory's first conversation of its own. */
export async function openStore(workspace: Workspace, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<ConversationStore> {
  const {ConversationStore} = await import('../conversation/store.js')
  return new ConversationStore(workspace, {
    env,
    onWorkspaceCreated: (w) => {
      if (w.isDefault) say(`jp: no .jp/ workspace here; conversations are kept in the default workspace ${w.root} (run 'jp init' to make one here)`)
    },
    onScopeStarted: (dir) => say(`jp: a conversation of its own for ${dir} (outside a workspace each directory keeps its own; 'jp conversation ls --all' lists every one)`),
  })
}
