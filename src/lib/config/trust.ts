// Workspace trust: what an untrusted workspace's configuration may not do
// (pure; the recorded list of trusted workspaces is ../conversation/trust-store.ts).
//
// A repository can ship `.jp/config.toml` and `.jp/conversations/*/` (whose
// base_config.json and config_delta events are a config layer too). Until
// the user runs `jp trust`, those layers cannot change where requests go or
// which key they carry, nor make jp execute anything. The keys are IGNORED,
// not refused (docs/decisions.md, "Workspace trust"): the rest of the file
// (model, prompts, interrupt settings) still applies, every command keeps
// working, and jp says once which keys it ignored and how to trust.
import {createHash} from 'node:crypto'
import {quote} from 'shlex'
import {formatKeyPath} from './locate.js'
import {isTable} from './schema.js'
/**
 * Key paths an untrusted layer may not set; a path covers everything below it.
 * - providers: `base_url` and `api_key_env` — where requests go, which key they carry;
 * - editor.cmd / envs / backend — which program (or plugin backend) jp runs on your files;
 * - conversation.tools — tool commands, and `run`/`result` modes that would let a
 *   tool (yours too, via `'*'`) run unattended;
 * - mcp.servers — programs jp would start, and where tool calls (with which headers) go.
 */
export const RESTRICTED_KEYS: readonly (readonly string[])[] = [
  ['providers'],
  ['editor', 'cmd'],
  ['editor', 'envs'],
  ['editor', 'backend'],
  ['conversation', 'tools'],
  ['mcp', 'servers'],
]

/** The dotted paths of the leaves under `value` (a table counts through its keys; an empty table is itself). */
function leaves(value: unknown, path: string[]): string[][] {
  if (!isTable(value) || Object.keys(value).length === 0) return [path]
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]))
}

export interface FilteredLayer<T> {
  /** The layer without the restricted keys (a copy; the input is not changed). */
  layer: T
  /** Key paths that were dropped, e.g. `['providers', 'llm', 'openai', 'base_url']`. */
  ignored: string[][]
}

/** Drops the restricted keys from an untrusted layer and lists what it dropped. */
export function withoutRestrictedKeys<T>(layer: T): FilteredLayer<T> {
  if (!isTable(layer)) return {layer, ignored: []}
  const copy = structuredClone(layer) as Record<string, unknown>
  const ignored: string[][] = []
  for (const path of RESTRICTED_KEYS) {
    let parent: Record<string, unknown> | undefined = copy
    for (const k of path.slice(0, -1)) {
      const next: unknown = parent[k]
      parent = isTable(next) ? next : undefined
      if (!parent) break
    }
    const last = path.at(-1)!
    if (!parent || !Object.hasOwn(parent, last)) continue
    ignored.push(...leaves(parent[last], [...path]))
    delete parent[last]
  }
  return {layer: copy as T, ignored}
}

/** The one-line notice for keys (dotted) ignored from an untrusted workspace. */
export function untrustedNotice(root: string, ignored: readonly string[]): string {
  const shown = ignored.length > 4 ? [...ignored.slice(0, 4), `${ignored.length - 4} more`] : ignored
  return (
    `jp: ignoring ${shown.join(', ')} from the untrusted workspace ${root} ` +
    `(requests keep your own endpoints and keys, nothing there is run); if you trust it, run: jp trust ${quote(root)}`
  )
}

// ---- Trust bound to content (issue 28) ----------------------------------
//
// `jp trust` records, for each layer of the workspace (its .jp/config.toml
// and each conversation's stored config), a digest of every restricted
// setting it allowed: dotted key → `sha256:` of the value's canonical JSON.
// A layer is obeyed only when each restricted setting it holds now has the
// digest recorded for it (a setting removed since is harmless: the user's
// own value applies). Otherwise all of that layer's restricted settings are
// ignored — a changed `api_key_env` next to a trusted `base_url` is a
// combination nobody approved — and one line names the changed keys.
// Unrestricted keys (the model, prompts) are not digested: they change freely.

/** Where a layer of the workspace lives, as the trust file names it: `.jp/config.toml` or `conversations/ID`. */
export type TrustSource = string
export const CONFIG_SOURCE: TrustSource = '.jp/config.toml'
export const conversationSource = (id: string): TrustSource => `conversations/${id}`

/** Restricted settings of one layer: dotted key → digest of its value. */
export type SettingDigests = Record<string, string>

/** What the user's trust of a workspace covers. */
export interface TrustRecord {
  /** Per layer, the restricted settings it allowed. */
  settings: Record<TrustSource, SettingDigests>
  /** Recorded by a jp that trusted the path only: no setting is covered. */
  pathOnly?: boolean
}

/** How far a workspace is trusted: every layer (the default workspace, the user's own data), none, or what a record covers. */
export type WorkspaceTrust = 'all' | 'none' | TrustRecord

/** JSON with object keys sorted, so one value has one digest. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isTable(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

function digest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`
}

function valueAt(layer: unknown, path: readonly string[]): unknown {
  let v: unknown = layer
  for (const k of path) v = isTable(v) ? v[k] : undefined
  return v
}

/** The restricted settings `layer` holds, each with the digest of its value. */
export function restrictedSettings(layer: unknown): SettingDigests {
  const out: SettingDigests = {}
  for (const path of withoutRestrictedKeys(layer).ignored) out[formatKeyPath(path)] = digest(valueAt(layer, path))
  return out
}

/** The restricted keys of `now` that `trusted` does not cover with the same value (sorted). */
export function changedSettings(now: SettingDigests, trusted: SettingDigests | undefined): string[] {
  return Object.keys(now)
    .filter((k) => trusted?.[k] !== now[k])
    .sort()
}

/** The one-line notice for a trusted workspace whose restricted settings changed (or were never covered, `pathOnly`). */
export function changedNotice(root: string, keys: readonly string[], sources: readonly TrustSource[], pathOnly: boolean): string {
  const shown = keys.length > 4 ? [...keys.slice(0, 4), `${keys.length - 4} more`] : keys
  const where = sources.length === 1 && sources[0] === CONFIG_SOURCE ? '' : ` (${sources.join(', ')})`
  const why = pathOnly ? 'your trust of it was recorded by an older jp for the path only' : 'they changed since you trusted it'
  return (
    `jp: ignoring ${shown.join(', ')} from the workspace ${root}${where}: ${why} ` +
    `(requests keep your own endpoints and keys, nothing there is run); to accept them, run: jp trust ${quote(root)}`
  )
}
