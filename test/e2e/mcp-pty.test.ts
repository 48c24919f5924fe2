// MCP servers' tools through jp's prompts and ladder, end to end: bin/run.js
// in a real pseudo-terminal, a local server speaking the OpenAI wire format
// (the model calls `fx__echo`: `fx.echo` as the wire carries it), and the SDK
// fixture server (test/fixtures/mcp/server.mjs) recording what it saw.
import {expect} from 'chai'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {fixtureRecord, MCP_FIXTURE} from '../helpers/mcp.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer, type ScriptedResponse} from '../llm/replay-server.js'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../../src/lib/config/types.js'

const TOOL_MENU = 'Interrupted [c,r,q,s,t,?]'
const HELP_LINE = 'Enter to send · Alt+Enter for newline'
type Message = {role: string; content?: string | null; tool_call_id?: string}

describe('e2e: MCP tools in a terminal', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let term: PtySession | undefined
  let record: string

  beforeEach(() => {
    sb = makeSandbox()
    record = join(sb.dir, 'mcp-record.txt')
  })
  afterEach(async () => {
    term?.dispose()
    term = undefined
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  const serverTable = `[mcp.servers.fx]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MCP_FIXTURE)}]\n`

  /** The user's config: the replay server as the model, and (unless `withServer` is false) the fixture as server `fx`. */
  async function setup(responses: ScriptedResponse[], extra = '', withServer = true): Promise<string> {
    server = await startReplayServer(responses)
    const file = join(sb.home, 'config.toml')
    writeFileSync(file, `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n${withServer ? serverTable : ''}${extra}`)
    return file
  }

  async function jp(cfgFile: string, extraArgs: string[] = []): Promise<PtySession> {
    term = await spawnPty([BIN, 'query', '--cfg', cfgFile, ...extraArgs, 'go'], {cwd: sb.cwd, env: {...sb.env, MCP_FIXTURE_RECORD: record}, cols: 120, rows: 60})
    return term
  }

  async function finish(t: PtySession): Promise<void> {
    const {exitCode} = await t.waitForExit(30_000)
    expect(exitCode, t.screenText()).to.equal(0)
  }

  function toolMessage(i: number, id = 'call_1'): Message {
    const body = server!.requests[i].json() as {messages: Message[]}
    const found = body.messages.filter((m) => m.role === 'tool' && m.tool_call_id === id)
    expect(found, JSON.stringify(body.messages)).to.have.length(1)
    return found[0]
  }

  const calls = () => fixtureRecord(record).filter((l) => l.startsWith('call '))

  it('the permission prompt names the MCP tool; y runs it on the server and the next request carries its text', async () => {
    const t = await jp(await setup([{body: openaiToolCall('call_1', 'fx__echo', {text: 'hi'})}, {body: openaiText(['Done.'])}]))
    await t.waitForText('Run MCP tool fx.echo? [y,Y,n,N,p,r,e,?]')
    expect(t.screenText()).to.include('⚙ fx.echo {"text":"hi"}')
    t.send('y')
    await finish(t)
    expect(calls()).to.deep.equal(['call echo {"text":"hi"}'])
    expect(toolMessage(1).content).to.equal('echo: hi')
    // On the wire the name is encoded; the user saw the real one.
    const tools = (server!.requests[0].json() as {tools: Array<{function: {name: string}}>}).tools.map((x) => x.function.name)
    expect(tools).to.include('fx__echo')
    expect(t.screenText()).to.include('✓ fx.echo: echo: hi')
  })

  it('n skips it: the server is never called', async () => {
    const t = await jp(await setup([{body: openaiToolCall('call_1', 'fx__echo', {text: 'hi'})}, {body: openaiText(['Done.'])}]))
    await t.waitForText('Run MCP tool fx.echo?')
    t.send('n')
    await finish(t)
    expect(calls()).to.deep.equal([])
    expect(toolMessage(1).content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
  })

  it('e edits the arguments: invalid JSON re-asks, the fix is what the server gets', async () => {
    const t = await jp(await setup([{body: openaiToolCall('call_1', 'fx__echo', {text: 'hi'})}, {body: openaiText(['Done.'])}]))
    await t.waitForText('Run MCP tool fx.echo?')
    t.send('e')
    await t.waitForText(HELP_LINE)
    t.send(keys.alt('<') + keys.ctrlK.repeat(12))
    t.type('{"text": "edited"')
    t.send(keys.enter)
    await t.waitForText(/^Invalid JSON: .+/m)
    expect(calls()).to.deep.equal([])
    t.send('}' + keys.enter)
    await finish(t)
    expect(calls()).to.deep.equal(['call echo {"text":"edited"}'])
    expect(toolMessage(1).content).to.equal('echo: edited')
  })

  it('Ctrl+C during a slow call opens the tool menu; s stops it: the server sees notifications/cancelled, the model gets the cancellation response', async () => {
    const cfg = await setup([{body: openaiToolCall('call_1', 'fx__slow', {})}, {body: openaiText(['never asked'])}], '[conversation.tools."fx.*"]\nrun = "unattended"\n')
    const t = await jp(cfg)
    await t.waitFor(() => calls().length === 1, 'the slow call reached the server')
    t.send(keys.ctrlC)
    await t.waitForText(TOOL_MENU)
    t.send('s')
    await finish(t)
    await t.waitFor(() => fixtureRecord(record).includes('cancelled slow'), 'the server saw the cancellation', 10_000).catch(() => {})
    expect(fixtureRecord(record)).to.include('cancelled slow')
    expect(server!.requests).to.have.length(1)
    expect(t.screenText()).to.include('⊘ fx.slow: skipped')
    // The server ended with jp.
    const pid = Number(fixtureRecord(record).find((l) => l.startsWith('started'))!.split(' ')[1])
    expect(() => process.kill(pid, 0), 'the server process is gone').to.throw()
  })

  it('arguments that do not fit the input schema go back to the model as an error, before any prompt', async () => {
    const t = await jp(await setup([{body: openaiToolCall('call_1', 'fx__count', {n: 0})}, {body: openaiText(['Done.'])}]))
    await finish(t)
    expect(t.screenText()).to.not.include('Run MCP tool')
    expect(calls()).to.deep.equal([])
    expect(toolMessage(1).content).to.match(/^Invalid arguments for tool 'fx\.count': .*must be >= 1/)
  })

  it('a server that dies mid-call: one notice, an error result, and the turn goes on', async () => {
    const cfg = await setup([{body: openaiToolCall('call_1', 'fx__die', {})}, {body: openaiText(['Done.'])}], '[conversation.tools."fx.*"]\nrun = "unattended"\n')
    const t = await jp(cfg)
    await finish(t)
    const screen = t.screenText()
    expect(screen).to.match(/MCP server fx stopped \(exited with code 3\); its tools answer with an error until the next turn restarts it/)
    expect(screen).to.include('✗ fx.die')
    expect(toolMessage(1).content).to.match(/^MCP server 'fx' stopped \(exited with code 3\) during the call to 'die'\./)
    expect(screen).to.include('Done.')
  })

  it("an untrusted workspace's server is not started: one notice, and its tools are unknown", async () => {
    mkdirSync(join(sb.cwd, '.jp'), {recursive: true})
    writeFileSync(join(sb.cwd, '.jp', 'config.toml'), serverTable)
    const t = await jp(await setup([{body: openaiToolCall('call_1', 'fx__echo', {text: 'hi'})}, {body: openaiText(['Done.'])}], '', false))
    await finish(t)
    expect(t.screenText()).to.match(/ignoring mcp\.servers\.fx\.command, mcp\.servers\.fx\.args from the untrusted workspace/)
    expect(fixtureRecord(record)).to.deep.equal([])
    // The model's call names a tool no request offered: it stays as the model spelled it.
    expect(toolMessage(1).content).to.equal("Unknown tool 'fx__echo'.")
  })
})
