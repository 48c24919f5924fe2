// Conversation storage (SPEC §10): `.jp/conversations/<id>/` holding
// events.json (+ events.log, its journal: see journal.ts), metadata.json and
// base_config.json, files 0600 in 0700 directories. Writes are durable and
// atomic (files.ts); a corrupt file is reported by path and never overwritten
// (load fails, so nothing is ever saved over it). A conversation is parsed
// once per command: `load` remembers what it read, and the events are then
// written as they change, never read back. No symbolic link inside `.jp/` is
// followed (issue 28): `.jp`, `conversations/` and each conversation's
// directory are checked on the way down (`realDirs`), and every file is
// opened with no-follow semantics (files.ts); a link is refused by name.
import {createHash} from 'node:crypto'
import {chmod, lstat, mkdir, readdir, rm} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'
import type {ConversationEvent} from './events.js'
import {CorruptFileError, DIR_MODE, ensurePrivateDir, parseJson, readBytesSync, readText, realDirs, removeStaleTemps, SymlinkRefusedError, toJson, writeFileDurably, writeIfChanged} from './files.js'
import {EventJournal, loadEvents} from './journal.js'
import type {StreamedChunk} from './streamed-chunk.js'
import {acquireLock} from './lock.js'
import {userDataDir} from './paths.js'
import {ensureWorkspace, type Workspace} from './workspace.js'
import type {StoredSummary} from './summary-index.js'
import {localeOrder} from '../text/collate.js'

export interface ConversationMetadata {
  title?: string | null
  pinned_at?: string | null
  last_activated_at?: string | null
  created_at?: string | null
  /** Unknown keys are kept. */
  [key: string]: unknown
}

export interface Conversation {
  id: string
  events: ConversationEvent[]
  metadata: ConversationMetadata
  /** The conversation's stored config layer (validated against the config schema). */
  baseConfig: Record<string, unknown>
}

export interface ConversationSummary {
  id: string
  title?: string
  pinned_at?: string
  last_activated_at?: string
  created_at?: string
  /** Outside a workspace: the directory the conversation was started in (its scope). */
  directory?: string
  active: boolean
  /** Set when metadata.json could not be read; the rest is then unknown. */
  error?: string
}

export interface ConversationPaths {
  dir: string
  events: string
  /** The journal of changes not yet folded into events.json. */
  eventsLog: string
  metadata: string
  baseConfig: string
}

export class ConversationNotFoundError extends Error {
  constructor(
    readonly id: string,
    workspaceRoot: string,
  ) {
    super(`conversation '${id}' not found in workspace ${workspaceRoot} (see 'jp conversation ls')`)
    this.name = 'ConversationNotFoundError'
  }
}

/** Names a conversation directory may have: no separators, no dot-files. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const META_STRING_KEYS = ['title', 'pinned_at', 'last_activated_at', 'created_at', 'directory'] as const

export interface StoreOptions {
  env?: NodeJS.ProcessEnv
  /** Called when a write had to create the workspace directories (the default workspace's first use). */
  onWorkspaceCreated?: (ws: Workspace) => void
  /** Called when a directory outside any workspace gets its first active conversation (see `Workspace.scope`). */
  onScopeStarted?: (dir: string) => void
}

const recency = (s: StoredSummary) => s.last_activated_at ?? s.created_at ?? ''

/** A listing's order: pinned first, then the most recently active, then the newest id. */
function listingOrder(a: StoredSummary, b: StoredSummary): number {
  return (
    Number(Boolean(b.pinned_at)) - Number(Boolean(a.pinned_at)) ||
    localeOrder(recency(b), recency(a)) ||
    b.id.localeCompare(a.id, undefined, {numeric: true})
  )
}

export class ConversationStore {
  private readonly env: NodeJS.ProcessEnv
  /** What this command loaded, by id: each conversation is parsed once per command. */
  private readonly loaded = new Map<string, Promise<Conversation>>()
  private readonly journals = new Map<string, EventJournal>()
  /** The bytes of small files as this command read or wrote them: a save compares against these, never reads back. */
  private readonly known = new Map<string, string>()
  /** What the files looked like (stat) when `load` read them, by id. */
  private readonly readAs = new Map<string, string>()

  constructor(
    readonly workspace: Workspace,
    private readonly opts: StoreOptions = {},
  ) {
    this.env = opts.env ?? process.env
  }

