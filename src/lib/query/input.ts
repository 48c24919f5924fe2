// The query as given on the command line: its words and whatever is piped
// on stdin, joined by a blank line.
import {readSync} from 'node:fs'
import {errorMessage} from '../text/one-line.js'
import {QueryError} from './errors.js'

/** The words and piped stdin (when stdin is not a terminal), trimmed and joined; '' when neither says anything. */
export async function readQueryText(words: readonly string[]): Promise<string> {
  let piped = ''
  if (!process.stdin.isTTY) {
    try {
      piped = await readStdin()
    } catch (error) {
      throw new QueryError(`cannot read the query from stdin: ${errorMessage(error)}`, {cause: error})
    }
  }
  return [words.join(' ').trim(), piped.trim()].filter((s) => s !== '').join('\n\n')
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  // Plain reads of fd 0 (a file, /dev/null or a pipe) skip setting up the
  // stdin stream. A non-blocking pipe (a Node parent's) says EAGAIN once it
  // is empty for now: what was read is kept and the stream reads the rest
  // (readFileSync threw away what it had read: the start of a large query).
  // Reads fill one buffer after the other (a pipe gives 64 KiB at a time).
  let buffer = Buffer.allocUnsafe(READ_BYTES)
  let filled = 0
  try {
    for (;;) {
      const n = readSync(0, buffer, filled, buffer.length - filled, null)
      if (n === 0) break
      filled += n
      if (filled === buffer.length) {
        chunks.push(buffer)
        buffer = Buffer.allocUnsafe(READ_BYTES)
        filled = 0
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
    if (filled > 0) chunks.push(buffer.subarray(0, filled))
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return decode(chunks)
  }
  if (filled > 0) chunks.push(buffer.subarray(0, filled))
  return decode(chunks)
}

/** Bytes per buffer stdin is read into. */
const READ_BYTES = 1024 * 1024

function decode(chunks: Buffer[]): string {
  return (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')
}
