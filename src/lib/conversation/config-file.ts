// `jp config set KEY VALUE [--user|--workspace]`: one key written into the
// user's or the workspace's config.toml, validated as a loaded file is, the
// file's comments, order and other values kept (config/set-key.ts).
//
//   - VALUE is read as `-c KEY=VALUE` reads it (a string key takes the text
//     as typed; a typed key parses it as a TOML value);
//   - the whole new text must load as that file would (parseConfigToml:
//     schema, types, command quoting), or nothing is written;
//   - an untrusted workspace's file is refused the keys jp would ignore there
//     (config/trust.ts), with the hint that says how to trust it;
//   - the write is atomic (a crash leaves the old file or the new one), made
//     under the file's lock with the file read again under it, so parallel
//     sets cannot lose each other's keys (issue 42); a linked file (a
//     dotfiles repository) is edited at its target and stays a link; the
//     file keeps its mode, owner and line endings; a read-only file is
//     refused, nothing written;
//   - in a trusted workspace whose file the trust covered, a restricted key
//     set here is the user's own edit: the trust is extended to it (issue 28).
import {chmod, chown, lstat, mkdir, readFile, readlink, realpath, stat} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'
import {quote} from 'shlex'
import {setTomlKey} from '../config/set-key.js'
import {ConfigError} from '../config/errors.js'
import {layerAt, userConfigPath} from '../config/layers.js'
import {formatKeyPath} from '../config/locate.js'
import {parseConfigToml} from '../config/parse.js'
import {modelIdProblem} from '../config/providers.js'
import {tomlValue} from '../config/toml-text.js'
import {changedSettings, CONFIG_SOURCE, restrictedSettings, withoutRestrictedKeys} from '../config/trust.js'
import {DIR_MODE, writeFileDurably} from './files.js'
import {acquireLock, ConversationLockedError} from './lock.js'
import {coverLayer, isTrusted, trustRecord} from './trust-store.js'
import type {Workspace} from './workspace.js'

export type ConfigTarget = 'user' | 'workspace'

export interface SetConfigOptions {
  /** The key, already checked against the schema. */
  path: string[]
  /** VALUE as typed. */
  raw: string
  /** Which file: the user's, or the workspace's `.jp/config.toml`. */
  target: ConfigTarget
  workspace: Workspace
  env: NodeJS.ProcessEnv
}

/** Where `jp config set` writes without --user or --workspace: a workspace of the user's own, else the user config. */
export function defaultTarget(workspace: Workspace): ConfigTarget {
  return workspace.isDefault ? 'user' : 'workspace'
}

/** Writes the key; returns the file written. Throws ConfigError naming the file, key and problem. */
export async function setConfigValue(opts: SetConfigOptions): Promise<string> {
  const key = formatKeyPath(opts.path)
  const file = opts.target === 'user' ? userConfigPath(opts.env) : join(opts.workspace.jpDir, 'config.toml')
  if (opts.target === 'workspace') {
    if (opts.workspace.isDefault) {
      throw new ConfigError({source: key, problem: "there is no .jp/ workspace here (run 'jp init', or use --user)"})
    }
    const restricted = withoutRestrictedKeys(nest(opts.path, '')).ignored.length > 0
    if (restricted && !(await isTrusted(opts.workspace.root, opts.env))) {
      const root = opts.workspace.root
      throw new ConfigError({
        source: file,
        key,
        problem: `not set: the workspace ${root} is not trusted, and jp ignores this key there; if you trust it, run: jp trust ${quote(root)} (or set it for yourself with --user)`,
      })
    }
  }
  const layer = await layerAt(opts.path, opts.raw, 'jp config set')
  // The schema says "a string"; a query also needs a provider jp knows.
  const modelId = key === 'assistant.model.id' ? modelIdProblem(String(valueAt(layer, opts.path))) : undefined
  if (modelId) throw new ConfigError({source: 'jp config set', key, problem: modelId})
  const valueText = tomlValue(valueAt(layer, opts.path))
  const target = await linkTarget(file)
  await mkdir(dirname(target), {recursive: true, mode: DIR_MODE})
  const release = await lockConfigFile(target)
  try {
    // Read under the lock: a set that ran meanwhile is in this text.
    const before = await existingFile(target)
    const text = before?.text ?? ''
    const edited = await setTomlKey(text, opts.path, valueText, file)
    const next = text.includes('\r\n') ? edited.replace(/\r?\n/g, '\r\n') : edited
    // As the file will be loaded: a value that fits alone can still break it (a key it now conflicts with).
    const nextLayer = await parseConfigToml(next, file)
    // Whether the trust covered the file as it was, read before it changes.
    const covered = opts.target === 'workspace' && (await coveredByTrust(opts.workspace, text, file, opts.env))
    await writeFileDurably(target, next)
    if (before) await keepOwnership(target, before.mode, before.uid, before.gid)
    if (covered) await coverLayer(opts.workspace.root, CONFIG_SOURCE, restrictedSettings(nextLayer), opts.env)
  } finally {
    await release()
  }
  return file
}

