// The listing's summary index (`.jp/conversations/.index.json`): every
// conversation's metadata summary in one file, so the resume picker lists
// 5,000 conversations with one read rather than 5,000 (SPEC §19: the list
// opens within 150 ms). A cache, never the truth: the conversation
// directories are still listed on every use (a conversation made or removed
// by anyone shows), and metadata.json is read again for each id named in
// the change log (`.index.log`), which the store appends to after every
// metadata write. Appends of one short line are atomic, so writers never
// lock the index, and a reader consumes the log from the offset its index
// records: a line appended while it reads is picked up by the next reader.
// Lost or corrupt, the index is rebuilt from the files. Not seen: a
// metadata.json changed by hand outside jp (`jp conversation edit` marks
// what it edited).
import {constants} from 'node:fs'
import {open, rename, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {readBytesSync} from './files.js'
import type {ConversationSummary} from './store.js'

const INDEX = '.index.json'
const LOG = '.index.log'
const VERSION = 1

/** A summary as stored (its `active` flag is decided at each listing). */
export type StoredSummary = Omit<ConversationSummary, 'active'>

interface IndexFile {
  version: number
  /** Bytes of the change log already folded in. */
  logOffset: number
  summaries: StoredSummary[]
}

export interface IndexedListing {
  summaries: StoredSummary[]
  /** Whether anything was read from the conversations' own files (the index is then written back). */
  changed: boolean
  logOffset: number
}

/**
 * Appends `id` to the change log: its metadata.json changed. Never through
 * a link (a `.index.log` committed as a link to a file of the user's must
 * not be appended to); best effort, as the index is only a cache.
 */
export async function markChanged(conversationsDir: string, id: string): Promise<void> {
  try {
    const fh = await open(join(conversationsDir, LOG), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600)
    try {
      await fh.write(id + '\n')
    } finally {
      await fh.close()
    }
  } catch {
    // Unwritable: the next listing after a rebuild is right again; nothing is lost but speed.
  }
}

/**
 * The summaries of `names` (the conversation directories there now): from
 * the index where it has them and the log names no change, else from
 * `summarize` (which reads metadata.json).
 */
export function indexedSummaries(conversationsDir: string, names: readonly string[], summarize: (id: string) => StoredSummary): IndexedListing {
  const log = readOrEmpty(join(conversationsDir, LOG))
  let index = readIndex(conversationsDir)
  // A log shorter than what the index consumed was replaced: nothing in the index can be trusted.
  if (index && index.logOffset > log.length) index = undefined
  const stale = new Set(index ? log.subarray(index.logOffset).toString('utf8').split('\n') : [])
  const known = new Map((index?.summaries ?? []).map((s) => [s.id, s]))
  let changed = !index
  const summaries = names.map((id) => {
    const cached = known.get(id)
    if (cached && !stale.has(id) && !cached.error) return cached
    changed = true
    return summarize(id)
  })
  if (index && summaries.length !== known.size) changed = true
  return {summaries, changed, logOffset: log.length}
}

/** Writes the index (temp file and rename: a reader sees the old or the new one whole). Best effort: a cache. */
export async function writeIndex(conversationsDir: string, listing: IndexedListing): Promise<void> {
  const path = join(conversationsDir, INDEX)
  const temp = `${path}.${process.pid}.tmp`
  const body: IndexFile = {version: VERSION, logOffset: listing.logOffset, summaries: listing.summaries}
  try {
    await writeFile(temp, JSON.stringify(body), {mode: 0o600})
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

function readIndex(conversationsDir: string): IndexFile | undefined {
  try {
    const parsed = JSON.parse(readOrEmpty(join(conversationsDir, INDEX)).toString('utf8')) as IndexFile
    return parsed.version === VERSION && Array.isArray(parsed.summaries) && Number.isInteger(parsed.logOffset) ? parsed : undefined
  } catch {
    return undefined
  }
}
