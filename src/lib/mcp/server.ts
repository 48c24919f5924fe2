// One MCP server for the length of a jp command: started on demand, bounded
// by its `timeout_secs`, its tools listed once, calls made with the caller's
// AbortSignal (the SDK sends `notifications/cancelled` when it fires, and on
// its own timeout), and closed at the end. Failures are states, never
// throws: a server that cannot start, or stops, is `failed` with a reason
// the user reads in one line.
import {existsSync} from 'node:fs'
import {isAbsolute, resolve} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {McpServerConfig} from '../config/types.js'
import {errorLine} from '../text/one-line.js'
import type {ToolRunOutput} from '../tool/coordinator.js'
import {toolEnvironment, type ToolEnvPolicy} from '../tool/environment.js'
import {openServerLog, type ServerLog} from './log.js'
import {toolRunOutput, type McpCallResult} from './results.js'
import {loadSdk, type Sdk} from './sdk.js'
import {GroupedStdioTransport} from './stdio-transport.js'
import {expandVariables, secretRedactor} from './variables.js'

export const DEFAULT_MCP_TIMEOUT_SECS = 30
/** MCP's "request timed out" and "connection closed" error codes. */
const REQUEST_TIMEOUT = -32_001
const CONNECTION_CLOSED = -32_000

export type ServerState = {kind: 'not started'} | {kind: 'starting'} | {kind: 'ready'} | {kind: 'failed'; reason: string}

export interface McpToolInfo {
  /** The server's own name for it (jp's is `SERVER.TOOL`). */
  name: string
  description: string
  inputSchema: Record<string, unknown>
  /** What is wrong with arguments against the input schema, or undefined. */
  check: (args: Record<string, unknown>) => string | undefined
}

export interface ServerContext {
  /** The workspace root: a stdio server's default working directory. */
  cwd: string
  env: NodeJS.ProcessEnv
  /** The tools' environment policy for this server (`"SERVER.*".env` over `'*'.env`). */
  envPolicy?: ToolEnvPolicy
  providerKeyVars: readonly string[]
  /** Ends a start that is still waiting (the query is shutting down). */
  signal?: AbortSignal
}

