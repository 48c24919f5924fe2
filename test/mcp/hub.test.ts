// The MCP client against real servers: the SDK fixture over stdio and over
// Streamable HTTP on loopback, and the published reference server.
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {McpServerConfig, ToolConfig} from '../../src/lib/config/types.js'
import {McpHub} from '../../src/lib/mcp/hub.js'
import {mcpLogPath} from '../../src/lib/mcp/log.js'
import {childGroups} from '../../src/lib/process/child-groups.js'
import {everythingServer, fixtureRecord, MCP_FIXTURE, startHttpFixture} from '../helpers/mcp.js'

describe('mcp: the hub against real servers', function () {
  this.timeout(30_000)
  let dir: string
  let record: string
  let env: NodeJS.ProcessEnv
  let hub: McpHub | undefined
  let notices: string[]

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-mcp-'))
    record = join(dir, 'record.txt')
    env = {PATH: process.env.PATH, HOME: dir, JP_USER_DATA_DIR: join(dir, 'data'), MCP_FIXTURE_RECORD: record}
    notices = []
  })
  afterEach(async () => {
    await hub?.close()
    hub = undefined
    rmSync(dir, {recursive: true, force: true})
  })

  const fixture = (extra: McpServerConfig = {}): McpServerConfig => ({command: process.execPath, args: [MCP_FIXTURE], ...extra})

  function makeHub(servers: Record<string, McpServerConfig>, tools: Record<string, ToolConfig> = {}, selection = {explicit: [] as string[], disabled: [] as string[]}): McpHub {
    hub = new McpHub({servers, tools, selection, cwd: dir, env, providerKeyVars: [], notice: (line) => notices.push(line)})
    hub.start()
    return hub
  }

  const call = (h: McpHub, name: string, args: Record<string, unknown> = {}, signal = new AbortController().signal) => h.call(name, args, signal)

  it('lists the server tools as SERVER.TOOL with their descriptions and input schemas, and calls one', async () => {
    const h = makeHub({fx: fixture()})
    const set = await h.toolSet()
    expect(set.definitions.map((d) => d.name)).to.include.members(['fx.echo', 'fx.slow', 'fx.fail', 'fx.image'])
    const echo = set.definitions.find((d) => d.name === 'fx.echo')!
    expect(echo.description).to.match(/^Echoes its text back/)
    expect(echo.parameters).to.deep.include({type: 'object', required: ['text']})
    expect(set.configs['fx.echo']).to.deep.equal({source: 'mcp'})
    expect(await call(h, 'fx.echo', {text: 'hi'})).to.deep.equal({content: 'echo: hi', isError: false})
    expect(fixtureRecord(record)).to.include('call echo {"text":"hi"}')
  })

  it('takes each tool its settings from "SERVER.*" under "SERVER.TOOL", and enable/-t/-T', async () => {
    const tools: Record<string, ToolConfig> = {'fx.*': {run: 'unattended', enable: false}, 'fx.echo': {enable: true, result: 'ask'}}
    const h = makeHub({fx: fixture()}, tools, {explicit: ['fx.fail'], disabled: []})
    const set = await h.toolSet()
    expect([...set.enabled].sort()).to.deep.equal(['fx.echo', 'fx.fail'])
    expect(set.configs['fx.echo']).to.deep.equal({source: 'mcp', run: 'unattended', enable: true, result: 'ask'})
    expect([...set.explicit]).to.deep.equal(['fx.fail'])
    await h.close()
    const t = makeHub({fx: fixture()}, {}, {explicit: [], disabled: ['fx.*']})
    expect(t.empty).to.equal(true)
  })

  it('checks arguments against the tool input schema', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    expect(h.checkArguments('fx.count', {n: 2})).to.equal(undefined)
    expect(h.checkArguments('fx.count', {n: 0})).to.match(/must be >= 1/)
    expect(h.checkArguments('fx.echo', {})).to.match(/text/)
  })

  it('text content is the result, an image is one line, isError marks the call failed', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    expect(await call(h, 'fx.image')).to.deep.equal({content: 'a picture:\n[image/png, 12 kB]', isError: false})
    expect(await call(h, 'fx.fail')).to.deep.equal({content: 'it went wrong', isError: true})
  })

  it('a non-JSON line on stdout is a logged protocol error, not a crash; stderr goes to the 0600 log', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    expect(await call(h, 'fx.garbage')).to.deep.equal({content: 'still here', isError: false})
    expect(await call(h, 'fx.echo', {text: 'after'})).to.deep.equal({content: 'echo: after', isError: false})
    const log = mcpLogPath('fx', env)
    const text = readFileSync(log, 'utf8')
    expect(text).to.include('protocol error: stdout line is not a JSON-RPC message (dropped): this is not JSON')
    expect(text).to.include('fixture: a line on stderr')
    expect(statSync(log).mode & 0o777).to.equal(0o600)
    expect(statSync(join(log, '..')).mode & 0o777).to.equal(0o700)
    expect(notices).to.deep.equal([])
  })

  it('stopping a call sends notifications/cancelled: the server sees its request cancelled', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    const controller = new AbortController()
    const running = call(h, 'fx.slow', {}, controller.signal)
    await waitFor(() => fixtureRecord(record).some((l) => l.startsWith('call slow')))
    controller.abort()
    await running.then(
      () => expect.fail('an aborted call rejects'),
      () => {},
    )
    await waitFor(() => fixtureRecord(record).includes('cancelled slow'))
  })

  it('a call past timeout_secs is cancelled the same way and answered with an error', async () => {
    // Long enough for the server to start on a busy machine; the call then outlives it.
    const h = makeHub({fx: fixture({timeout_secs: 5})})
    await h.toolSet()
    const out = await call(h, 'fx.slow')
    expect(out).to.deep.equal({content: "MCP tool 'fx.slow' was cancelled: no result within 5 s (timeout_secs).", isError: true})
    await waitFor(() => fixtureRecord(record).includes('cancelled slow'))
  })

  it('a server that dies mid-call: an error result, one notice, and the next turn restarts it once', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    const out = await call(h, 'fx.die')
    expect(out.isError).to.equal(true)
    expect(out.content).to.match(/^MCP server 'fx' stopped \(exited with code 3\) during the call to 'die'\./)
    await waitFor(() => notices.length > 0)
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^MCP server fx stopped \(exited with code 3\); its tools answer with an error until the next turn restarts it \(log: .*fx\.log\)\.$/)
    expect((await call(h, 'fx.echo', {text: 'x'})).content).to.match(/is not available/)
    const set = await h.toolSet()
    expect(set.enabled.has('fx.echo')).to.equal(true)
    expect(await call(h, 'fx.echo', {text: 'again'})).to.deep.equal({content: 'echo: again', isError: false})
    expect(fixtureRecord(record).filter((l) => l.startsWith('started'))).to.have.length(2)
    // A second death is not restarted.
    await call(h, 'fx.die')
    await waitFor(() => notices.length === 2)
    expect(notices[1]).to.not.include('restarts')
    expect((await h.toolSet()).enabled.has('fx.echo')).to.equal(false)
  })

  it('a server not ready within its timeout is left out of the turn with one notice naming it; the others are offered', async () => {
    const h = makeHub({late: fixture({timeout_secs: 1, env: {MCP_FIXTURE_START_DELAY_MS: '5000'}}), fx: fixture()})
    const set = await h.toolSet()
    expect(set.enabled.has('fx.echo')).to.equal(true)
    expect([...set.enabled].some((n) => n.startsWith('late.'))).to.equal(false)
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^MCP server late left out of this turn: not ready within 1 s/)
  })

  it('a command that does not exist fails with one notice', async () => {
    const h = makeHub({nope: {command: join(dir, 'no-such-server')}})
    const set = await h.toolSet()
    expect(set.definitions).to.deep.equal([])
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^MCP server nope left out of this turn: .*ENOENT/)
  })

  it('the server runs in a process group of its own, registered for kill on exit, and is gone after close', async () => {
    const h = makeHub({fx: fixture()})
    await h.toolSet()
    const pid = Number(fixtureRecord(record).find((l) => l.startsWith('started'))!.split(' ')[1])
    expect(childGroups()).to.include(pid)
    const pgid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[2])
    expect(pgid).to.equal(pid)
    await h.close()
    expect(childGroups()).to.not.include(pid)
    expect(() => process.kill(pid, 0)).to.throw()
  })

  it("the server's environment follows the tool policy: secrets dropped unless kept; env values may name variables", async () => {
    env.SERVICE_TOKEN = 'tok-123'
    env.OTHER_SECRET = 'sec'
    env.PLAIN = 'plain'
    const tools: Record<string, ToolConfig> = {'fx.*': {env: {keep: ['SERVICE_TOKEN']}}}
    const h = makeHub({fx: fixture({env: {FROM_VAR: '$PLAIN', SET: 'x'}})}, tools)
    await h.toolSet()
    await call(h, 'fx.env', {names: ['SERVICE_TOKEN', 'OTHER_SECRET', 'PLAIN', 'FROM_VAR', 'SET']})
    expect(fixtureRecord(record).filter((l) => l.startsWith('env '))).to.deep.equal([
      'env SERVICE_TOKEN=tok-123',
      'env OTHER_SECRET=unset',
      'env PLAIN=plain',
      'env FROM_VAR=plain',
      'env SET=x',
    ])
  })

  it('Streamable HTTP on loopback: headers from variables reach the server; their values never appear in what jp says', async () => {
    const http = await startHttpFixture(env)
    try {
      env.MCP_TOKEN = 'very-secret-token-value'
      const h = makeHub({web: {url: http.url, headers: {Authorization: 'Bearer $MCP_TOKEN'}}})
      const set = await h.toolSet()
      expect(set.enabled.has('web.echo')).to.equal(true)
      expect(await call(h, 'web.echo', {text: 'over http'})).to.deep.equal({content: 'echo: over http', isError: false})
      expect(fixtureRecord(record)).to.include('header authorization=Bearer very-secret-token-value')
      await http.close()
      const out = await call(h, 'web.echo', {text: 'gone'})
      expect(out.isError).to.equal(true)
      expect(out.content).to.not.include('very-secret')
    } finally {
      await http.close()
    }
  })

  it('a header naming an unset variable fails the server with one line naming it', async () => {
    const h = makeHub({web: {url: 'http://127.0.0.1:9/mcp', headers: {Authorization: 'Bearer $NOT_SET_ANYWHERE'}}})
    await h.toolSet()
    expect(notices).to.deep.equal(['MCP server web left out of this turn: headers.Authorization names $NOT_SET_ANYWHERE, which is not set.'])
  })

  it('the published reference server (@modelcontextprotocol/server-everything) over stdio', async () => {
    const h = makeHub({everything: {command: process.execPath, args: [everythingServer(), 'stdio']}})
    const set = await h.toolSet()
    expect(set.enabled.has('everything.echo'), [...set.enabled].join(', ')).to.equal(true)
    const out = await call(h, 'everything.echo', {message: 'hello'})
    expect(out).to.deep.equal({content: 'Echo: hello', isError: false})
  })
})

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 25))
  }
}
