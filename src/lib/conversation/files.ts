// File I/O for conversation storage: durable atomic replacement (temp file,
// every byte checked, fsync, rename, fsync of the directory), appends that
// undo themselves when they cannot complete, and JSON reads that report a
// corrupt file by path, line and column. Conversations hold private chats:
// files are created 0600 and directories 0700.
//
// Nothing here follows a symbolic link (issue 28): a cloned repository can
// ship `.jp/conversations/ID/events.log` as a link to one of your files.
// Files are opened with O_NOFOLLOW (and must be regular files), new files
// are created with O_EXCL (which fails on any link, dangling too), a rename
// replaces a link rather than its target, and `realDir` checks the
// directories on the way down. A link is refused with SymlinkRefusedError,
// one line naming it.
//
// Hand-written rather than write-file-atomic: its 6.0.0 issues a single
// write() and renames whatever it wrote, so a short write on a nearly full
// disk became the new file. The few lines below loop until every byte is
// written (a zero-byte write is an error), and only then rename.
import {randomBytes} from 'node:crypto'
import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {chmod, lstat, mkdir, open, readdir, rename, unlink, type FileHandle} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {jsonParts} from '../text/json-bytes.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

const {O_RDONLY, O_RDWR, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK} = constants
/** Reading never follows a link, and a FIFO planted in place of a file cannot block the open. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK
const UPDATE_FLAGS = O_RDWR | O_NOFOLLOW | O_NONBLOCK
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL

/** A symbolic link where jp keeps its own files: refused, never followed. */
export class SymlinkRefusedError extends Error {
  readonly code = 'ELOOP'
  constructor(readonly path: string) {
    super(`refusing to use ${path}: it is a symbolic link, and jp follows no links where it keeps its own files (replace it with the real file or directory)`)
    this.name = 'SymlinkRefusedError'
  }
}

/** Something that is not a regular file (a directory, a FIFO, a device) where jp keeps a file. */
export class NotAFileError extends Error {
  constructor(readonly path: string) {
    super(`refusing to use ${path}: it is not a regular file`)
    this.name = 'NotAFileError'
  }
}

/** Opens `path` without following a link; undefined when it does not exist. */
async function openNoFollow(path: string, flags: number): Promise<FileHandle | undefined> {
  let fh: FileHandle
  try {
    fh = await open(path, flags)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') throw new SymlinkRefusedError(path)
    throw e
  }
  try {
    if (!(await fh.stat()).isFile()) throw new NotAFileError(path)
  } catch (e) {
    await fh.close().catch(() => {})
    throw e
  }
  return fh
}

/**
 * Makes sure each of `dirs` (in order, outermost first) is a real directory
 * when it exists: a link is refused, and so is anything else that is not a
 * directory. Returns whether the last one exists.
 */
export async function realDirs(dirs: readonly string[]): Promise<boolean> {
  for (const [i, dir] of dirs.entries()) {
    let st
    try {
      st = await lstat(dir)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw e
    }
    if (st.isSymbolicLink()) throw new SymlinkRefusedError(dir)
    if (!st.isDirectory()) throw new Error(`refusing to use ${dir}: it is not a directory`)
    if (i === dirs.length - 1) return true
  }
  return dirs.length > 0
}

