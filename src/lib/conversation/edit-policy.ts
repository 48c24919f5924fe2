// The edit policy of `jp conversation edit` (SPEC §10): snapshot every file
// to be opened, run the editor once on all of them, load them back, and
// either keep the edit or put every byte back. The editor writes the files in
// place; jp itself only ever writes to restore a snapshot, and only when the
// bytes differ.
import {lstat, mkdir, rm} from 'node:fs/promises'
import {basename, dirname} from 'node:path'
import type {EditorBackend} from '../editor/types.js'
import {eventsProblem} from './events.js'
import {readBytes, writeFileDurably} from './files.js'

export type FileKind = 'events' | 'metadata' | 'base-config'

/** One file whose content must load back after the edit. */
export interface CheckedFile {
  kind: FileKind
  path: string
}

export interface EditPlan {
  /** What the editor gets (files, or conversation directories in directory mode). */
  open: string[]
  /** Every file that must load back (and is snapshotted). */
  check: CheckedFile[]
}

export interface EditDeps {
  editor: EditorBackend
  /** The editor's working directory (the workspace root). */
  cwd: string
  /**
   * Asks `Re-open the editor to fix it?` on the terminal (default yes);
   * undefined when there is no terminal, and then a bad edit is discarded.
   */
  confirmReopen?: (message: string) => Promise<boolean>
  /** A line of chrome for the user (stderr). */
  report(line: string): void
}

export const CANCELLED_MESSAGE = 'the editor was cancelled; the conversation is unchanged'
export const DISCARDED_MESSAGE = 'the edit could not be loaded and was discarded; the conversation is unchanged'
export const LOAD_BACK_PREFIX = 'The edited file could not be loaded back:'
export const REOPEN_QUESTION = 'Re-open the editor to fix it?'

export class ConversationEditError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConversationEditError'
  }
}

/**
 * The one-line error for "no editor": for the terminal backend, names
 * `editor.cmd` and the variables consulted; for another backend (a
 * plugin's factory that had no editor to offer), names that backend.
 */
export function noEditorMessage(editor: {envs: readonly string[]; backend?: string}): string {
  if (editor.backend !== undefined && editor.backend !== 'terminal') {
    return `the editor backend "${editor.backend}" (editor.backend) has no editor to offer; see its plugin's docs, or set editor.backend = "terminal"`
  }
  const vars = editor.envs.length > 0 ? ` or one of the environment variables ${editor.envs.join(', ')}` : ''
  return `no editor configured: set editor.cmd in your config${vars}`
}

type Snapshot = Map<string, Buffer | undefined>

export async function snapshot(paths: readonly string[]): Promise<Snapshot> {
  const snap: Snapshot = new Map()
  for (const p of paths) snap.set(p, await readBytes(p))
  return snap
}

/** Puts every snapshotted file back, writing only those whose bytes changed (and the directory, if the editor removed it). */
export async function restore(snap: Snapshot): Promise<void> {
  for (const [path, before] of snap) {
    const now = await readBytes(path).catch(() => undefined)
    if (before === undefined) {
      if (now !== undefined) await rm(path, {force: true})
    } else if (now === undefined || !now.equals(before)) {
      // Not recursive: only the conversation's own directory is made again, never a parent.
      await mkdir(dirname(path), {mode: 0o700}).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e
      })
      await writeFileDurably(path, before)
    }
  }
}

/**
 * The conversation directory an edit removed or emptied: gone, or none of
 * the files it had before left (issue 28). Removing one file of several is an
 * edit (a missing file reads as empty storage); losing them all is not.
 */
async function removedConversation(snap: Snapshot): Promise<string | undefined> {
  const byDir = new Map<string, string[]>()
  for (const [path, before] of snap) if (before !== undefined) byDir.set(dirname(path), [...(byDir.get(dirname(path)) ?? []), path])
  for (const [dir, paths] of byDir) {
    const isDir = await lstat(dir).then((st) => st.isDirectory(), () => false)
    if (!isDir) return dir
    const left = await Promise.all(paths.map((p) => lstat(p).then(() => true, () => false)))
    if (!left.includes(true)) return dir
  }
  return undefined
}

export function removedMessage(dir: string): string {
  return `the editor removed conversation ${basename(dir)} (${dir}); it was restored as it was before the edit`
}

/**
 * Runs the edit: one editor invocation per round with every path, then the
 * load-back check. Resolves when the edit is kept; rejects with
 * ConversationEditError (cancelled, discarded) or the editor's own error
 * (spawn, I/O), in every rejecting case with the files restored.
 */
