// The early `Query:` picture's terminal side (cli/early-prompt.ts decides
// when it is drawn): the terminal opened, its raw mode, the picture's
// sequences, the plain keys echoed, and its release — the terminal layer's
// job (SPEC §18), like every other opening of the terminal. It opens the
// terminal without `openTtyFd`, whose first act is to release this picture.
import {closeSync, openSync, writeSync} from 'node:fs'
import {isatty, ReadStream} from 'node:tty'
import {onCleanup} from '../process/lifecycle.js'
import {setSlot} from '../process/slots.js'
import {inBackgroundGroup, TTY_PATH} from './tty.js'
import {keepTypeahead} from './typeahead.js'

const HINT = 'Enter to send · Alt+Enter for newline'
const PROMPT_COLUMN = 'Query: '.length
/** Back to the start of the prompt's line, and everything from there down erased. */
export const EARLY_PROMPT_ERASE = '\r\u001B[J'

/** The real prompt's first picture with the default settings (inquire/inline-reply.ts), the cursor after `Query: `. */
function picture(color: boolean): string {
  const [bold, dim, normal] = color ? ['\u001B[1m', '\u001B[2m', '\u001B[22m'] : ['', '', '']
  return `\r\u001B[2K${bold}Query:${normal} \r\r\n${dim}${HINT}${normal}\u001B[1A\u001B[${PROMPT_COLUMN + 1}G`
}

/**
 * Draws the picture when stdin and stdout are a terminal jp owns in the
 * foreground, wide enough for the hint, and resolves once the keys already
 * typed have been read (true), or at once (false: nothing drawn).
 */
export async function drawEarlyPicture(color: boolean): Promise<boolean> {
  if (process.platform === 'win32' || !isatty(0) || !isatty(1) || inBackgroundGroup()) return false
  let fd: number
  try {
    fd = openSync(TTY_PATH, 'r+')
  } catch {
    return false
  }
  const columns = (process.stdout as {columns?: number}).columns ?? 0
  if (!isatty(fd) || columns <= HINT.length) {
    closeSync(fd)
    return false
  }
  hold(fd, columns, color)
  // One turn of the event loop: keys typed before the prompt was drawn are read (and shown) before the CLI loads.
  await new Promise((resolve) => setImmediate(resolve))
  return true
}

/** The prompt on screen from now until it is released. */
function hold(fd: number, columns: number, color: boolean): void {
  const input = new ReadStream(fd)
  input.setRawMode(true)
  writeSync(fd, picture(color))
  let read = ''
  let echoing = true
  let shown = 0
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('latin1')
    read += text
    // Plain keys only, on the prompt's first line; the rest waits for the real prompt.
    echoing &&= /^[\u0020-\u007E]*$/.test(text) && PROMPT_COLUMN + shown + text.length < columns
    if (!echoing) return
    shown += text.length
    write(text)
  }
  const write = (text: string) => {
    try {
      writeSync(fd, text)
    } catch {
      // the terminal went away: the CLI finds out on its own
    }
  }
  const stdio = [process.stdout, process.stderr].map((stream) => {
    const own = Object.getOwnPropertyDescriptor(stream, 'write')
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stream's write, whatever its overloads
    const original = stream.write as (...args: any[]) => boolean
    stream.write = (...args: unknown[]) => {
      release()
      return original.apply(stream, args)
    }
    return () => {
      if (own) Object.defineProperty(stream, 'write', own)
      else delete (stream as {write?: unknown}).write
    }
  })
  // On a crash too: the picture goes before Node prints the stack trace.
  const unregister = onCleanup('prompt picture', 'early prompt', () => release(), {alsoOnCrash: true})
  let released = false
  function release(): void {
    if (released) return
    released = true
    setSlot('earlyPrompt', undefined)
    unregister()
    for (const put of stdio) put()
    input.removeListener('data', onData)
    input.pause()
    for (let chunk = input.read() as Buffer | null; chunk !== null; chunk = input.read() as Buffer | null) read += chunk.toString('latin1')
    try {
      input.setRawMode(false)
    } catch {
      // the terminal went away
    }
    write(EARLY_PROMPT_ERASE)
    input.destroy()
    // Bytes, as the terminal would have kept them: the next reader decodes them.
    keepTypeahead(Buffer.from(read, 'latin1').toString('utf8'))
  }
  input.on('data', onData)
  input.on('error', () => release())
  setSlot('earlyPrompt', {release})
}