  paths(id: string): ConversationPaths {
    if (!SAFE_ID.test(id)) throw new ConversationNotFoundError(id, this.workspace.root)
    const dir = join(this.workspace.conversationsDir, id)
    return {
      dir,
      events: join(dir, 'events.json'),
      eventsLog: join(dir, 'events.log'),
      metadata: join(dir, 'metadata.json'),
      baseConfig: join(dir, 'base_config.json'),
    }
  }

  /**
   * Where the query document for `id` lives: in the user data dir, keyed by
   * workspace, so the conversation's own persistence can never delete it.
   * `null` is the draft of a conversation not created yet. The caller creates
   * the directory when it writes.
   */
  draftPath(id: string | null): string {
    const root = this.workspace.root
    const slug = basename(root).replace(/[^A-Za-z0-9._-]/g, '_') || 'root'
    const key = `${slug}-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`
    const conv = id === null ? 'new' : (this.paths(id), id)
    return join(userDataDir(this.env), 'workspaces', key, 'conversations', conv, 'QUERY_MESSAGE.md')
  }

  /** Whether conversation `id` exists; a link on the way (`.jp`, `conversations/`, its directory) is refused. */
  async exists(id: string): Promise<boolean> {
    if (!SAFE_ID.test(id)) return false
    return realDirs([this.workspace.jpDir, this.workspace.conversationsDir, this.paths(id).dir])
  }

  private async mustExist(id: string): Promise<ConversationPaths> {
    if (!(await this.exists(id))) throw new ConversationNotFoundError(id, this.workspace.root)
    return this.paths(id)
  }

  async list(): Promise<ConversationSummary[]> {
    return this.listing('files')
  }

  /**
   * `list` from the summary index (./summary-index.ts): the directories are
   * listed, but metadata.json is read only for conversations the index does
   * not know or the change log names (with `verify`, also those whose
   * metadata.json's lstat changed: a hand edit). For the resume picker (and
   * `grep`, verified), which open on thousands of conversations.
   */
  async listIndexed(opts: {verify?: boolean} = {}): Promise<ConversationSummary[]> {
    return this.listing(opts.verify ? 'verified' : 'indexed')
  }

  private async listing(from: 'files' | 'indexed' | 'verified'): Promise<ConversationSummary[]> {
    if (!(await realDirs([this.workspace.jpDir, this.workspace.conversationsDir]))) return []
    let stored: StoredSummary[] | undefined
    if (from === 'indexed') stored = (await import('./summary-index.js')).unchangedSummaries(this.workspace.jpDir, this.workspace.conversationsDir)
    stored ??= await this.listed(from)
    const active = await this.activeId().catch(() => undefined)
    // In place: each summary is this listing's own object (parsed or read just now).
    for (const s of stored) (s as ConversationSummary).active = s.id === active
    // One pass when already in order, as the index keeps them.
    return (stored as ConversationSummary[]).sort(listingOrder)
  }

