// `jp query -a PATH` (repeatable): text files sent with the query. Each is
// read and checked before any editor opens or any request is sent — a
// missing file, a directory, a binary file (a NUL byte in its first 8 KiB, as
// git and grep decide) or one larger than `query.attach_max_bytes` is one
// line naming it — then stored as an `attachment` event after the query and
// sent with it, fenced and labelled with its path (turn/messages.ts).
//
// Only regular files are read (issue 42): the open never blocks (O_NONBLOCK:
// a FIFO without a writer would hold open() in a libuv thread, deaf to
// SIGTERM), and what it opened is checked before a byte is read — a FIFO,
// socket or device (`/dev/zero` never ends) is refused, and so is a
// `/proc` or `/sys` pseudo-file, which reports a size of 0 yet has content.
import {constants} from 'node:fs'
import {open} from 'node:fs/promises'
import {resolve} from 'node:path'
import {QueryError} from './errors.js'

/** How much of a file is looked at for a NUL byte. */
export const BINARY_PROBE_BYTES = 8 * 1024

export interface Attachment {
  /** The path as given on the command line (the label the model sees). */
  path: string
  content: string
}

/** Reads every `-a` file, in order; throws QueryError naming the first that cannot be attached. */
export async function readAttachments(paths: readonly string[], opts: {cwd: string; maxBytes: number}): Promise<Attachment[]> {
  const out: Attachment[] = []
  for (const path of paths) out.push(await readAttachment(path, opts))
  return out
}

async function readAttachment(path: string, opts: {cwd: string; maxBytes: number}): Promise<Attachment> {
  const fail = (why: string) => new QueryError(`-a ${path}: ${why}`)
  const tooLarge = (bytes: number) => fail(`${bytes} bytes, more than query.attach_max_bytes (${opts.maxBytes})`)
  let handle
  try {
    handle = await open(resolve(opts.cwd, path), constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw fail(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot be read (${code ?? String(e)})`)
  }
  try {
    const stat = await handle.stat()
    if (stat.isDirectory()) throw fail('is a directory (attach the files in it)')
    if (!stat.isFile()) throw fail(`is ${specialKind(stat)}, not a regular file; only regular files can be attached`)
    if (stat.size > opts.maxBytes) throw tooLarge(stat.size)
    if (stat.size === 0) {
      const probe = await handle.read(Buffer.alloc(1), 0, 1, 0)
      if (probe.bytesRead > 0) throw fail('is a special file of unknown size (a /proc or /sys file); only regular files can be attached')
      return {path, content: ''}
    }
    const bytes = await handle.readFile()
    if (bytes.length > opts.maxBytes) throw tooLarge(bytes.length)
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) throw fail('is a binary file (a NUL byte in its first 8 KiB); only text can be attached')
    return {path, content: bytes.toString('utf8')}
  } finally {
    await handle.close()
  }
}

function specialKind(stat: import('node:fs').Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  return 'a special file'
}
