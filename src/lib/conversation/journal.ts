// The events journal: `events.log` next to `events.json`, so a turn writes
// what changed instead of the whole history (issue 14). events.json stays a
// pretty-printed JSON array (what `jp conversation edit --events` opens and
// what older versions wrote); events.log holds one JSON record per line,
// each a change to that array made after events.json was last written:
//
//   {"jp_events_log":1,"base_bytes":N,"base_events":M}   first line: the events.json it continues
//   {"at":I,"event":{...}}           events[I] = event, dropping anything from I on (I ≤ length)
//   {"truncate":N}                   drop events from N on
//   {"at":I,"append":{"message":T}}  append T to a string field (the answer as it streams)
//   {"at":I,"set":{"signature":S}}   set fields of events[I]
//   {"compacted_to":{...}}           a marker: events.json is being rewritten with everything
//
// Every record is appended and fsynced before the command goes on; a last
// line without its newline is a write cut short by a crash and is ignored
// (and cut off by the next append). The journal is folded back into
// events.json ("compacted") at the end of a command while the conversation
// is small, and otherwise at the first write of a command once the log has
// grown as large as events.json: writes stay proportional to what changed,
// amortised, and a streaming answer never rewrites the history.
import {rm} from 'node:fs/promises'
import {eventsProblem, type ConversationEvent} from './events.js'
import {chunkOf, chunkText, type StreamedChunk} from './streamed-chunk.js'
import {jsonParts, partsLength} from '../text/json-bytes.js'
import {appendDurably, CorruptFileError, parseJson, readBytes, readBytesSync, readText, toJsonParts, writeFileDurably} from './files.js'

/**
 * Folding the log into events.json failed, but every event is saved in the
 * log (the next load replays it, the next command tries again): a warning,
 * not a failure of the command (issue 28).
 */
export class CompactionFailedError extends Error {
  constructor(logPath: string, cause: unknown) {
    const reason = ((cause as Error)?.message ?? String(cause)).replace(/^cannot write \S+: /, '').replace(/ \(the previous content is unchanged\)$/, '')
    super(`the turn is saved in ${logPath}, but it could not be folded into events.json: ${reason}; the next run tries again`, {cause})
    this.name = 'CompactionFailedError'
  }
}

export function isCompactionFailed(e: unknown): e is CompactionFailedError {
  return e instanceof Error && e.name === 'CompactionFailedError'
}

/** Conversations up to this size (events.json + events.log) are compacted at the end of every command. */
export const SMALL_CONVERSATION_BYTES = 256 * 1024
/** A log smaller than this is never worth compacting on its own. */
const MIN_COMPACT_LOG_BYTES = 1024 * 1024

/**
 * A streamed field longer than this (in characters) stops growing in memory:
 * the rest of a very large answer is only on disk (memory stays flat however
 * long the answer), and the events are re-read from disk if this command
 * needs them whole again (`complete`).
 */
export const IN_MEMORY_FIELD_CHARS = 1 << 20

/** Closes an append record whose text was written as raw bytes. */
const RECORD_END = Buffer.from('"}}\n')
const NEWLINE = Buffer.from('\n')

/** Fields that grow while an answer streams: appended to, never rewritten. */
const STREAMED = new Set(['message', 'reasoning'])

type Fields = Record<string, unknown>

interface Header {
  jp_events_log: 1
  base_bytes: number
  base_events: number
}

/** What was read from disk: the events, and the state the journal continues from. */
export interface LoadedEvents {
  events: ConversationEvent[]
  baseBytes: number
  baseEvents: number
  /** Bytes of the log up to its last complete line (0: no log). */
  logBytes: number
  /** Size of the log file on disk (more than logBytes after a torn write). */
  logFileBytes: number
  /** The log is left over from a finished compaction: remove it before writing. */
  staleLog?: boolean
}

/** Reads events.json and replays events.log over it; CorruptFileError names the file and line. */
export async function loadEvents(eventsPath: string, logPath: string): Promise<LoadedEvents> {
  const [base, log] = await Promise.all([readBytes(eventsPath), readText(logPath)])
  return parseEvents(eventsPath, logPath, base, log)
}

/** `loadEvents` without the thread pool, for read-only scans of many conversations (`jp conversation grep`). */
export function loadEventsSync(eventsPath: string, logPath: string): LoadedEvents {
  return parseEvents(eventsPath, logPath, readBytesSync(eventsPath), readBytesSync(logPath)?.toString('utf8'))
}

