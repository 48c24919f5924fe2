// The inline `Query:` prompt on screen before the CLI has loaded (issue 40).
// `jp query` on a terminal spends most of its start-up loading the bundle,
// oclif's config and hooks and the query's steps (config files, workspace,
// history, drafts, trust) before its prompt draws. This module is built on
// its own (dist/prompt.cjs, a few kB); bin/run.js asks it first for the argv
// that opens that prompt, and it draws the prompt's default picture at once
// and echoes the plain keys typed into it while the CLI loads behind it.
//
// It decides nothing and keeps nothing: the CLI runs exactly as without it.
// The first time anything of jp's touches the terminal — the real inline
// prompt opening, a notice or an error on stdout/stderr, an editor, a menu,
// the exit — the early prompt is released (terminal/tty.ts
// `releaseEarlyPrompt`): it stops reading, leaves raw mode, erases its
// picture and hands every byte it read to the next reader of the terminal
// (terminal/typeahead.ts), as the terminal itself would have kept them. The
// real prompt then draws where it stood, with those keys in it; a trust
// notice, a draft, a broken config's one-line error or an editor-first
// setting show exactly as they did, after the early picture is gone.
//
// Only the default picture is drawn; a setting that changes it (keys, an
// editor's name in the hint, the draft's text) shows when the real prompt
// takes over. Keys other than printable ASCII are kept unseen until then:
// the line editor's rules are the real prompt's alone.
//
// Taken only when nothing can change the way to the prompt: `jp query` (or
// `jp q`, `-n` or not), stdin and stdout a terminal jp owns in the foreground, no
// DEBUG, no user or linked oclif plugin (its init hook would run first), no
// TERM=dumb (the plain line input), and not JP_EARLY_PROMPT=0.
import {closeSync, openSync, readFileSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import {isatty, ReadStream} from 'node:tty'
import {onCleanup} from '../process/lifecycle.js'
import {setSlot} from '../process/slots.js'
import {inBackgroundGroup} from '../terminal/tty.js'
import {keepTypeahead} from '../terminal/typeahead.js'
import {untouched, type Pjson} from './first.js'

/** bin/run.js asks only for the argv that opens the prompt (its `opensQueryPrompt`: `jp query`, `jp q`, with `-n` or not). */
export interface EarlyPromptContext {
  /** The package's root (where package.json is). */
  root: string
  env: NodeJS.ProcessEnv
}

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
 * Draws the early prompt when `ctx` allows it and resolves once the keys
 * already typed have been read (true), or at once (false: nothing drawn).
 */
export async function drawEarlyPrompt(ctx: EarlyPromptContext): Promise<boolean> {
  const {env} = ctx
  if (env.DEBUG || env.JP_EARLY_PROMPT === '0' || env.TERM === 'dumb') return false
  if (process.platform === 'win32' || !isatty(0) || !isatty(1) || inBackgroundGroup()) return false
  let pjson: Pjson
  try {
    pjson = JSON.parse(readFileSync(join(ctx.root, 'package.json'), 'utf8')) as Pjson
  } catch {
    return false
  }
  if (!untouched(pjson, env, process.platform)) return false
  let fd: number
  try {
    fd = openSync('/dev/tty', 'r+')
  } catch {
    return false
  }
  const columns = (process.stdout as {columns?: number}).columns ?? 0
  if (!isatty(fd) || columns <= HINT.length) {
    closeSync(fd)
    return false
  }
  hold(fd, columns, !(env.NO_COLOR !== undefined && env.NO_COLOR !== ''))
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
