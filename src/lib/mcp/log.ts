// Where a server's own words go: `<user data dir>/logs/mcp/SERVER.log`, never
// the terminal. A stdio server's stderr is that file (the child writes it
// directly), and jp adds its protocol errors (a non-JSON line on stdout). The
// file is opened without following a link, 0600, in 0700 directories.
import {closeSync, constants, openSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import {ensurePrivateDir, FILE_MODE} from '../conversation/files.js'
import {userDataDir} from '../conversation/paths.js'

/** The log of server NAME. */
export function mcpLogPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'logs', 'mcp', `${name}.log`)
}

/** An open log: its descriptor (for a child's stderr) and jp's own lines. */
export interface ServerLog {
  readonly fd: number
  readonly path: string
  line(text: string): void
  close(): void
}

/** Opens (appending) the log of server NAME; a link at its path is refused (ELOOP). */
export async function openServerLog(name: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerLog> {
  const path = mcpLogPath(name, env)
  await ensurePrivateDir(join(path, '..'))
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, FILE_MODE)
  let open = true
  return {
    fd,
    path,
    line(text) {
      if (!open) return
      try {
        writeSync(fd, `[jp ${new Date().toISOString()}] ${text}\n`)
      } catch {
        // A full disk must not end the session: the log is best effort.
      }
    },
    close() {
      if (!open) return
      open = false
      closeSync(fd)
    },
  }
}