export class McpServer {
  state: ServerState = {kind: 'not started'}
  tools: McpToolInfo[] = []
  /** Called once when a ready server stops on its own. */
  onStopped?: (reason: string) => void
  /** Redacts the values of its headers and `env` wherever it is quoted. */
  redact: (text: string) => string = (t) => t
  private client?: Client
  private transport?: Transport
  private log?: ServerLog
  private starting?: Promise<void>
  private closing = false

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly ctx: ServerContext,
  ) {}

  get transportKind(): 'stdio' | 'http' {
    return this.config.url === undefined ? 'stdio' : 'http'
  }

  get timeoutMs(): number {
    return (this.config.timeout_secs ?? DEFAULT_MCP_TIMEOUT_SECS) * 1000
  }

  get logPath(): string | undefined {
    return this.log?.path
  }

  /** Starts (once) and resolves when the server is ready or has failed; never rejects. */
  start(): Promise<void> {
    this.starting ??= this.connectWithin().catch((error: unknown) => {
      this.fail(error)
    })
    return this.starting
  }

  private async connectWithin(): Promise<void> {
    this.state = {kind: 'starting'}
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((done) => {
      timer = setTimeout(() => done('late'), this.timeoutMs)
    })
    const stopped = new Promise<'late'>((done) => this.ctx.signal?.addEventListener('abort', () => done('late'), {once: true}))
    try {
      const outcome = await Promise.race([this.connect(), late, stopped])
      if (outcome === 'late') {
        const secs = this.timeoutMs / 1000
        await this.close()
        this.state = {kind: 'failed', reason: `not ready within ${secs} s`}
      }
    } finally {
      clearTimeout(timer)
    }
  }

  private fail(error: unknown): void {
    if (this.state.kind === 'failed') return
    this.state = {kind: 'failed', reason: this.redact(failureLine(error))}
    void this.close()
  }

  private async connect(): Promise<void> {
    // A stdio server starts while the SDK loads: both take a while, neither needs the other.
    const loading = loadSdk()
    loading.catch(() => {})
    const transport = await this.makeTransport(loading)
    const sdk = await loading
    const client = new sdk.Client({name: 'jp', version: '0.1.0'}, {capabilities: {}})
    this.transport = transport
    this.client = client
    client.onclose = () => this.stopped()
    // Errors the SDK cannot pin on a request (a dropped SSE stream) go to the log only.
    client.onerror = (error) => this.log?.line(this.redact(`error: ${errorLine(error)}`))
    await client.connect(transport, {timeout: this.timeoutMs})
    const validator = new sdk.AjvJsonSchemaValidator()
    const tools: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : {cursor}, {timeout: this.timeoutMs})
      for (const t of page.tools) tools.push(toolInfo(t, validator))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    if (this.closing) return
    this.tools = tools
    this.state = {kind: 'ready'}
  }

  private async makeTransport(loading: Promise<Sdk>): Promise<Transport> {
    const {command, url} = this.config
    if ((command === undefined) === (url === undefined)) throw new Error('set exactly one of `command` (stdio) or `url` (Streamable HTTP)')
    if (url !== undefined) {
      const headers = expandVariables(this.config.headers, this.ctx.env, 'headers')
      if (!headers.ok) throw new Error(headers.problem)
      // Every header value is a secret as far as printing goes, literal or not.
      this.redact = secretRedactor([...headers.secrets, ...Object.values(headers.values)])
      const {StreamableHTTPClientTransport} = await loading
      return new StreamableHTTPClientTransport(new URL(url), {requestInit: {headers: headers.values}})
    }
    const vars = expandVariables(this.config.env, this.ctx.env, 'env')
    if (!vars.ok) throw new Error(vars.problem)
    this.redact = secretRedactor([...vars.secrets, ...Object.values(vars.values)])
    this.log = await openServerLog(this.name, this.ctx.env)
    this.log.line(`starting ${command} ${(this.config.args ?? []).join(' ')}`)
    const cwd = this.config.cwd === undefined ? this.ctx.cwd : isAbsolute(this.config.cwd) ? this.config.cwd : resolve(this.ctx.cwd, this.config.cwd)
    // spawn says ENOENT for a missing cwd as for a missing program: say which it is.
    if (!existsSync(cwd)) throw new Error(`the working directory ${cwd} does not exist`)
    // The tool environment policy first (secrets dropped unless kept by name), then what the server's `env` sets.
    const env = {...toolEnvironment(this.ctx.env, this.ctx.envPolicy, this.ctx.providerKeyVars), ...vars.values}
    const transport = new GroupedStdioTransport({command: command!, args: this.config.args ?? [], env, cwd, log: this.log})
    await transport.start()
    return transport
  }

  /** The transport closed: on its own, a ready server has stopped. */
  private stopped(): void {
    // While starting, the failure that closed it is the reason (connect rejects with it).
    if (this.closing || this.state.kind !== 'ready') return
    const exit = this.transport instanceof GroupedStdioTransport ? this.transport.exitReason : undefined
    const reason = `stopped${exit ? ` (${exit})` : ''}`
    this.state = {kind: 'failed', reason}
    this.onStopped?.(reason)
  }

  private lost(why: string): void {
    if (this.state.kind !== 'ready') return
    const reason = `stopped (${this.redact(why)})`
    this.state = {kind: 'failed', reason}
    this.onStopped?.(reason)
  }

  /** Calls TOOL; an abort of `signal` (or the timeout) cancels it on the server. Rejects only when `signal` aborted. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunOutput> {
    const client = this.client
    if (this.state.kind !== 'ready' || !client) {
      const why = this.state.kind === 'failed' ? this.state.reason : 'not running'
      return {content: `MCP server '${this.name}' is not available (${why}).`, isError: true}
    }
    try {
      const result = await client.callTool({name: tool, arguments: args}, undefined, {signal, timeout: this.timeoutMs})
      return toolRunOutput(result as McpCallResult)
    } catch (error) {
      if (signal.aborted) throw error
      // An HTTP server that cannot be reached any more has stopped as a process does: told once, restarted next turn.
      if (this.transportKind === 'http' && error instanceof TypeError) this.lost(failureLine(error))
      return {content: this.callFailure(tool, error), isError: true}
    }
  }

  private callFailure(tool: string, error: unknown): string {
    const code = (error as {code?: unknown}).code
    if (code === REQUEST_TIMEOUT) return `MCP tool '${this.name}.${tool}' was cancelled: no result within ${this.timeoutMs / 1000} s (timeout_secs).`
    if (code === CONNECTION_CLOSED || this.state.kind === 'failed') {
      const reason = this.state.kind === 'failed' ? this.state.reason : 'the connection closed'
      return `MCP server '${this.name}' ${reason.startsWith('stopped') ? reason : `failed: ${reason}`} during the call to '${tool}'.`
    }
    return `MCP tool '${this.name}.${tool}' failed: ${this.redact(failureLine(error))}`
  }

  /** Ends the session and the process (stdin closed, SIGTERM, SIGKILL); safe to call twice. */
  async close(): Promise<void> {
    this.closing = true
    const client = this.client
    this.client = undefined
    try {
      if (client) await client.close()
      else await this.transport?.close()
    } catch {
      // Closing a broken connection: nothing left to end.
    }
    this.log?.close()
  }
}

/** An error on one line, with its cause (`fetch failed` says nothing without `ECONNREFUSED`). */
function failureLine(error: unknown): string {
  const cause = (error as {cause?: {code?: unknown; message?: unknown}}).cause
  const why = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined
  return why === undefined ? errorLine(error) : `${errorLine(error)} (${why})`
}

function toolInfo(t: {name: string; description?: string; inputSchema: Record<string, unknown>}, validator: InstanceType<Sdk['AjvJsonSchemaValidator']>): McpToolInfo {
  const inputSchema = {...t.inputSchema, type: 'object'}
  let check: McpToolInfo['check'] = () => undefined
  try {
    const validate = validator.getValidator(inputSchema as Parameters<typeof validator.getValidator>[0])
    check = (args) => {
      const r = validate(args)
      return r.valid ? undefined : (r.errorMessage ?? 'the arguments do not match the input schema')
    }
  } catch {
    // A schema ajv cannot compile: the server checks the arguments itself.
  }
  return {name: t.name, description: t.description ?? '', inputSchema, check}
}
