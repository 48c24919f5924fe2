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
import {quote} from 'shlex'
import {isTable} from './schema.js'
/**
 * Key paths an untrusted layer may not set; a path covers everything below it.
 * - providers: `base_url` and `api_key_env` — where requests go, which key they carry;
 * - editor.cmd / envs / backend — which program (or plugin backend) jp runs on your files;
 * - conversation.tools — tool commands, and `run`/`result` modes that would let a
 *   tool (yours too, via `'*'`) run unattended.
 */
export const RESTRICTED_KEYS: readonly (readonly string[])[] = [
  ['providers'],
  ['editor', 'cmd'],
  ['editor', 'envs'],
  ['editor', 'backend'],
  ['conversation', 'tools'],
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
