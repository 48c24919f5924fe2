// The listing's summary index (`.jp/conversation-index.json`): every
// conversation's metadata summary in one file, so the resume picker lists
// 5,000 conversations with one read rather than 5,000 (SPEC §19: the list
// opens within 150 ms). A cache, never the truth: the conversation
// directories are still listed on every use (a conversation made or removed
// by anyone shows), and metadata.json is read again for each id named in
// the change log (`.jp/conversation-index.log`), which the store appends to after every
// metadata write. Appends of one short line are atomic, so writers never
// lock the index, and a reader consumes the log from the offset its index
// records: a line appended while it reads is picked up by the next reader.
// Lost or corrupt, the index is rebuilt from the files. Not seen by the
// picker: a metadata.json changed by hand outside jp (`jp conversation edit`
// marks what it edited); `jp conversation grep` verifies each entry against
// the file's lstat, which sees that too.
// The picker skips even the listing of the directories when conversations/
// is as the index last saw it (`unchangedSummaries`): its inode and mtime
// (adding, removing or renaming an entry changes the mtime), recorded only
// once that mtime had settled (SETTLED_MS before the listing: a change in
// the same clock tick as the previous one could keep it), and nothing
// logged since. The summaries are stored in the listing's order, so
// sorting them again costs one pass.
import {constants, lstatSync} from 'node:fs'
import {open, rename, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {readBytesSync} from './files.js'
import type {ConversationSummary} from './store.js'

/** Beside `conversations/`, not in it: whatever lists that directory finds conversations only. */
const INDEX = 'conversation-index.json'
const LOG = 'conversation-index.log'
const VERSION = 1

/** A summary as stored (its `active` flag is decided at each listing). */
export type StoredSummary = Omit<ConversationSummary, 'active'>

interface IndexFile {
  version: number
  /** Bytes of the change log already folded in. */
  logOffset: number
  summaries: StoredSummary[]
  /** Per id: metadata.json's inode, size and mtime when it was read (for a listing that verifies). */
  stamps: Record<string, string>
  /** conversations/'s inode and mtime before it was listed, when settled (`dirStamp`). */
  dir?: string
}

export interface IndexedListing {
  summaries: StoredSummary[]
  stamps: Record<string, string>
  /** Whether anything was read from the conversations' own files (the index is then written back). */
  changed: boolean
  logOffset: number
  /** `dirStamp` taken before the directory was listed. */
  dir?: string
}

/** How long conversations/'s mtime must have stood before the index trusts it (coarse clocks and file systems). */
const SETTLED_MS = 3000

/**
 * conversations/'s inode and mtime, when its mtime is SETTLED_MS old or
 * more: any later change gives it a later mtime. Taken before the directory
 * is listed (a change in between only makes the next listing list again).
 */
export function dirStamp(conversationsDir: string, now = Date.now()): string | undefined {
  const st = lstatSync(conversationsDir, {throwIfNoEntry: false})
  return st && now - st.mtimeMs >= SETTLED_MS ? `${st.ino}:${st.mtimeMs}` : undefined
}

/**
 * The summaries from the index alone, in the listing's order, when the
 * directory is as the index saw it (`dirStamp` equal), the change log has
 * nothing new and no entry is one to read again (an error: unreadable, a
 * link); else undefined, and the directory is listed.
 */
export function unchangedSummaries(jpDir: string, conversationsDir: string): StoredSummary[] | undefined {
  const index = readIndex(jpDir)
  if (index?.dir === undefined || index.dir !== dirStamp(conversationsDir)) return undefined
  if (readOrEmpty(join(jpDir, LOG)).length !== index.logOffset) return undefined
  return index.summaries.some((s) => s.error !== undefined) ? undefined : index.summaries
}

/**
 * Appends `id` to the change log: its metadata.json changed. Never through
 * a link (a log committed as a link to a file of the user's must
 * not be appended to); best effort, as the index is only a cache.
 */
export async function markChanged(jpDir: string, id: string): Promise<void> {
  try {
    const fh = await open(join(jpDir, LOG), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600)
    try {
      await fh.write(id + '\n')
    } finally {
      await fh.close()
    }
  } catch {
    // Unwritable: the next listing after a rebuild is right again; nothing is lost but speed.
  }
}

/** metadata.json's identity as `lstat` tells it: a write (jp's or anyone's) changes it. */
function stampOf(conversationsDir: string, id: string): string {
  const st = lstatSync(join(conversationsDir, id, 'metadata.json'), {throwIfNoEntry: false})
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-'
}

/**
 * The summaries of `names` (the conversation directories there now): from
 * the index where it has them and the log names no change, else from
 * `summarize` (which reads metadata.json). With `verify`, a cached summary
 * is also checked against metadata.json's `lstat` (one call rather than an
 * open, read and parse), so a change made by hand is seen too: what `jp
 * conversation grep` uses; the picker trusts the log.
 */
export function indexedSummaries(
  jpDir: string,
  conversationsDir: string,
  names: readonly string[],
  summarize: (id: string) => StoredSummary,
  opts: {verify?: boolean; dir?: string} = {},
): IndexedListing {
  const verify = opts.verify ?? false
  const log = readOrEmpty(join(jpDir, LOG))
  let index = readIndex(jpDir)
  // A log shorter than what the index consumed was replaced: nothing in the index can be trusted.
  if (index && index.logOffset > log.length) index = undefined
  const stale = new Set(index ? log.subarray(index.logOffset).toString('utf8').split('\n') : [])
  const known = new Map((index?.summaries ?? []).map((s) => [s.id, s]))
  const oldStamps = index?.stamps ?? {}
  const stamps: Record<string, string> = {}
  // A settled directory the index has not recorded yet is worth one write.
  let changed = !index || index.dir !== opts.dir
  const summaries = names.map((id) => {
    const cached = known.get(id)
    const stamp = verify || !cached ? stampOf(conversationsDir, id) : oldStamps[id]
    if (cached && !stale.has(id) && !cached.error && stamp !== undefined && stamp === oldStamps[id]) {
      stamps[id] = stamp
      return cached
    }
    changed = true
    // Taken before the read: a write in between shows as a change next time.
    stamps[id] = stamp ?? stampOf(conversationsDir, id)
    return summarize(id)
  })
  if (index && summaries.length !== known.size) changed = true
  return {summaries, stamps, changed, logOffset: log.length, dir: opts.dir}
}

/** Writes the index (temp file and rename: a reader sees the old or the new one whole). Best effort: a cache. */
export async function writeIndex(jpDir: string, listing: IndexedListing): Promise<void> {
  const path = join(jpDir, INDEX)
  const temp = `${path}.${process.pid}.tmp`
  const body: IndexFile = {version: VERSION, logOffset: listing.logOffset, summaries: listing.summaries, stamps: listing.stamps, dir: listing.dir}
  try {
    // `wx`: never through a link planted at the temp file's name.
    await writeFile(temp, JSON.stringify(body), {mode: 0o600, flag: 'wx'})
    await rename(temp, path)
  } catch {
    // A read-only workspace lists as before, from the files.
  }
}

/** A file's bytes (no link followed), empty when missing or unreadable. */
function readOrEmpty(path: string): Buffer {
  try {
    return readBytesSync(path) ?? Buffer.alloc(0)
  } catch {
    return Buffer.alloc(0)
  }
}

function readIndex(jpDir: string): IndexFile | undefined {
  try {
    const parsed = JSON.parse(readOrEmpty(join(jpDir, INDEX)).toString('utf8')) as IndexFile
    const valid = parsed.version === VERSION && Array.isArray(parsed.summaries) && Number.isInteger(parsed.logOffset) && typeof parsed.stamps === 'object' && parsed.stamps !== null
    return valid && (parsed.dir === undefined || typeof parsed.dir === 'string') ? parsed : undefined
  } catch {
    return undefined
  }
}
