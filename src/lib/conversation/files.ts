// File I/O for conversation storage: durable atomic replacement (temp file,
// every byte checked, fsync, rename, fsync of the directory), appends that
// undo themselves when they cannot complete, and JSON reads that report a
// corrupt file by path, line and column. Conversations hold private chats:
// files are created 0600 and directories 0700.
//
// Hand-written rather than write-file-atomic: its 6.0.0 issues a single
// write() and renames whatever it wrote, so a short write on a nearly full
// disk became the new file. The few lines below loop until every byte is
// written (a zero-byte write is an error), and only then rename.
import {randomBytes} from 'node:crypto'
import {chmod, mkdir, open, readdir, readFile, rename, stat, truncate, unlink, type FileHandle} from 'node:fs/promises'
import {dirname, join} from 'node:path'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

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
export async function writeFileDurably(path: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const temp = tempPathFor(path)
  let fh: FileHandle | undefined
  try {
    fh = await open(temp, 'wx', FILE_MODE)
    await writeAll(fh, bytes)
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
 * Returns the new size.
 */
export async function appendDurably(path: string, data: string | Uint8Array | Uint8Array[], knownSize?: number): Promise<number> {
  // Parts are written one after the other: a large chunk is never copied into one buffer first.
  const parts = typeof data === 'string' ? [Buffer.from(data, 'utf8')] : Array.isArray(data) ? data : [data]
  let fh: FileHandle | undefined
  let size = knownSize ?? -1
  let created = false
  try {
    if (size < 0) {
      try {
        size = (await stat(path)).size
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        size = 0
        created = true
      }
    }
    fh = await open(path, created ? 'wx' : 'r+', FILE_MODE)
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
    await fh?.close().catch(() => {})
    if (created) await unlink(path).catch(() => {})
    else if (size >= 0) await truncate(path, size).catch(() => {})
    if (error instanceof WriteFailedError) throw error
    throw new WriteFailedError(path, error)
  }
}

/** Creates `dir` (and missing parents) 0700; an existing directory is tightened to 0700. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, {recursive: true, mode: DIR_MODE})
  const st = await stat(dir)
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

/** Reads and parses a JSON file; undefined when missing; CorruptFileError when unparsable. */
export async function readJson(path: string): Promise<unknown> {
  const text = await readText(path)
  return text === undefined ? undefined : parseJson(path, text)
}

/** A file's bytes, or undefined when it does not exist. */
export async function readBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
}

/** A file's text, or undefined when it does not exist. */
export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
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

