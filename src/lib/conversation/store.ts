// Conversation storage (SPEC §10): `.jp/conversations/<id>/` holding
// events.json, metadata.json and base_config.json. Writes are atomic and only
// happen when bytes change; a corrupt file is reported by path and never
// overwritten (load fails, so nothing is ever saved over it).
import {createHash} from 'node:crypto'
import {mkdir, readdir, readFile, rm, stat} from 'node:fs/promises'
import {basename, join} from 'node:path'
import {eventsProblem, type ConversationEvent} from './events.js'
import {CorruptFileError, readJson, toJson, writeIfChanged} from './files.js'
import {acquireLock} from './lock.js'
import {userDataDir} from './paths.js'
import {ensureWorkspace, type Workspace} from './workspace.js'

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
  active: boolean
  /** Set when metadata.json could not be read; the rest is then unknown. */
  error?: string
}

export interface ConversationPaths {
  dir: string
  events: string
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
const META_STRING_KEYS = ['title', 'pinned_at', 'last_activated_at', 'created_at'] as const

export interface StoreOptions {
  env?: NodeJS.ProcessEnv
  /** Called when a write had to create the workspace directories (the default workspace's first use). */
  onWorkspaceCreated?: (ws: Workspace) => void
}

export class ConversationStore {
  private readonly env: NodeJS.ProcessEnv

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

  async exists(id: string): Promise<boolean> {
    if (!SAFE_ID.test(id)) return false
    try {
      return (await stat(this.paths(id).dir)).isDirectory()
    } catch {
      return false
    }
  }

  private async mustExist(id: string): Promise<ConversationPaths> {
    if (!(await this.exists(id))) throw new ConversationNotFoundError(id, this.workspace.root)
    return this.paths(id)
  }

  async list(): Promise<ConversationSummary[]> {
    let names: string[]
    try {
      names = (await readdir(this.workspace.conversationsDir, {withFileTypes: true}))
        .filter((d) => d.isDirectory() && SAFE_ID.test(d.name))
        .map((d) => d.name)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw e
    }
    const active = await this.activeId()
    const out: ConversationSummary[] = []
    for (const id of names) {
      const summary: ConversationSummary = {id, active: id === active}
      try {
        const meta = await this.readMetadata(this.paths(id).metadata)
        for (const k of META_STRING_KEYS) if (typeof meta[k] === 'string') summary[k] = meta[k] as string
      } catch (e) {
        summary.error = (e as Error).message
      }
      out.push(summary)
    }
    const recency = (s: ConversationSummary) => s.last_activated_at ?? s.created_at ?? ''
    return out.sort(
      (a, b) =>
        Number(Boolean(b.pinned_at)) - Number(Boolean(a.pinned_at)) ||
        recency(b).localeCompare(recency(a)) ||
        b.id.localeCompare(a.id, undefined, {numeric: true}),
    )
  }

  private async readMetadata(path: string): Promise<ConversationMetadata> {
    const meta = await readJson(path)
    if (meta === undefined) return {}
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new CorruptFileError(path, 'expected a JSON object')
    for (const k of META_STRING_KEYS) {
      const v = (meta as Record<string, unknown>)[k]
      if (v !== undefined && v !== null && typeof v !== 'string') throw new CorruptFileError(path, `"${k}" must be a string`)
    }
    return meta as ConversationMetadata
  }

  /** Loads everything stored for `id`. Corrupt files raise CorruptFileError (or ConfigError for base_config.json). */
  async load(id: string): Promise<Conversation> {
    const p = await this.mustExist(id)
    const events = (await readJson(p.events)) ?? []
    const problem = eventsProblem(events)
    if (problem) throw new CorruptFileError(p.events, problem)
    const metadata = await this.readMetadata(p.metadata)
    const baseConfig = (await readJson(p.baseConfig)) ?? {}
    const {validatePartial} = await import('../config/load.js')
    validatePartial(baseConfig, p.baseConfig)
    return {id, events: events as ConversationEvent[], metadata, baseConfig: baseConfig as Record<string, unknown>}
  }

  /** Creates a new, empty conversation and returns its id (`jp-c<deciseconds since epoch>`, unique). */
  async create(opts: {title?: string; baseConfig?: Record<string, unknown>} = {}): Promise<string> {
    if (await ensureWorkspace(this.workspace)) this.opts.onWorkspaceCreated?.(this.workspace)
    let n = Math.floor(Date.now() / 100)
    for (;;) {
      const id = `jp-c${n}`
      try {
        await mkdir(this.paths(id).dir) // exclusive: two creators never share an id
        const now = new Date().toISOString()
        const meta: ConversationMetadata = {created_at: now, last_activated_at: now}
        if (opts.title !== undefined) meta.title = opts.title
        // Three independent files: written together, each atomically.
        await Promise.all([this.saveMetadata(id, meta), this.saveEvents(id, []), this.saveBaseConfig(id, opts.baseConfig ?? {})])
        return id
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
        n++
      }
    }
  }

  private get activeFile(): string {
    return join(this.workspace.jpDir, 'active_conversation')
  }

  /** The active conversation, or undefined when none is set or it no longer exists. */
  async activeId(): Promise<string | undefined> {
    let id: string
    try {
      id = (await readFile(this.activeFile, 'utf8')).trim()
    } catch {
      return undefined
    }
    return id && (await this.exists(id)) ? id : undefined
  }

  /** Makes `id` the active conversation and stamps its `last_activated_at`. */
  async setActive(id: string): Promise<void> {
    const p = await this.mustExist(id)
    const meta = await this.readMetadata(p.metadata)
    await Promise.all([
      this.saveMetadata(id, {...meta, last_activated_at: new Date().toISOString()}),
      writeIfChanged(this.activeFile, id + '\n'),
    ])
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
    try {
      if ((await readFile(this.activeFile, 'utf8')).trim() === id) await rm(this.activeFile, {force: true})
    } catch {
      // no active file
    }
  }

  /** Each save returns whether bytes were written (false: unchanged on disk). */
  async saveEvents(id: string, events: readonly ConversationEvent[]): Promise<boolean> {
    return this.save(this.paths(id).events, events)
  }

  async saveMetadata(id: string, meta: ConversationMetadata): Promise<boolean> {
    return this.save(this.paths(id).metadata, meta)
  }

  async saveBaseConfig(id: string, config: Record<string, unknown>): Promise<boolean> {
    return this.save(this.paths(id).baseConfig, config)
  }

  private async save(path: string, value: unknown): Promise<boolean> {
    await mkdir(join(path, '..'), {recursive: true})
    return writeIfChanged(path, toJson(value))
  }

  /**
   * Takes the conversation's lock (a `.lock` file in its directory). A second
   * process waits up to `waitMs`, then gets ConversationLockedError naming the
   * conversation and the holder pid. Resolves to the release function.
   */
  async lock(id: string, opts: {waitMs?: number; onWait?: (deadline: number) => void} = {}): Promise<() => Promise<void>> {
    const p = await this.mustExist(id)
    return acquireLock(join(p.dir, '.lock'), id, {waitMs: opts.waitMs ?? 0, onWait: opts.onWait})
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
