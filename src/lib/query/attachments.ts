// `jp query -a PATH` (repeatable) and `@PATH` mentions (SPEC §19): text files
// sent with a message. Each is read and checked before anything is sent — a
// missing file, a directory, a binary file (a NUL byte in its first 8 KiB, as
// git and grep decide) or one larger than `query.attach_max_bytes` is one
// line naming it — then stored as an `attachment` event after the message
// and sent with it, fenced and labelled with its path (turn/messages.ts).
// Both go through `readTextFile`.
//
// Only regular files are read (issue 42): a FIFO, socket or device is refused
// from its stat before any open; the open never blocks either (O_NONBLOCK: a
// FIFO without a writer would hold open() in a libuv thread, deaf to
// SIGTERM), and what it opened is checked again before a byte is read — a
// path swapped in between, `/dev/zero` (never ends), or a `/proc` or `/sys`
// pseudo-file, which reports a size of 0 yet has content.
import {constants, type Stats} from 'node:fs'
import {open, readdir, realpath, stat} from 'node:fs/promises'
import {homedir} from 'node:os'
import {isAbsolute, join, resolve, sep} from 'node:path'
import {findMentions, type Mention} from '../text/mentions.js'
import {QueryError} from './errors.js'

/** How much of a file is looked at for a NUL byte. */
export const BINARY_PROBE_BYTES = 8 * 1024
/** A directory mention attaches at most this many names. */
export const DIRECTORY_LIST_CAP = 200

export interface Attachment {
  /** The path as given on the command line or in the mention (the label the model sees). */
  path: string
  content: string
}

/** Reads every `-a` file, in order; throws QueryError naming the first that cannot be attached. */
export async function readAttachments(paths: readonly string[], opts: {cwd: string; maxBytes: number}): Promise<Attachment[]> {
  const out: Attachment[] = []
  for (const path of paths) {
    const read = await readTextFile(resolve(opts.cwd, path), opts.maxBytes)
    if (typeof read !== 'string') throw new QueryError(`-a ${path}: ${read.problem === 'directory' ? 'is a directory (attach the files in it)' : read.problem}`)
    out.push({path, content: read})
  }
  return out
}

/** Why a file cannot be attached ('directory': the caller decides what a directory means). */
export type ReadProblem = {problem: string}

/**
 * The text of a regular file, or why not. The path is stat'ed first so that a
 * FIFO or a device is refused without opening it (an open could block); the
 * open itself does not block either (O_NONBLOCK) and what it opened is
 * checked again, in case the path changed in between.
 */
export async function readTextFile(absolute: string, maxBytes: number): Promise<string | ReadProblem> {
  const fail = (problem: string): ReadProblem => ({problem})
  const tooLarge = (bytes: number) => fail(`${bytes} bytes, more than query.attach_max_bytes (${maxBytes})`)
  const notRegular = (s: Stats) =>
    s.isDirectory() ? fail('directory') : s.isFile() ? undefined : fail(`is ${specialKind(s)}, not a regular file; only regular files can be attached`)
  let handle
  try {
    const before = notRegular(await stat(absolute))
    if (before) return before
    handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return fail(code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot be read (${code ?? String(e)})`)
  }
  try {
    const s = await handle.stat()
    const after = notRegular(s)
    if (after) return after
    if (s.size > maxBytes) return tooLarge(s.size)
    if (s.size === 0) {
      const probe = await handle.read(Buffer.alloc(1), 0, 1, 0)
      if (probe.bytesRead > 0) return fail('is a special file of unknown size (a /proc or /sys file); only regular files can be attached')
      return ''
    }
    const bytes = await handle.readFile()
    if (bytes.length > maxBytes) return tooLarge(bytes.length)
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return fail('is a binary file (a NUL byte in its first 8 KiB); only text can be attached')
    return bytes.toString('utf8')
  } finally {
    await handle.close()
  }
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  return 'a special file'
}

export interface MentionOptions {
  cwd: string
  /** The workspace root: relative mentions resolve against the cwd first, then here; a link out of it is named in the label. */
  root: string
  maxBytes: number
  home?: string
}

/** Where a mention's path points: `~/`, absolute, else the cwd's file or (if the cwd has none) the workspace root's. */
async function locate(path: string, opts: MentionOptions): Promise<string> {
  if (path === '~' || path.startsWith('~/')) return join(opts.home ?? homedir(), path.slice(1))
  if (isAbsolute(path)) return path
  const inCwd = resolve(opts.cwd, path)
  if (opts.root === opts.cwd) return inCwd
  try {
    await stat(inCwd)
    return inCwd
  } catch {
    const inRoot = resolve(opts.root, path)
    try {
      await stat(inRoot)
      return inRoot
    } catch {
      return inCwd
    }
  }
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep)

/** The label: the mention as typed, and where a link out of the workspace really points. */
async function label(path: string, absolute: string, root: string): Promise<string> {
  let real: string
  let realRoot: string
  try {
    real = await realpath(absolute)
    realRoot = await realpath(root)
  } catch {
    return path
  }
  const lexical = resolve(absolute)
  if (real === lexical || !inside(realRoot, lexical) || inside(realRoot, real)) return path
  return `${path} (a link to ${real}, outside the workspace)`
}

/** A directory mention: the names in it (directories with `/`), sorted, at most DIRECTORY_LIST_CAP. */
async function directoryList(absolute: string): Promise<string> {
  const entries = await readdir(absolute, {withFileTypes: true})
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort()
  const shown = names.slice(0, DIRECTORY_LIST_CAP)
  const more = names.length - shown.length
  return shown.join('\n') + (more > 0 ? `\n… and ${more} more` : '') + '\n'
}

/** One mention's attachment, or the one line that says why it cannot be. */
export async function readMention(m: Pick<Mention, 'path'>, opts: MentionOptions): Promise<Attachment | {problem: string}> {
  const shown = m.path
  const absolute = await locate(m.path, opts)
  const read = await readTextFile(absolute, opts.maxBytes)
  const name = await label(shown, absolute, opts.root)
  if (typeof read === 'string') return {path: name, content: read}
  if (read.problem !== 'directory') return {problem: `@${shown}: ${read.problem}`}
  try {
    return {path: name.endsWith('/') ? name : `${name}/`, content: await directoryList(absolute)}
  } catch (e) {
    return {problem: `@${shown}: cannot be listed (${(e as NodeJS.ErrnoException).code ?? String(e)})`}
  }
}

/** The attachments of every mention in `text` (each path once), or the first problem as one line. */
export async function mentionAttachments(text: string, opts: MentionOptions): Promise<Attachment[] | {problem: string}> {
  const out: Attachment[] = []
  const seen = new Set<string>()
  for (const m of findMentions(text)) {
    if (seen.has(m.path)) continue
    seen.add(m.path)
    const read = await readMention(m, opts)
    if ('problem' in read) return read
    out.push(read)
  }
  return out
}

/** `mentionAttachments` for a pipeline step: the problem as a QueryError. */
export async function readMentionAttachments(text: string, opts: MentionOptions): Promise<Attachment[]> {
  const read = await mentionAttachments(text, opts)
  if ('problem' in read) throw new QueryError(read.problem)
  return read
}