/** The events of events.json's bytes with the journal's text replayed over them. */
function parseEvents(eventsPath: string, logPath: string, base: Buffer | undefined, log: string | undefined): LoadedEvents {
  let events: ConversationEvent[] = []
  if (base !== undefined) {
    const parsed = parseJson(eventsPath, base.toString('utf8'))
    const problem = eventsProblem(parsed)
    if (problem) throw new CorruptFileError(eventsPath, problem)
    events = parsed as ConversationEvent[]
  }
  const loaded: LoadedEvents = {events, baseBytes: base?.length ?? 0, baseEvents: events.length, logBytes: 0, logFileBytes: 0}
  if (log === undefined || log === '') return loaded
  loaded.logFileBytes = Buffer.byteLength(log)
  const complete = log.slice(0, log.lastIndexOf('\n') + 1)
  loaded.logBytes = Buffer.byteLength(complete)
  const lines = complete.split('\n')
  lines.pop()
  if (lines.length === 0) return loaded
  const header = lineJson(logPath, lines[0], 1) as Partial<Header>
  if (header.jp_events_log !== 1) throw new CorruptFileError(logPath, 'line 1: not an events log header')
  if (header.base_bytes !== loaded.baseBytes || header.base_events !== loaded.baseEvents) {
    // A compaction that crashed before removing the log: events.json already holds it all.
    const last = lineJson(logPath, lines[lines.length - 1], lines.length) as {compacted_to?: Fields}
    if (last.compacted_to?.base_bytes === loaded.baseBytes && last.compacted_to?.base_events === loaded.baseEvents) {
      return {...loaded, logBytes: 0, logFileBytes: 0, staleLog: true}
    }
    throw new CorruptFileError(
      logPath,
      `continues an events.json of ${header.base_bytes} bytes and ${header.base_events} events, but events.json has ${loaded.baseBytes} bytes and ${loaded.baseEvents} events (events.json was changed behind jp's back; to keep it as it is, remove events.log and lose the changes recorded there)`,
    )
  }
  for (let n = 1; n < lines.length; n++) applyRecord(logPath, events, lineJson(logPath, lines[n], n + 1), n + 1)
  return loaded
}

function lineJson(path: string, line: string, n: number): unknown {
  try {
    return JSON.parse(line)
  } catch (e) {
    throw new CorruptFileError(path, `line ${n}: invalid JSON: ${(e as Error).message}`)
  }
}

const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v)

function applyRecord(path: string, events: ConversationEvent[], record: unknown, n: number): void {
  const bad = (problem: string) => new CorruptFileError(path, `line ${n}: ${problem}`)
  if (!isFields(record)) throw bad('expected an object')
  if (record.compacted_to !== undefined) return // a marker: what follows continues the same base
  if (typeof record.truncate === 'number') {
    const to = record.truncate
    if (!Number.isInteger(to) || to < 0 || to > events.length) throw bad(`cannot truncate ${events.length} events to ${to}`)
    events.length = to
    return
  }
  const at = record.at
  if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) throw bad('missing "at" or "truncate"')
  if (record.event !== undefined) {
    if (at > events.length) throw bad(`event at ${at} but only ${events.length} events`)
    const problem = eventsProblem([record.event])
    if (problem) throw bad(problem.replace(/^event 0/, `event ${at}`))
    events.length = at
    events.push(record.event as ConversationEvent)
    return
  }
  const target = events[at] as Fields | undefined
  if (!target) throw bad(`no event ${at} to change`)
  if (isFields(record.append)) {
    for (const [k, v] of Object.entries(record.append)) {
      if (!STREAMED.has(k) || typeof v !== 'string' || typeof target[k] !== 'string') throw bad(`cannot append to "${k}" of event ${at}`)
      target[k] = (target[k] as string) + v
    }
    return
  }
  if (isFields(record.set)) {
    const problem = eventsProblem([{...target, ...record.set}])
    if (problem) throw bad(problem.replace(/^event 0/, `event ${at}`))
    Object.assign(target, record.set)
    return
  }
  throw bad('unknown record')
}

/**
 * Writes a conversation's events as they change. It remembers which event
 * objects are on disk: `sync` compares by identity (events loaded from disk
 * are never changed in place; the events this command wrote may be, and are
 * compared field by field), and `append` records streamed text without
 * touching the rest.
 */
export class EventJournal {
  /** The event objects as last written, by position. */
  private onDisk: ConversationEvent[]
  /** Field snapshots of the events this command wrote (they may still change in place). */
  private readonly shapes = new Map<number, Fields>()
  private baseBytes: number
  private baseEvents: number
  private logBytes: number
  private logFileBytes: number
  private staleLog: boolean
  /** Whether this command has written yet. */
  private wrote = false
  /** A compaction of this command that failed (the events are in the log); reported at close. */
  private compactionFailure: CompactionFailedError | undefined
  private queue: Promise<unknown> = Promise.resolve()
  /** Events whose streamed field holds only the start of what is on disk. */
  private readonly incomplete = new Set<number>()

