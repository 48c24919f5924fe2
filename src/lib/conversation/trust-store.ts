// The workspaces the user has trusted (`jp trust`), recorded by path in
// `<user data dir>/trusted_workspaces.json` — outside every workspace, so a
// repository cannot trust itself. Paths are canonical (symlinks resolved), so
// one directory reached two ways is one entry.
import {realpath} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'
import {userDataDir} from './paths.js'
import {CorruptFileError, ensurePrivateDir, readJson, toJson, writeIfChanged} from './files.js'

export interface TrustedWorkspace {
  /** The workspace root (the directory holding `.jp/`), canonical. */
  path: string
  trusted_at: string
}

export function trustFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'trusted_workspaces.json')
}

/** `dir` with symlinks resolved (as far as it exists), absolute. */
export async function canonicalPath(dir: string): Promise<string> {
  const abs = resolve(dir)
  try {
    return await realpath(abs)
  } catch {
    return abs
  }
}

export async function listTrusted(env: NodeJS.ProcessEnv = process.env): Promise<TrustedWorkspace[]> {
  const file = trustFilePath(env)
  const data = await readJson(file)
  if (data === undefined) return []
  const list = (data as {workspaces?: unknown}).workspaces
  if (!Array.isArray(list) || !list.every((w) => typeof w?.path === 'string')) {
    throw new CorruptFileError(file, 'expected {"workspaces": [{"path": ..., "trusted_at": ...}]}')
  }
  return list as TrustedWorkspace[]
}

export async function isTrusted(root: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const path = await canonicalPath(root)
  return (await listTrusted(env)).some((w) => w.path === path)
}

async function save(list: TrustedWorkspace[], env: NodeJS.ProcessEnv): Promise<void> {
  const file = trustFilePath(env)
  await ensurePrivateDir(dirname(file))
  await writeIfChanged(file, toJson({workspaces: list})) // written 0600
}

/** Records `root` as trusted; false when it already was. */
export async function trustWorkspace(root: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const path = await canonicalPath(root)
  const list = await listTrusted(env)
  if (list.some((w) => w.path === path)) return false
  await save([...list, {path, trusted_at: new Date().toISOString()}], env)
  return true
}

/** Forgets `root` (matched canonically, or as given when it no longer exists); false when it was not trusted. */
export async function revokeWorkspace(root: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const paths = new Set([resolve(root), await canonicalPath(root)])
  const list = await listTrusted(env)
  const kept = list.filter((w) => !paths.has(w.path))
  if (kept.length === list.length) return false
  await save(kept, env)
  return true
}
