// Per-user directories (XDG base directories, overridable for tests).
import {homedir} from 'node:os'
import {isAbsolute, join} from 'node:path'

const home = (env: NodeJS.ProcessEnv) => env.HOME?.trim() || homedir()
const absolute = (v: string | undefined) => (v && isAbsolute(v.trim()) ? v.trim() : undefined)

/** `$JP_USER_DATA_DIR`, else `$XDG_DATA_HOME/jp`, else `~/.local/share/jp`. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = absolute(env.JP_USER_DATA_DIR)
  if (explicit) return explicit
  const xdg = absolute(env.XDG_DATA_HOME)
  return join(xdg ?? join(home(env), '.local', 'share'), 'jp')
}

/** `$XDG_CONFIG_HOME/jp`, else `~/.config/jp`. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = absolute(env.XDG_CONFIG_HOME)
  return join(xdg ?? join(home(env), '.config'), 'jp')
}