export async function editConversationFiles(plan: EditPlan, deps: EditDeps): Promise<void> {
  const snap = await snapshot(plan.check.map((f) => f.path))
  try {
    for (;;) {
      const outcome = await deps.editor.editFile({paths: plan.open, cwd: deps.cwd})
      if (outcome === 'cancelled') throw new ConversationEditError(CANCELLED_MESSAGE)
      // A conversation deleted or emptied in the editor is a broken edit, not an empty one.
      const removed = await removedConversation(snap)
      if (removed !== undefined) throw new ConversationEditError(removedMessage(removed))
      const problem = await firstProblem(plan.check)
      if (problem === undefined) return
      deps.report(`${LOAD_BACK_PREFIX} ${problem}`)
      // The user's broken text stays in place for the next round.
      if (!deps.confirmReopen || !(await deps.confirmReopen(REOPEN_QUESTION).catch(() => false))) {
        throw new ConversationEditError(DISCARDED_MESSAGE)
      }
    }
  } catch (e) {
    await restore(snap)
    throw e
  }
}

async function firstProblem(files: readonly CheckedFile[]): Promise<string | undefined> {
  for (const f of files) {
    const bytes = await readBytes(f.path)
    // A file removed in the editor reads as empty storage, as the store loads it.
    if (bytes === undefined) continue
    const problem = await fileProblem(f.kind, f.path, bytes.toString('utf8'))
    if (problem !== undefined) return problem
  }
  return undefined
}

/** `path:line:column: problem` for content the store would refuse to load, else undefined. */
export async function fileProblem(kind: FileKind, path: string, text: string): Promise<string | undefined> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return `${path}${await jsonErrorLocation(text)}: invalid JSON: ${firstLine((e as Error).message)}`
  }
  const at = async (jsonPath: (string | number)[]) => `${path}${await nodeLocation(text, jsonPath)}`
  switch (kind) {
    case 'events': {
      const problem = eventsProblem(value)
      if (problem === undefined) return undefined
      const index = /^event (\d+)/.exec(problem)
      return `${await at(index ? [Number(index[1])] : [])}: ${problem}`
    }
    case 'metadata': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${await at([])}: expected a JSON object`
      for (const k of ['title', 'pinned_at', 'last_activated_at', 'created_at']) {
        const v = (value as Record<string, unknown>)[k]
        if (v !== undefined && v !== null && typeof v !== 'string') return `${await at([k])}: "${k}" must be a string`
      }
      return undefined
    }
    case 'base-config': {
      const {validatePartial} = await import('../config/load.js')
      try {
        validatePartial(value, path)
        return undefined
      } catch (e) {
        const err = e as Error & {key?: string; problem?: string}
        if (typeof err.problem !== 'string') throw e
        const key = err.key ? `${err.key}: ` : ''
        return `${await at(err.key ? err.key.split('.') : [])}: ${key}${err.problem}`
      }
    }
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return `:${line}:${column}`
}

// Node 20's JSON.parse names no position for most errors; jsonc-parser does.
async function jsonErrorLocation(text: string): Promise<string> {
  const {parse} = await import('jsonc-parser')
  const errors: import('jsonc-parser').ParseError[] = []
  parse(text, errors, {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false})
  return errors.length > 0 ? lineColumn(text, errors[0].offset) : ''
}

async function nodeLocation(text: string, jsonPath: (string | number)[]): Promise<string> {
  const {findNodeAtLocation, parseTree} = await import('jsonc-parser')
  const root = parseTree(text)
  if (!root) return ''
  // A dotted key may not exist in the file (a key inside a quoted name); fall back to its nearest parent.
  for (let n = jsonPath.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, jsonPath.slice(0, n))
    if (node) {
      // For a property, point at its key rather than its value.
      const target = node.parent?.type === 'property' ? node.parent : node
      return lineColumn(text, target.offset)
    }
  }
  return ''
}

/** Which files to open; none selected means directory mode (the editor gets each conversation's directory). */
export interface FileSelection {
  events?: boolean
  metadata?: boolean
  baseConfig?: boolean
}

/** The editor's paths and the files to check for `ids`, given each conversation's paths. */
export function planEdit(
  conversations: readonly {dir: string; events: string; metadata: string; baseConfig: string}[],
  select: FileSelection,
): EditPlan {
  const directoryMode = !select.events && !select.metadata && !select.baseConfig
  const open: string[] = []
  const check: CheckedFile[] = []
  for (const p of conversations) {
    const files: CheckedFile[] = []
    if (directoryMode || select.events) files.push({kind: 'events', path: p.events})
    if (directoryMode || select.metadata) files.push({kind: 'metadata', path: p.metadata})
    if (directoryMode || select.baseConfig) files.push({kind: 'base-config', path: p.baseConfig})
    check.push(...files)
    if (directoryMode) open.push(p.dir)
    else open.push(...files.map((f) => f.path))
  }
  return {open, check}
}

/** The metadata after the property flags (`--title`, `--pin/--no-pin`); pinning keeps an existing pin time. */
export function applyProperties<M extends {title?: string | null; pinned_at?: string | null}>(
  meta: M,
  props: {title?: string; pin?: boolean},
  now: () => string = () => new Date().toISOString(),
): M {
  const out = {...meta}
  if (props.title !== undefined) out.title = props.title
  if (props.pin === true && !out.pinned_at) out.pinned_at = now()
  if (props.pin === false) out.pinned_at = null
  return out
}
