// Shared set-up for the fault suite and the security checks: a sandbox with a
// config file pointing jp at a local server, readers for what jp stored, and
// a child handle for runs that must be killed or raced.
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import {listenLocal} from '../helpers/local-server.js'
import {join} from 'node:path'
import {BIN, ROOT, type Sandbox} from '../helpers/cli.js'

export const FAULT_FIXTURES = join(ROOT, 'test', 'fixtures', 'faults')

/** Points jp at `url` speaking the OpenAI wire format (as llama.cpp), plus `extra` TOML. */
export function useOpenAI(sb: Sandbox, url: string, extra = ''): string[] {
  const file = join(sb.home, 'config.toml')
  writeFileSync(file, `[assistant.model]\nid = "llamacpp/fault"\n[providers.llm.llamacpp]\nbase_url = "${url}/v1"\n${extra}`)
  return ['--cfg', file]
}

/** Points jp at `url` speaking the Anthropic Messages format; the key comes from ANTHROPIC_API_KEY. */
export function useAnthropic(sb: Sandbox, url: string, extra = ''): string[] {
  const file = join(sb.home, 'config.toml')
  writeFileSync(file, `[assistant.model]\nid = "anthropic/claude-fault"\n[providers.llm.anthropic]\nbase_url = "${url}"\n${extra}`)
  return ['--cfg', file]
}

export function conversationsDir(sb: Sandbox): string {
  return join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations')
}

/** The one conversation's directory (fails the test when there is not exactly one). */
export function onlyConversation(sb: Sandbox): string {
  const ids = readdirSync(conversationsDir(sb)).filter((n) => n.startsWith('jp-c'))
  if (ids.length !== 1) throw new Error(`expected one conversation, found ${ids.length}: ${ids.join(', ')}`)
  return join(conversationsDir(sb), ids[0])
}

export type StoredEvent = Record<string, unknown> & {type: string}

/** events.json of the one conversation, parsed (JSON.parse throws on a corrupt file). */
export function storedEvents(sb: Sandbox): StoredEvent[] {
  return JSON.parse(readFileSync(join(onlyConversation(sb), 'events.json'), 'utf8')) as StoredEvent[]
}

/** All assistant text stored, in order. */
export function storedText(sb: Sandbox): string {
  return storedEvents(sb)
    .filter((e) => e.type === 'chat_response' && typeof e.message === 'string')
    .map((e) => e.message as string)
    .join('')
}

/** The lines jp wrote on stderr, without blank ones. */
export function errLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim() !== '')
}

export interface LiveJp {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string, timeoutMs?: number): Promise<void>
  done: Promise<{code: number | null; signal: NodeJS.Signals | null}>
}

/** Starts `jp ARGS` like runJp but hands back the live child. */
export function startJp(
  args: string[],
  opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv; input?: string; prefix?: string[]},
): LiveJp {
  const argv = [...(opts.prefix ?? []), process.execPath, BIN, ...args]
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.sandbox.cwd,
    env: {...opts.sandbox.env, ...opts.env},
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  let out = ''
  let err = ''
  const waiters: Array<() => void> = []
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d
    for (const w of waiters) w()
  })
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  child.stdin!.end(opts.input ?? '')
  const done = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal})),
  )
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    waitForStdout: (text, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (out.includes(text)) {
            clearTimeout(timer)
            resolve()
          }
        }
        const timer = setTimeout(() => reject(new Error(`jp never printed ${JSON.stringify(text)}; stdout=${JSON.stringify(out)} stderr=${JSON.stringify(err)}`)), timeoutMs)
        waiters.push(check)
        check()
      }),
  }
}

/** startJp run to completion, with what it printed. */
export async function runJpWith(
  args: string[],
  opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv; input?: string; prefix?: string[]},
): Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}> {
  const live = startJp(args, opts)
  const timer = setTimeout(() => live.child.kill('SIGKILL'), 30_000)
  const {code, signal} = await live.done
  clearTimeout(timer)
  return {code, signal, stdout: live.stdout(), stderr: live.stderr()}
}

/**
 * A server for timing-dependent cases: each request gets `first` (written
 * at once), then, after `gate` resolves, `rest` and the end of the response.
 */
export interface GatedServer {
  url: string
  requests: number
  close(): Promise<void>
}

export async function startGatedServer(
  handler: (n: number, req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<GatedServer> {
  let requests = 0
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      void handler(requests, req, res)
    })
  })
  const {url, close} = await listenLocal(server)
  return {
    url,
    get requests() {
      return requests
    },
    close,
  }
}

/** Every regular file under `dir` (following no symlinks). */
export function walkFiles(dir: string): string[] {
  const out: string[] = []
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...walkFiles(p))
    else if (entry.isFile()) out.push(p)
  }
  return out
}

/** An Anthropic Messages SSE body streaming `pieces` as one text block. */
export function anthropicText(pieces: string[], {end = true}: {end?: boolean} = {}): string {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`
  let body =
    ev('message_start', {message: {id: 'msg_fault', type: 'message', role: 'assistant', model: 'claude-fault', content: [], stop_reason: null, usage: {input_tokens: 5, output_tokens: 1}}}) +
    ev('content_block_start', {index: 0, content_block: {type: 'text', text: ''}}) +
    pieces.map((text) => ev('content_block_delta', {index: 0, delta: {type: 'text_delta', text}})).join('')
  if (end) {
    body +=
      ev('content_block_stop', {index: 0}) +
      ev('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 3}}) +
      ev('message_stop', {})
  }
  return body
}

/** An Anthropic `event: error` (as sent after a 200 when the API is overloaded). */
export function anthropicStreamError(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({type: 'error', error: {type, message}})}\n\n`
}
