// The workspaces the user has trusted (`jp trust`), recorded in
// `<user data dir>/trusted_workspaces.json` — outside every workspace, so a
// repository cannot trust itself. Paths are canonical (symlinks resolved), so
// one directory reached two ways is one entry. Each entry also records what
// the trust covers (issue 28): per layer of the workspace, a digest of each
// restricted setting it allowed (../config/trust.ts), so a different
// repository at the same path, or a changed setting, is not trusted.
//
//   {"version": 2, "workspaces": [{"path": "/real/path", "trusted_at": "...",
//     "settings": {".jp/config.toml": {"providers.llm.openai.base_url": "sha256:..."},
//                  "conversations/jp-c1": {...}}}]}
//
// Version 1 (no "version", entries without "settings", written by older jp)
// is read as trusting the path only: no setting is covered until the user
// runs `jp trust` again, which rewrites the file as version 2.
import {realpath} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'
import type {SettingDigests, TrustRecord, TrustSource} from '../config/trust.js'
import {userDataDir} from './paths.js'
import {CorruptFileError, ensurePrivateDir, readJson, toJson, writeIfChanged} from './files.js'

export interface TrustedWorkspace {
  /** The workspace root (the directory holding `.jp/`), canonical. */
  path: string
  trusted_at: string
  /** What the trust covers; absent in entries an older jp wrote (the path only). */
  settings?: Record<TrustSource, SettingDigests>
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

const isRecordOf = (v: unknown, ok: (x: unknown) => boolean): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(ok)

function validEntry(w: unknown): boolean {
  const e = w as Partial<TrustedWorkspace> | null
  if (typeof e?.path !== 'string') return false
  return e.settings === undefined || isRecordOf(e.settings, (layer) => isRecordOf(layer, (d) => typeof d === 'string'))
}

export async function listTrusted(env: NodeJS.ProcessEnv = process.env): Promise<TrustedWorkspace[]> {
  const file = trustFilePath(env)
  const data = await readJson(file)
  if (data === undefined) return []
  const {version, workspaces: list} = data as {version?: unknown; workspaces?: unknown}
  if ((version !== undefined && version !== 2) || !Array.isArray(list) || !list.every(validEntry)) {
    throw new CorruptFileError(file, 'expected {"version": 2, "workspaces": [{"path": ..., "trusted_at": ..., "settings": {...}}]}')
  }
  return list as TrustedWorkspace[]
}

/** What the user's trust of the workspace at `root` covers; undefined when it is not trusted. */
export async function trustRecord(root: string, env: NodeJS.ProcessEnv = process.env): Promise<TrustRecord | undefined> {
  const path = await canonicalPath(root)
  const entry = (await listTrusted(env)).find((w) => w.path === path)
  if (!entry) return undefined
  return entry.settings === undefined ? {settings: {}, pathOnly: true} : {settings: entry.settings}
}

export async function isTrusted(root: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await trustRecord(root, env)) !== undefined
}

async function save(list: TrustedWorkspace[], env: NodeJS.ProcessEnv): Promise<void> {
  const file = trustFilePath(env)
  await ensurePrivateDir(dirname(file))
  await writeIfChanged(file, toJson({version: 2, workspaces: list})) // written 0600
}

/** The restricted settings `settings` has that `before` did not cover as they are. */
function newlyCovered(before: TrustedWorkspace['settings'], settings: Record<TrustSource, SettingDigests>): string[] {
  const keys = new Set<string>()
  for (const [source, digests] of Object.entries(settings)) {
    for (const [key, d] of Object.entries(digests)) if (before?.[source]?.[key] !== d) keys.add(key)
  }
  return [...keys].sort()
}

/**
 * Records `root` as trusted with the restricted `settings` it holds now.
 * `added`: it was not trusted; `updated`: the trust now covers `accepted`
 * (settings that changed or were not covered); `unchanged`: nothing to do.
 */
export async function trustWorkspace(
  root: string,
  settings: Record<TrustSource, SettingDigests>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{status: 'added' | 'updated' | 'unchanged'; accepted: string[]}> {
  const path = await canonicalPath(root)
  const list = await listTrusted(env)
  const at = list.findIndex((w) => w.path === path)
  const entry: TrustedWorkspace = {path, trusted_at: new Date().toISOString(), settings}
  if (at === -1) {
    await save([...list, entry], env)
    return {status: 'added', accepted: newlyCovered(undefined, settings)}
  }
  const before = list[at]
  if (before.settings !== undefined && JSON.stringify(sorted(before.settings)) === JSON.stringify(sorted(settings))) return {status: 'unchanged', accepted: []}
  const next = [...list]
  next[at] = entry
  await save(next, env)
  return {status: 'updated', accepted: newlyCovered(before.settings, settings)}
}

function sorted(settings: Record<TrustSource, SettingDigests>): [string, [string, string][]][] {
  return Object.entries(settings)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, d]) => [s, Object.entries(d).sort(([a], [b]) => a.localeCompare(b))])
}

/** Replaces what the trust of `root` covers for one layer (the user's own edit through `jp config set`); nothing when it is not trusted. */
export async function coverLayer(root: string, source: TrustSource, digests: SettingDigests, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const path = await canonicalPath(root)
  const list = await listTrusted(env)
  const at = list.findIndex((w) => w.path === path)
  if (at === -1 || list[at].settings === undefined) return
  const settings = {...list[at].settings}
  if (Object.keys(digests).length > 0) settings[source] = digests
  else delete settings[source]
  const next = [...list]
  next[at] = {...list[at], settings}
  await save(next, env)
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
