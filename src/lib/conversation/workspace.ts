// Finding the workspace (SPEC §10): `--workspace DIR`, else the nearest `.jp/`
// walking up from the cwd, else the user-level default workspace in the user
// data dir. The default workspace is created on first write and announced
// once, at that moment (see `ensureWorkspace`): after that it simply exists.
import {mkdir, stat} from 'node:fs/promises'
import {basename, dirname, join, resolve} from 'node:path'
import {realDirs} from './files.js'
import {userDataDir} from './paths.js'

export interface Workspace {
  /** The directory holding `.jp/`; tools run here. */
  root: string
  jpDir: string
  conversationsDir: string
  /** True for the user-level default workspace (no `.jp/` found). */
  isDefault: boolean
}

export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WorkspaceError'
  }
}

const JP_DIR = '.jp'

function workspaceAt(root: string, isDefault: boolean): Workspace {
  const jpDir = join(root, JP_DIR)
  return {root, jpDir, conversationsDir: join(jpDir, 'conversations'), isDefault}
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory()
  } catch {
    return false
  }
}

/** The root of the user-level default workspace. */
export function defaultWorkspaceRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'workspace')
}

export async function findWorkspace(opts: {cwd: string; explicit?: string; env?: NodeJS.ProcessEnv}): Promise<Workspace> {
  const env = opts.env ?? process.env
  if (opts.explicit) {
    let root = resolve(opts.cwd, opts.explicit)
    if (basename(root) === JP_DIR) root = dirname(root)
    if (!(await isDir(join(root, JP_DIR)))) {
      throw new WorkspaceError(`--workspace-dir ${opts.explicit}: no .jp directory in ${root} (create one with 'jp init ${opts.explicit}')`)
    }
    return workspaceAt(root, false)
  }
  for (let dir = resolve(opts.cwd); ; dir = dirname(dir)) {
    if (await isDir(join(dir, JP_DIR))) return workspaceAt(dir, false)
    if (dirname(dir) === dir) break
  }
  return workspaceAt(defaultWorkspaceRoot(env), true)
}

/** Creates `<dir>/.jp/conversations/`; returns the workspace. Existing files are left alone. */
export async function initWorkspace(dir: string, opts: {isDefault?: boolean} = {}): Promise<Workspace> {
  const ws = workspaceAt(resolve(dir), opts.isDefault ?? false)
  await realDirs([ws.jpDir, ws.conversationsDir]) // never created through a link (files.ts)
  await mkdir(ws.conversationsDir, {recursive: true})
  return ws
}

/**
 * Makes sure the workspace directories exist before a write. Returns true
 * when they were just created — for the default workspace that is the one
 * moment jp tells the user where their conversations went.
 */
export async function ensureWorkspace(ws: Workspace): Promise<boolean> {
  // `.jp` or `conversations/` as a link is refused, not created through (files.ts).
  if (await realDirs([ws.jpDir, ws.conversationsDir])) return false
  await mkdir(ws.conversationsDir, {recursive: true})
  return true
}
