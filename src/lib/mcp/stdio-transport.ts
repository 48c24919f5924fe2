// The stdio transport of an MCP server, in jp's terms (the SDK's own spawns
// in jp's process group, inherits stderr by default and drops the server at
// the first non-JSON stdout line). Here the server runs in a process group
// of its own (a terminal Ctrl+C is jp's, SPEC §17) registered for kill on
// every way out of jp (process/child-groups.ts); its stderr is its log file;
// a stdout line that is not a JSON-RPC message is a logged protocol error
// and the line is dropped. Messages are newline-delimited JSON (MCP stdio).
import {spawn, type ChildProcess} from 'node:child_process'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import {signalGroup, trackChildGroup} from '../process/child-groups.js'
import type {ServerLog} from './log.js'

/** A line longer than this is dropped as a protocol error (the SDK's own bound). */
const MAX_LINE_BYTES = 10 * 1024 * 1024
/** How long a server has to leave after SIGTERM, before SIGKILL. */
const GRACE_MS = 1000

export interface StdioServerParams {
  command: string
  args: readonly string[]
  env: NodeJS.ProcessEnv
  cwd: string
  log: ServerLog
}

export class GroupedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** How the process ended (`exited with code 1`, `killed by SIGKILL`), once it has. */
  exitReason?: string
  private child?: ChildProcess
  private untrack?: () => void
  private pending: Buffer[] = []
  private pendingBytes = 0
  private closing = false
  private exited?: Promise<void>

  constructor(private readonly params: StdioServerParams) {}

  private started?: Promise<void>

  /** Spawns the server; a second call (the SDK's connect after jp started it early) is the first one's promise. */
  start(): Promise<void> {
    this.started ??= this.spawn()
    return this.started
  }

  private spawn(): Promise<void> {
    const {command, args, env, cwd, log} = this.params
    return new Promise((resolve, reject) => {
      // detached: a process group of its own, led by the server.
      const child = spawn(command, [...args], {cwd, env, stdio: ['pipe', 'pipe', log.fd], detached: true})
      this.child = child
      child.once('error', (error) => {
        log.line(`cannot start ${command}: ${error.message}`)
        reject(error)
      })
      child.once('spawn', () => {
        if (child.pid !== undefined) this.untrack = trackChildGroup(child.pid)
        resolve()
      })
      this.exited = new Promise((done) => {
        child.once('close', (code, signal) => {
          this.exitReason = signal ? `killed by ${signal}` : `exited with code ${code}`
          if (!this.closing) log.line(`the server ${this.exitReason}`)
          // Whatever it left running in its group goes with it.
          if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL')
          this.untrack?.()
          done()
          this.onclose?.()
        })
      })
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk))
      // EPIPE when the server is gone: its 'close' says so.
      child.stdin!.on('error', (error) => this.onerror?.(error))
    })
  }

  /** Splits stdout into lines; each is one message or a protocol error. */
  private read(chunk: Buffer): void {
    let start = 0
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...this.pending, chunk.subarray(start, nl)]).toString('utf8').replace(/\r$/, '')
      this.pending = []
      this.pendingBytes = 0
      start = nl + 1
      this.message(line)
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start))
      this.pendingBytes += chunk.length - start
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.params.log.line(`protocol error: a stdout line longer than ${MAX_LINE_BYTES} bytes was dropped`)
        this.pending = []
        this.pendingBytes = 0
      }
    }
  }

  private message(line: string): void {
    if (line.trim() === '') return
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      parsed = undefined
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as {jsonrpc?: unknown}).jsonrpc !== '2.0') {
      this.params.log.line(`protocol error: stdout line is not a JSON-RPC message (dropped): ${line.slice(0, 200)}`)
      return
    }
    this.onmessage?.(parsed as JSONRPCMessage)
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || stdin.destroyed || !stdin.writable) return Promise.reject(new Error(`the server ${this.exitReason ?? 'is not running'}`))
    return new Promise((resolve, reject) => {
      stdin.write(JSON.stringify(message) + '\n', (error) => (error ? reject(error) : resolve()))
    })
  }

  /** Closes stdin and SIGTERMs the group, then SIGKILL after a grace period; resolves once the process is gone. */
  async close(): Promise<void> {
    const child = this.child
    // Never spawned (ENOENT): nothing to end.
    if (!child || child.pid === undefined) return
    if (this.closing) return this.exited
    this.closing = true
    if (child.exitCode === null && child.signalCode === null) {
      // jp is leaving: no waiting for a polite exit first (a server has nothing to save of jp's).
      child.stdin?.end()
      signalGroup(child.pid, 'SIGTERM')
      if (!(await settlesWithin(this.exited!, GRACE_MS))) signalGroup(child.pid, 'SIGKILL')
    }
    await this.exited
  }

  get pid(): number | undefined {
    return this.child?.pid
  }
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void p.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
