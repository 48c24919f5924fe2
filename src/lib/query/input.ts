// The query as given on the command line: its words and whatever is piped
// on stdin, joined by a blank line.
import {readFileSync} from 'node:fs'
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
  // A plain blocking read of fd 0 (a file, /dev/null or a pipe) skips setting
  // up the stdin stream; a non-blocking fd (EAGAIN) takes the stream path.
  try {
    return readFileSync(0, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
  }
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