export class CorruptFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem} (the file was left unchanged; fix or remove it)`)
    this.name = 'CorruptFileError'
  }
}

/** A failed write, naming the file (not a temp file or an fd) and saying the old content is intact. */
export class WriteFailedError extends Error {
  readonly code: string | undefined
  constructor(
    readonly path: string,
    cause: unknown,
    kept = 'the previous content is unchanged',
  ) {
    const err = cause as NodeJS.ErrnoException
    const reason = (err?.message ?? String(cause)).replace(/, (open|write|fsync|rename|close|ftruncate)\b.*$/, '')
    super(`cannot write ${path}: ${reason} (${kept})`, {cause})
    this.name = 'WriteFailedError'
    this.code = err?.code
  }
}

/** Writes all of `data` at the handle's position (or `position`), however many write() calls it takes. */
export async function writeAll(fh: FileHandle, data: Uint8Array, position: number | null = null): Promise<void> {
  let done = 0
  while (done < data.length) {
    const {bytesWritten} = await fh.write(data, done, data.length - done, position === null ? null : position + done)
    // write(2) returning 0 for a non-empty buffer means no progress can be made.
    if (bytesWritten <= 0) throw Object.assign(new Error('ENOSPC: no space left on device (short write)'), {code: 'ENOSPC'})
    done += bytesWritten
  }
}

const TEMP_SUFFIX = '.jp-tmp'

/** The temp file a durable write of `path` uses (unique per write). */
function tempPathFor(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
}

/** Whether `name` is a temp file one of our writes left behind (a crash between write and rename). */
export function isTempName(name: string): boolean {
  return name.endsWith(TEMP_SUFFIX) || /\.json\.\d+$/.test(name) // the second: write-file-atomic's names in older versions
}

/**
 * Replaces `path` with `data` so that a reader sees either the old file or
 * all of the new one, also after a crash or power loss: temp file (0600) in
 * the same directory, every byte written, fsync, rename, fsync of the
 * directory. On any failure the temp file is removed, `path` is untouched,
 * and a WriteFailedError names `path`.
 */
export async function writeFileDurably(path: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  // Parts are written one after the other: a large file is never joined into one buffer first.
  const parts = fewWrites(typeof data === 'string' ? [Buffer.from(data, 'utf8')] : data instanceof Uint8Array ? [data] : data)
  const temp = tempPathFor(path)
  let fh: FileHandle | undefined
  try {
    fh = await open(temp, 'wx', FILE_MODE)
    for (const part of parts) await writeAll(fh, part)
    await fh.sync()
    await fh.close()
    fh = undefined
    await rename(temp, path)
  } catch (error) {
    await fh?.close().catch(() => {})
    await unlink(temp).catch(() => {})
    throw new WriteFailedError(path, error)
  }
  await syncDir(dirname(path), path)
}

/** Small parts (a few records) joined into one write; large ones are left as they are. */
function fewWrites(parts: readonly Uint8Array[]): readonly Uint8Array[] {
  if (parts.length < 2) return parts
  let total = 0
  for (const p of parts) total += p.length
  return total <= 64 * 1024 ? [Buffer.concat(parts)] : parts
}

/** Makes a rename or a new file in `dir` durable. */
export async function syncDir(dir: string, forPath = dir): Promise<void> {
  let fh: FileHandle | undefined
  try {
    fh = await open(dir, 'r')
    await fh.sync()
  } catch (error) {
    // Some file systems refuse fsync on a directory (EINVAL); nothing more can be done there.
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'ENOTSUP') throw new WriteFailedError(forPath, error, 'it may not survive a power loss')
  } finally {
    await fh?.close().catch(() => {})
  }
}

/**
 * Appends `data` to `path` (created 0600 when missing) and fsyncs it. When
 * the append cannot complete, the file is cut back to its old length (or
 * removed, when this call created it), so no partial record stays behind.
 * With `knownSize`, the file is first cut to that length (a torn last line
 * from a crash). Returns the new size. A link at `path` is refused.
 */
export async function appendDurably(path: string, data: string | Uint8Array | Uint8Array[], knownSize?: number): Promise<number> {
  // Parts are written one after the other: a large chunk is never copied into one buffer first.
  const parts = fewWrites(typeof data === 'string' ? [Buffer.from(data, 'utf8')] : Array.isArray(data) ? data : [data])
  let fh: FileHandle | undefined
  let size = -1
  let created = false
  try {
    fh = await openNoFollow(path, UPDATE_FLAGS)
    if (fh) {
      const onDisk = (await fh.stat()).size
      size = knownSize ?? onDisk
      if (onDisk > size) await fh.truncate(size)
    } else {
      // O_EXCL: a dangling link at `path` fails here instead of creating its target.
      fh = await open(path, CREATE_FLAGS, FILE_MODE).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'EEXIST' ? new SymlinkRefusedError(path) : e
      })
      created = true
      size = 0
    }
    let at = size
    for (const part of parts) {
      await writeAll(fh, part, at)
      at += part.length
    }
    await fh.sync()
    await fh.close()
    fh = undefined
    if (created) await syncDir(dirname(path), path)
    return at
  } catch (error) {
    if (fh && !created && size >= 0) await fh.truncate(size).catch(() => {})
    await fh?.close().catch(() => {})
    if (created) await unlink(path).catch(() => {})
    if (error instanceof WriteFailedError || error instanceof SymlinkRefusedError || error instanceof NotAFileError) throw error
    throw new WriteFailedError(path, error)
  }
}

/** Creates `dir` (and missing parents) 0700; an existing directory is tightened to 0700. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, {recursive: true, mode: DIR_MODE})
  const st = await lstat(dir)
  // A link is never chmodded: that would change its target.
  if (st.isSymbolicLink()) throw new SymlinkRefusedError(dir)
  if ((st.mode & 0o777) !== DIR_MODE) await chmod(dir, DIR_MODE).catch(() => {})
}

/** Removes temp files a crashed write left in `dir` (call with the conversation's lock held). */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return
  }
  await Promise.all(names.filter(isTempName).map((n) => unlink(join(dir, n)).catch(() => {})))
}

/**
 * Writes `text` durably unless the file already holds exactly these bytes;
 * returns whether it wrote. For small files outside a conversation (a
 * conversation's store compares against what it read, never re-reads).
 */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  if ((await readText(path)) === text) return false
  await writeFileDurably(path, text)
  return true
}

export const toJson = (value: unknown) => JSON.stringify(value, null, 2) + '\n'

/** `toJson` as UTF-8 parts (text/json-bytes.ts: a large string escaped once). */
export const toJsonParts = (value: unknown): Buffer[] => [...jsonParts(value, 2), Buffer.from('\n')]

/** Reads and parses a JSON file; undefined when missing; CorruptFileError when unparsable. */
export async function readJson(path: string): Promise<unknown> {
  const text = await readText(path)
  return text === undefined ? undefined : parseJson(path, text)
}

/** A file's bytes, or undefined when it does not exist; a link or a non-file is refused. */
export async function readBytes(path: string): Promise<Buffer | undefined> {
  const fh = await openNoFollow(path, READ_FLAGS)
  if (!fh) return undefined
  try {
    return await fh.readFile()
  } finally {
    await fh.close()
  }
}

/**
 * `readBytes` without the thread pool: for scans of thousands of small files
 * (`jp conversation ls`, `grep`), where each asynchronous call costs more
 * than the read. Same refusals.
 */
export function readBytesSync(path: string): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(path, READ_FLAGS)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP' || code === 'EMLINK') throw new SymlinkRefusedError(path)
    throw e
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new NotAFileError(path)
    return readToEnd(fd, st.size)
  } finally {
    closeSync(fd)
  }
}

/**
 * The rest of an open file, read into a buffer of its known size (one fstat,
 * not readFileSync's second); a file that grew meanwhile is read to its end.
 */
function readToEnd(fd: number, size: number): Buffer {
  // One byte spare: the read that finds the end needs room, or the buffer would grow for nothing.
  let buf = Buffer.allocUnsafe(size + 1)
  let at = 0
  for (;;) {
    if (at === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(Math.max(buf.length, 8192))])
    const n = readSync(fd, buf, at, buf.length - at, null)
    if (n === 0) return buf.subarray(0, at)
    at += n
  }
}

/** A file's text, or undefined when it does not exist; a link or a non-file is refused. */
export async function readText(path: string): Promise<string | undefined> {
  return (await readBytes(path))?.toString('utf8')
}

export function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new CorruptFileError(path, `invalid JSON${jsonErrorPosition(text, (e as Error).message)}: ${(e as Error).message}`)
  }
}

/** ` at line L, column C` from V8's "at position N" message, when present. */
function jsonErrorPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message)
  if (!m) return ''
  const pos = Number(m[1])
  const before = text.slice(0, pos)
  const line = before.split('\n').length
  const column = pos - before.lastIndexOf('\n')
  return ` at line ${line}, column ${column}`
}