/** How long `jp config set` waits for another one writing the same file. */
const CONFIG_LOCK_WAIT_MS = 10_000

async function lockConfigFile(target: string): Promise<() => Promise<void>> {
  try {
    return await acquireLock(`${target}.lock`, target, {waitMs: CONFIG_LOCK_WAIT_MS, pollMs: 15})
  } catch (e) {
    if (!(e instanceof ConversationLockedError)) throw e
    const who = e.holderPid === undefined ? 'another jp process' : `another jp process (pid ${e.holderPid})`
    throw new ConfigError({source: target, problem: `is being changed by ${who}; nothing was written, try again`})
  }
}

/** Where a config file's bytes live: the file itself, or the target of the link at its path (the link is kept). */
async function linkTarget(file: string): Promise<string> {
  try {
    if (!(await lstat(file)).isSymbolicLink()) return file
  } catch {
    return file
  }
  try {
    return await realpath(file)
  } catch {
    // A dangling link: the file it names is created.
    return resolve(dirname(file), await readlink(file))
  }
}

/** The file's text, mode and owner; undefined when it does not exist. A read-only file is refused. */
async function existingFile(file: string): Promise<{text: string; mode: number; uid: number; gid: number} | undefined> {
  let st
  try {
    st = await stat(file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError({source: file, problem: `cannot be read: ${(e as Error).message}`})
  }
  // Checked on the bits, not access(): root may write anything, but a file
  // the user made read-only is a wish jp keeps.
  if ((st.mode & 0o222) === 0) throw new ConfigError({source: file, problem: 'is read-only; nothing was written (make it writable first)'})
  try {
    return {text: await readFile(file, 'utf8'), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid}
  } catch (e) {
    throw new ConfigError({source: file, problem: `cannot be read: ${(e as Error).message}`})
  }
}

/** The new file (written 0600 by the atomic write) given the old one's mode and, where allowed, owner. */
async function keepOwnership(file: string, mode: number, uid: number, gid: number): Promise<void> {
  await chmod(file, mode)
  const now = await stat(file)
  if (now.uid !== uid || now.gid !== gid) await chown(file, uid, gid).catch(() => {})
}

/** Whether the workspace's trust covers every restricted setting of its config file `text` (so an edit by the user may extend it). */
async function coveredByTrust(workspace: Workspace, text: string, file: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const record = await trustRecord(workspace.root, env)
  if (!record || record.pathOnly) return false
  const before = text.trim() === '' ? {} : await parseConfigToml(text, file)
  return changedSettings(restrictedSettings(before), record.settings[CONFIG_SOURCE]).length === 0
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, k) => ({[k]: inner}), value as Record<string, unknown>)
}

function valueAt(tree: unknown, path: readonly string[]): unknown {
  let v = tree
  for (const k of path) v = (v as Record<string, unknown>)[k]
  return v
}
