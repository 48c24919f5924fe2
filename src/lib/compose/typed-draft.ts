// What the user types in an inline prompt, kept on disk as it is typed, so a
// SIGKILL, a closed terminal or a power cut costs at most the last half
// second of typing (SPEC §17 "Query composition"). Writes are debounced and
// atomic (a 0600 temp file renamed over the draft), never on the key path:
// a keystroke only schedules the write.
import {randomBytes} from 'node:crypto'
import {constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync, fsyncSync, closeSync} from 'node:fs'
import {dirname, join, basename} from 'node:path'
import type {TypedDraftSink} from './inline.js'

/** At most this far behind the typing: the last write is never older than this. */
export const TYPED_DRAFT_MAX_LAG_MS = 400
/** A pause in typing this long writes at once. */
const QUIET_MS = 150

/** The file names beside `QUERY_MESSAGE.md` (the conversation's draft directory). */
export const INLINE_QUERY_FILE = 'INLINE_QUERY.txt'
export const INLINE_REPLY_FILE = 'INLINE_REPLY.txt'

export class TypedDraft {
  private pending: string | undefined
  private quiet: NodeJS.Timeout | undefined
  private lag: NodeJS.Timeout | undefined

  constructor(readonly path: string) {}

  /** The text a crashed prompt left behind; undefined when there is none (or it is blank). */
  read(): string | undefined {
    try {
      const text = readPrivateFile(this.path)
      return text === undefined || text.trim() === '' ? undefined : text
    } catch {
      return undefined
    }
  }

  /** Records the buffer as typed; a blank buffer removes the draft (the user emptied it). */
  update(text: string): void {
    this.pending = text
    clearTimeout(this.quiet)
    this.quiet = setTimeout(() => this.flush(), QUIET_MS).unref()
    this.lag ??= setTimeout(() => this.flush(), TYPED_DRAFT_MAX_LAG_MS).unref()
  }

  /** Writes what is pending now (also called when the prompt ends). */
  flush(): void {
    clearTimeout(this.quiet)
    clearTimeout(this.lag)
    this.quiet = this.lag = undefined
    const text = this.pending
    this.pending = undefined
    if (text === undefined) return
    try {
      if (text.trim() === '') this.remove()
      else writeAtomic(this.path, text)
    } catch {
      // A draft that cannot be written must never break the prompt; the
      // typed text is still in the buffer.
    }
  }

  /** The text was sent (or deliberately emptied): nothing to recover. */
  clear(): void {
    this.pending = undefined
    clearTimeout(this.quiet)
    clearTimeout(this.lag)
    this.quiet = this.lag = undefined
    this.remove()
  }

  private remove(): void {
    rmSync(this.path, {force: true})
  }
}

/**
 * A draft's text, read without following a link or blocking on a FIFO
 * planted in its place (the data dir is jp's: nothing there is read through
 * a link); undefined for anything but a regular file.
 */
function readPrivateFile(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined
  } finally {
    closeSync(fd)
  }
}

// The rename replaces a link planted at `path` rather than writing through it.
function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), {recursive: true, mode: 0o700})
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(temp, 'wx', 0o600)
  try {
    // writeSync may write less than asked (a full disk): loop until every byte is out.
    const bytes = Buffer.from(text, 'utf8')
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temp, {force: true})
    throw error
  }
  closeSync(fd)
  renameSync(temp, path)
}

/**
 * The reply draft of a conversation: the sink its reply prompts type into,
 * and the reply a crashed run left unsent (offered first by Up, until a
 * reply is sent).
 */
export function replyDraft(queryDraftPath: string): {sink: TypedDraftSink; unsent(): string[]} {
  const draft = new TypedDraft(join(dirname(queryDraftPath), INLINE_REPLY_FILE))
  let left = draft.read()
  const sink: TypedDraftSink = {
    update: (text) => draft.update(text),
    flush: () => draft.flush(),
    clear: () => {
      left = undefined
      draft.clear()
    },
  }
  return {sink, unsent: () => (left === undefined ? [] : [left])}
}