  constructor(
    private readonly eventsPath: string,
    private readonly logPath: string,
    loaded: LoadedEvents,
  ) {
    this.onDisk = [...loaded.events]
    this.baseBytes = loaded.baseBytes
    this.baseEvents = loaded.baseEvents
    this.logBytes = loaded.logBytes
    this.logFileBytes = loaded.logFileBytes
    this.staleLog = loaded.staleLog ?? false
  }

  /**
   * Records every difference between `events` and what is on disk. Returns
   * whether anything was written. The first write of a command compacts a
   * log that has grown as large as events.json (the history was parsed
   * anyway; later writes, such as a streaming answer, never rewrite it).
   */
  sync(events: readonly ConversationEvent[]): Promise<boolean> {
    return this.serial(async () => {
      // The log as earlier commands left it: what this write adds never makes it worth folding now
      // (a 200 MB piped query would be written twice, issue 27).
      const inherited = this.wrote ? 0 : this.logBytes
      if (!(await this.writeDiff(events))) return false
      // The diff is saved: a failed compaction is only a warning, said at close.
      if (!this.wrote && inherited >= MIN_COMPACT_LOG_BYTES && inherited >= this.baseBytes) await this.tryCompact(events)
      this.wrote = true
      return true
    })
  }

  /**
   * Appends a chunk of text to `events[index][key]` (a streamed field) on
   * disk, and in memory up to IN_MEMORY_FIELD_CHARS (beyond that, or when
   * the chunk kept only its start, the event is marked incomplete until
   * `complete` re-reads it).
   */
  append(events: ConversationEvent[], index: number, key: 'message' | 'reasoning', text: string | StreamedChunk): Promise<void> {
    const chunk = typeof text === 'string' ? chunkOf(text) : text
    return this.serial(async () => {
      const target = events[index] as Fields
      const shape = this.shapes.get(index)
      if (this.onDisk[index] === events[index] && shape && typeof shape[key] === 'string' && shape[key] === target[key]) {
        // The record is written around the chunk's bytes: the text is never re-encoded or copied.
        await this.appendRecords([], [Buffer.from(`{"at":${index},"append":{${JSON.stringify(key)}:"`), chunk.json, RECORD_END])
        const now = target[key] as string
        if (this.incomplete.has(index) || now.length >= IN_MEMORY_FIELD_CHARS) this.incomplete.add(index)
        else {
          target[key] = shape[key] = now + chunk.text
          if (!chunk.whole) this.incomplete.add(index)
        }
      } else {
        // Not (or no longer) an event this command streamed: record the whole field
        // (of the event as it is after `complete`, which may replace it with the one on disk).
        await this.complete(events)
        const current = events[index] as Fields
        current[key] = String(current[key] ?? '') + chunkText(chunk)
        await this.writeDiff(events, {at: index, set: {[key]: current[key]}})
      }
      this.wrote = true
    })
  }

  /** Re-reads the events from disk when a streamed answer was too large to keep whole in memory. */
  ensureComplete(events: ConversationEvent[]): Promise<void> {
    return this.serial(() => this.complete(events))
  }

  private async complete(events: readonly ConversationEvent[]): Promise<void> {
    if (this.incomplete.size === 0) return
    const loaded = await loadEvents(this.eventsPath, this.logPath)
    const mutable = events as ConversationEvent[]
    mutable.length = 0
    mutable.push(...loaded.events)
    this.onDisk = [...mutable]
    for (const i of [...this.shapes.keys()]) this.shapes.set(i, {...(mutable[i] as Fields)})
    this.incomplete.clear()
  }

  /**
   * Writes what is left and folds the log into events.json when the
   * conversation is small (end of a command). A failed write rejects as
   * such (WriteFailedError: not saved); a failed compaction, once everything
   * is in the log, rejects with CompactionFailedError (saved).
   */
  close(events: readonly ConversationEvent[]): Promise<void> {
    return this.serial(async () => {
      await this.writeDiff(events)
      if (this.logBytes > 0 && this.baseBytes + this.logBytes <= SMALL_CONVERSATION_BYTES) await this.tryCompact(events)
      const failure = this.compactionFailure
      this.compactionFailure = undefined
      if (failure && this.logBytes > 0) throw failure
    })
  }

  private async tryCompact(events: readonly ConversationEvent[]): Promise<void> {
    try {
      await this.compactNow(events)
      this.compactionFailure = undefined
    } catch (error) {
      this.compactionFailure = new CompactionFailedError(this.logPath, error)
    }
  }

  /** Whether events.log exists (events.json alone does not hold every event). */
  get hasLog(): boolean {
    return this.logFileBytes > 0 || this.staleLog
  }