  /** The directory listed, every conversation summarized (from the index where it holds, but for 'files'); [] without the directory. */
  private async listed(from: 'files' | 'indexed' | 'verified'): Promise<StoredSummary[]> {
    const index = from === 'files' ? undefined : await import('./summary-index.js')
    // Before the listing: a change while it runs only makes the next one list again.
    const dir = index?.dirStamp(this.workspace.conversationsDir)
    let names: string[]
    const links = new Set<string>()
    try {
      const entries = (await readdir(this.workspace.conversationsDir, {withFileTypes: true})).filter((d) => SAFE_ID.test(d.name))
      for (const d of entries) if (d.isSymbolicLink()) links.add(d.name)
      names = entries.filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => d.name)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw e
    }
    if (!index) return names.map((id) => this.summarize(id, links))
    const listing = index.indexedSummaries(this.workspace.jpDir, this.workspace.conversationsDir, names, (id) => this.summarize(id, links), {verify: from === 'verified', dir})
    // Stored in the listing's order (see summary-index.ts).
    listing.summaries.sort(listingOrder)
    if (listing.changed) await index.writeIndex(this.workspace.jpDir, listing)
    return listing.summaries
  }

  /** One conversation's summary from its metadata.json, read synchronously: thousands of small files cost more in thread-pool round trips than in reading. */
  private summarize(id: string, links: ReadonlySet<string>): StoredSummary {
    const summary: StoredSummary = {id}
    // Listed, so the user sees it, but never read through.
    if (links.has(id)) {
      summary.error = new SymlinkRefusedError(this.paths(id).dir).message
      return summary
    }
    try {
      const meta = this.checkMetadata(this.paths(id).metadata, this.readKnownJsonSync(this.paths(id).metadata))
      for (const k of META_STRING_KEYS) if (typeof meta[k] === 'string') summary[k] = meta[k] as string
    } catch (e) {
      summary.error = (e as Error).message
    }
    return summary
  }

  /** Tells the summary index that `id`'s metadata changed (done by every metadata write of the store; `jp conversation edit` after the editor). */
  async markChanged(id: string): Promise<void> {
    const {markChanged} = await import('./summary-index.js')
    await markChanged(this.workspace.jpDir, id)
  }

  /** Reads a small JSON file, remembering its bytes; undefined when missing. */
  private async readKnownJson(path: string): Promise<unknown> {
    const text = await readText(path)
    if (text === undefined) return undefined
    this.known.set(path, text)
    return parseJson(path, text)
  }

  /** `readKnownJson` without the thread pool (a listing reads thousands of these). */
  private readKnownJsonSync(path: string): unknown {
    const text = readBytesSync(path)?.toString('utf8')
    if (text === undefined) return undefined
    this.known.set(path, text)
    return parseJson(path, text)
  }

  private async readMetadata(path: string): Promise<ConversationMetadata> {
    return this.checkMetadata(path, await this.readKnownJson(path))
  }

  private checkMetadata(path: string, meta: unknown): ConversationMetadata {
    if (meta === undefined) return {}
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new CorruptFileError(path, 'expected a JSON object')
    for (const k of META_STRING_KEYS) {
      const v = (meta as Record<string, unknown>)[k]
      if (v !== undefined && v !== null && typeof v !== 'string') throw new CorruptFileError(path, `"${k}" must be a string`)
    }
    return meta as ConversationMetadata
  }

  /**
   * Loads everything stored for `id` (once per command: later calls return
   * the same object, whose `events` the caller may append to and save).
   * Corrupt files raise CorruptFileError (or ConfigError for base_config.json).
   */
  load(id: string): Promise<Conversation> {
    let conv = this.loaded.get(id)
    if (!conv) {
      conv = this.read(id)
      this.loaded.set(id, conv)
      conv.catch(() => this.loaded.delete(id))
    }
    return conv
  }

  /**
   * For a conversation read before its lock was taken: reads it again if any
   * of its files changed since (another jp wrote it meanwhile). Compares
   * stat data only; call it with the lock held.
   */
  async reloadIfChanged(id: string): Promise<void> {
    const before = this.readAs.get(id)
    if (before === undefined || before === (await this.fileState(id))) return
    this.loaded.delete(id)
    this.journals.delete(id)
    await this.load(id)
  }

  private async fileState(id: string): Promise<string> {
    const p = this.paths(id)
    const states = await Promise.all(
      [p.events, p.eventsLog, p.metadata, p.baseConfig].map((f) =>
        lstat(f, {bigint: true}).then(
          (s) => `${s.ino}:${s.size}:${s.mtimeNs}`,
          () => '-',
        ),
      ),
    )
    return states.join(' ')
  }

  private async read(id: string): Promise<Conversation> {
    const p = await this.mustExist(id)
    // Taken before reading: a write in between shows as a change later.
    this.readAs.set(id, await this.fileState(id))
    const [stored, metadata, baseConfig] = await Promise.all([loadEvents(p.events, p.eventsLog), this.readMetadata(p.metadata), this.readKnownJson(p.baseConfig)])
    const {validatePartial} = await import('../config/load.js')
    validatePartial(baseConfig ?? {}, p.baseConfig)
    this.journals.set(id, new EventJournal(p.events, p.eventsLog, stored))
    return {id, events: stored.events, metadata, baseConfig: (baseConfig ?? {}) as Record<string, unknown>}
  }

  /** Creates a new, empty conversation and returns its id (`jp-c<deciseconds since epoch>`, unique). */
  async create(opts: {title?: string; baseConfig?: Record<string, unknown>} = {}): Promise<string> {
    const {id, release} = await this.createLocked(opts)
    await release()
    return id
  }

  /**
   * Creates a new conversation and returns it still locked: its files are
   * written with the lock held, like every write of a conversation.
   */
  async createLocked(opts: {title?: string; baseConfig?: Record<string, unknown>} = {}): Promise<{id: string; release: () => Promise<void>}> {
    if (await ensureWorkspace(this.workspace)) this.opts.onWorkspaceCreated?.(this.workspace)
    await ensurePrivateDir(this.workspace.conversationsDir)
    let n = Math.floor(Date.now() / 100)
    for (;;) {
      const id = `jp-c${n}`
      try {
        await mkdir(this.paths(id).dir, {mode: DIR_MODE}) // exclusive: two creators never share an id
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
        n++
        continue
      }
      const release = await acquireLock(join(this.paths(id).dir, '.lock'), id)
      try {
        const now = new Date().toISOString()
        const meta: ConversationMetadata = {created_at: now, last_activated_at: now}
        if (opts.title !== undefined) meta.title = opts.title
        if (this.workspace.scope !== undefined) meta.directory = this.workspace.scope
        const p = this.paths(id)
        // Three independent files: written together, each atomically.
        await Promise.all([this.writeKnown(p.metadata, toJson(meta)), writeFileDurably(p.events, toJson([])), this.writeKnown(p.baseConfig, toJson(opts.baseConfig ?? {}))])
      } catch (e) {
        await release()
        throw e
      }
      return {id, release}
    }
  }

  /**
   * Where the active conversation's id is kept: `.jp/active_conversation`;
   * outside any workspace, one file per directory (`.jp/active/<dir's key>`),
   * so a query in one directory never continues another's conversation.
   */
  private get activeFile(): string {
    const scope = this.workspace.scope
    if (scope === undefined) return join(this.workspace.jpDir, 'active_conversation')
    const slug = basename(scope).replace(/[^A-Za-z0-9._-]/g, '_') || 'root'
    return join(this.workspace.jpDir, 'active', `${slug}-${createHash('sha256').update(scope).digest('hex').slice(0, 16)}`)
  }

  /**
   * The active conversation, or undefined when none is set or it no longer
   * exists. A link at `.jp/active_conversation` (or on the way to the
   * conversation) is refused, not followed.
   */
  async activeId(): Promise<string | undefined> {
    if (!(await realDirs([this.workspace.jpDir, dirname(this.activeFile)]))) return undefined
    const text = await readText(this.activeFile)
    if (text === undefined) return undefined
    this.known.set(this.activeFile, text)
    const id = text.trim()
    return id && (await this.exists(id)) ? id : undefined
  }

  /**
   * Makes `id` the active conversation and stamps its `last_activated_at`.
   * Call it with the conversation's lock held: it writes metadata.json.
   */
  async setActive(id: string): Promise<void> {
    // Only the metadata is needed: the history is not parsed to stamp a time.
    const loaded = this.loaded.get(id)
    const metadata = loaded ? (await loaded).metadata : await this.readMetadata(this.paths(id).metadata)
    const scope = this.workspace.scope
    const first = scope !== undefined && !(await lstat(this.activeFile).catch(() => undefined))
    if (scope !== undefined) await ensurePrivateDir(dirname(this.activeFile))
    await Promise.all([
      this.saveMetadata(id, {...metadata, last_activated_at: new Date().toISOString()}),
      // No lock guards this file: compared with what is on disk now, not with what this command read earlier.
      writeIfChanged(this.activeFile, id + '\n'),
    ])
    if (first) this.opts.onScopeStarted?.(scope)
  }

  /** Deletes a conversation (and its draft). Fails if another process holds its lock. */
  async remove(id: string): Promise<void> {
    const p = await this.mustExist(id)
    const release = await this.lock(id, {waitMs: 0})
    try {
      await rm(p.dir, {recursive: true, force: true})
    } finally {
      await release()
    }
    await rm(join(this.draftPath(id), '..'), {recursive: true, force: true})
    if ((await readText(this.activeFile).catch(() => undefined))?.trim() === id) await rm(this.activeFile, {force: true})
  }

  /**
   * Records `events` as the conversation's events, writing only what changed
   * since the last load or save (see journal.ts). Returns whether anything
   * was written. A conversation not loaded in this command is loaded first.
   */
  async saveEvents(id: string, events: readonly ConversationEvent[]): Promise<boolean> {
    const wrote = await (await this.journal(id)).sync(events)
    const conv = await this.loaded.get(id)
    if (conv) conv.events = events as ConversationEvent[] // later loads in this command see what was saved
    return wrote
  }

  /** Appends streamed text to `events[index][key]`, in memory and on disk (only the new text is written). */
  async appendText(id: string, events: ConversationEvent[], index: number, key: 'message' | 'reasoning', text: string | StreamedChunk): Promise<void> {
    await (await this.journal(id)).append(events, index, key, text)
  }

  /** Makes `events` whole again (re-read from disk) if an answer was too large to keep in memory while it streamed. */
  async completeEvents(id: string, events: ConversationEvent[]): Promise<void> {
    await (await this.journal(id)).ensureComplete(events)
  }

  /** End of a command's writes: what is left is written, and a small conversation's journal folded into events.json. */
  async closeEvents(id: string, events: readonly ConversationEvent[]): Promise<void> {
    await (await this.journal(id)).close(events)
  }

  /** Folds the journal into events.json (with the lock held), so events.json alone holds every event: before an edit. */
  async compactEvents(id: string): Promise<void> {
    // No journal: events.json already holds everything, and is not parsed here,
    // so a corrupt one can still be opened to be repaired.
    if (!this.journals.has(id) && !(await lstat(this.paths(id).eventsLog).catch(() => undefined))) return
    const conv = await this.load(id)
    const journal = await this.journal(id)
    if (journal.hasLog) await journal.compact(conv.events)
  }

  private async journal(id: string): Promise<EventJournal> {
    if (!this.journals.has(id)) await this.load(id)
    return this.journals.get(id)!
  }

  async saveMetadata(id: string, meta: ConversationMetadata): Promise<boolean> {
    const wrote = await this.save(this.paths(id).metadata, meta)
    const conv = this.loaded.get(id)
    if (conv) void conv.then((c) => (c.metadata = meta), () => {})
    return wrote
  }

  async saveBaseConfig(id: string, config: Record<string, unknown>): Promise<boolean> {
    const wrote = await this.save(this.paths(id).baseConfig, config)
    const conv = this.loaded.get(id)
    if (conv) void conv.then((c) => (c.baseConfig = config), () => {})
    return wrote
  }

  /** Small files (metadata, base config): rewritten whole, only when their bytes change. */
  private async save(path: string, value: unknown): Promise<boolean> {
    return this.writeKnown(path, toJson(value))
  }

  private async writeKnown(path: string, text: string): Promise<boolean> {
    if (this.known.get(path) === text) return false
    await writeFileDurably(path, text)
    this.known.set(path, text)
    // After the write: a listing that reads the change log first sees the new file.
    if (basename(path) === 'metadata.json') await this.markChanged(basename(dirname(path)))
    return true
  }

  /**
   * Takes the conversation's lock (a `.lock` file in its directory). A second
   * process waits up to `waitMs`, then gets ConversationLockedError naming the
   * conversation and the holder pid. Resolves to the release function.
   */
  async lock(id: string, opts: {waitMs?: number; onWait?: (deadline: number) => void} = {}): Promise<() => Promise<void>> {
    const p = await this.mustExist(id)
    const release = await acquireLock(join(p.dir, '.lock'), id, {waitMs: opts.waitMs ?? 0, onWait: opts.onWait})
    try {
      // With the lock held nobody else is writing: temp files are a crashed write's leftovers.
      await removeStaleTemps(p.dir)
      // Conversations written by older versions were 0755 (the directory is no link: mustExist checked).
      if (((await lstat(p.dir)).mode & 0o777) !== DIR_MODE) await chmod(p.dir, DIR_MODE)
    } catch {
      // Tidying is best effort; the writes themselves report real problems.
    }
    return release
  }
}

/**
 * The conversation's config layer: its base config with every `config_delta`
 * applied in order. Deltas are validated; errors name events.json.
 */
export async function conversationConfig(store: ConversationStore, conv: Conversation): Promise<Record<string, unknown>> {
  const {mergeConfig, validatePartial} = await import('../config/load.js')
  let cfg: Record<string, unknown> = conv.baseConfig
  for (const [i, e] of conv.events.entries()) {
    if (e.type !== 'config_delta') continue
    const delta = validatePartial((e as {delta: unknown}).delta, `${store.paths(conv.id).events} (event ${i})`)
    cfg = mergeConfig(cfg, delta)
  }
  return cfg
}