  /** Rewrites events.json with `events` and removes the log (before an edit, or when writing a conversation whole). */
  compact(events: readonly ConversationEvent[]): Promise<void> {
    return this.serial(() => this.compactNow(events))
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn)
    this.queue = run.catch(() => {})
    return run
  }

  /** Appends the records for every difference (plus `extra` for an in-place change of an untracked event). */
  private async writeDiff(events: readonly ConversationEvent[], extra?: Fields): Promise<boolean> {
    const records = this.diff(events)
    if (extra && this.onDisk[extra.at as number] === events[extra.at as number]) records.push(extra)
    if (records.length === 0) return false
    await this.appendRecords(records)
    this.remember(events)
    return true
  }

  /** How many leading positions still hold the same objects as on disk. */
  private samePrefix(events: readonly ConversationEvent[]): number {
    const n = Math.min(events.length, this.onDisk.length)
    let same = 0
    while (same < n && events[same] === this.onDisk[same]) same++
    return same
  }

  private diff(events: readonly ConversationEvent[]): Fields[] {
    const records: Fields[] = []
    let same = this.samePrefix(events)
    for (const [i, shape] of [...this.shapes].sort((a, b) => a[0] - b[0])) {
      if (i >= same) break
      const now = events[i] as Fields
      const append: Fields = {}
      const set: Fields = {}
      let removed = false
      for (const k of new Set([...Object.keys(shape), ...Object.keys(now)])) {
        const before = shape[k]
        const after = now[k]
        if (before === after) continue
        if (after === undefined) removed = true
        else if (STREAMED.has(k) && typeof before === 'string' && typeof after === 'string' && after.startsWith(before)) {
          append[k] = after.slice(before.length)
        } else set[k] = after
      }
      if (removed) {
        // A field was deleted: write this event again (and, by the record's rule, all after it).
        same = i
        break
      }
      if (Object.keys(append).length > 0) records.push({at: i, append})
      if (Object.keys(set).length > 0) records.push({at: i, set})
    }
    if (same === events.length && same < this.onDisk.length) records.push({truncate: same})
    for (let i = same; i < events.length; i++) records.push({at: i, event: events[i]})
    return records
  }

  private remember(events: readonly ConversationEvent[]): void {
    const same = this.samePrefix(events)
    for (const [i, shape] of [...this.shapes]) {
      if (i >= same) this.shapes.delete(i)
      else {
        for (const k of Object.keys(shape)) delete shape[k]
        Object.assign(shape, events[i])
      }
    }
    for (let i = same; i < events.length; i++) this.shapes.set(i, {...(events[i] as Fields)})
    this.onDisk = [...events]
  }

  /** Appends `records` (then the ready-made bytes of one more, if given) as lines of the log. */
  private async appendRecords(records: Fields[], raw: Uint8Array[] = []): Promise<void> {
    if (this.staleLog) {
      await rm(this.logPath, {force: true})
      this.staleLog = false
    }
    // Record by record as parts: a large query is escaped once for this log and the request body (text/json-bytes.ts).
    const parts: Uint8Array[] = []
    if (this.logBytes === 0) {
      const header: Header = {jp_events_log: 1, base_bytes: this.baseBytes, base_events: this.baseEvents}
      parts.push(Buffer.from(JSON.stringify(header) + '\n'))
    }
    for (const r of records) parts.push(...jsonParts(r), NEWLINE)
    parts.push(...raw)
    // From the end of the last complete line: a torn one left by a crash is cut off first.
    this.logBytes = await appendDurably(this.logPath, parts, this.logFileBytes === 0 ? undefined : this.logBytes)
    this.logFileBytes = this.logBytes
  }

  private async compactNow(events: readonly ConversationEvent[]): Promise<void> {
    await this.complete(events) // never fold a shortened answer into events.json
    const text = toJsonParts(events)
    const bytes = partsLength(text)
    // Say in the log which events.json replaces it before writing that file:
    // a crash before the log is removed then leaves a log known to be folded
    // in already, not one that seems to continue a file changed behind jp's back.
    if (this.logFileBytes > 0) await this.appendRecords([{compacted_to: {base_bytes: bytes, base_events: events.length}}])
    await writeFileDurably(this.eventsPath, text)
    // events.json holds everything now: the state follows it before the log goes (a log that
    // cannot be removed is stale, and is removed before the next append).
    this.baseBytes = bytes
    this.baseEvents = events.length
    this.logBytes = 0
    this.logFileBytes = 0
    this.onDisk = [...events]
    this.remember(events) // keeps the snapshots of this command's events current
    this.staleLog = true
    await rm(this.logPath, {force: true})
    this.staleLog = false
  }
}
