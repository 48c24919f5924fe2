// `jp mcp ls` and `jp mcp tools NAME` against real servers (the SDK fixture
// and the published reference server), without a terminal.
import {expect} from 'chai'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {everythingServer, fixtureRecord, MCP_FIXTURE} from '../helpers/mcp.js'

describe('jp mcp ls / jp mcp tools', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let cfg: string
  let record: string

  beforeEach(() => {
    sb = makeSandbox()
    cfg = join(sb.dir, 'config.toml')
    record = join(sb.dir, 'record.txt')
    const node = JSON.stringify(process.execPath)
    writeFileSync(
      cfg,
      `[mcp.servers.fx]\ncommand = ${node}\nargs = [${JSON.stringify(MCP_FIXTURE)}]\n` +
        `[mcp.servers.everything]\ncommand = ${node}\nargs = [${JSON.stringify(everythingServer())}, "stdio"]\n` +
        `[mcp.servers.off]\ncommand = ${node}\nargs = [${JSON.stringify(MCP_FIXTURE)}]\nenable = false\n` +
        `[mcp.servers.broken]\ncommand = "/nonexistent/mcp-server"\n` +
        `[mcp.servers.web]\nurl = "http://127.0.0.1:9/mcp"\nheaders = {Authorization = "Bearer literal-secret-value"}\ntimeout_secs = 5\n` +
        `[conversation.tools."fx.*"]\nrun = "unattended"\n[conversation.tools."fx.fail"]\nrun = "skip"\nenable = false\n`,
    )
  })
  afterEach(() => sb.cleanup())

  const jp = (args: string[]) => runJp(['--cfg', cfg, ...args], {sandbox: sb, env: {MCP_FIXTURE_RECORD: record}, timeoutMs: 40_000})

  it('ls: each server with its transport, state and tool count; the servers are stopped after', async () => {
    const r = await jp(['mcp', 'ls'])
    expect(r.code, r.stderr).to.equal(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).to.match(/^NAME\s+TRANSPORT\s+STATE\s+TOOLS$/)
    expect(lines.find((l) => l.startsWith('fx '))).to.match(/^fx\s+stdio\s+ready\s+8$/)
    expect(lines.find((l) => l.startsWith('everything '))).to.match(/^everything\s+stdio\s+ready\s+\d+$/)
    expect(lines.find((l) => l.startsWith('off '))).to.match(/^off\s+stdio\s+not started \(enable = false\)\s+0$/)
    expect(lines.find((l) => l.startsWith('broken '))).to.match(/^broken\s+stdio\s+failed \(.*ENOENT.*\)\s+0$/)
    expect(lines.find((l) => l.startsWith('web '))).to.match(/^web\s+http\s+failed \(.+\)\s+0$/)
    expect(r.stdout + r.stderr).to.not.include('literal-secret')
    const pid = Number(fixtureRecord(record).find((l) => l.startsWith('started'))!.split(' ')[1])
    expect(() => process.kill(pid, 0), 'the fixture server was stopped').to.throw()
  })

  it('ls --format json: one object per server', async () => {
    const r = await jp(['mcp', 'ls', '--format', 'json'])
    expect(r.code, r.stderr).to.equal(0)
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.find((x) => x.name === 'fx')).to.deep.equal({name: 'fx', transport: 'stdio', state: 'ready', tools: 8})
    expect(rows.find((x) => x.name === 'off')).to.deep.equal({name: 'off', transport: 'stdio', state: 'not started', reason: 'enable = false', tools: 0})
  })

  it('tools NAME: each tool, the first line of its description and its run policy', async () => {
    const r = await jp(['mcp', 'tools', 'fx'])
    expect(r.code, r.stderr).to.equal(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).to.include('fx.echo  (run = unattended)  Echoes its text back.')
    expect(lines).to.include('fx.fail  (run = skip, not enabled)  Always fails (isError).')
    const json = await jp(['mcp', 'tools', 'off', '--format', 'json'])
    expect(json.code, json.stderr).to.equal(0)
    expect(JSON.parse(json.stdout.split('\n')[0])).to.deep.equal({name: 'off.echo', description: 'Echoes its text back.', run: 'ask', enabled: false})
  })

  it('config show / config get: a literal header value is [redacted], one naming a variable is shown as written', async () => {
    writeFileSync(cfg, `[mcp.servers.env]\nurl = "http://127.0.0.1:9/mcp"\nheaders = {Authorization = "Bearer $MCP_TOKEN"}\n`, {flag: 'a'})
    const show = await jp(['config', 'show'])
    expect(show.code, show.stderr).to.equal(0)
    expect(show.stdout).to.not.include('literal-secret')
    expect(show.stdout).to.include('Authorization = "[redacted]"').and.include('Authorization = "Bearer $MCP_TOKEN"')
    const get = await jp(['config', 'get', 'mcp.servers.web.headers.Authorization'])
    expect(get.stdout.trim()).to.equal('[redacted]')
  })

  it('tools NAME: an unknown server or one that fails is one line, exit 1', async () => {
    const unknown = await jp(['mcp', 'tools', 'nope'])
    expect(unknown.code).to.equal(1)
    expect(unknown.stderr.trim()).to.equal("Error: no MCP server named 'nope' is configured (known: fx, everything, off, broken, web)")
    const broken = await jp(['mcp', 'tools', 'broken'])
    expect(broken.code).to.equal(1)
    expect(broken.stderr.trim()).to.match(/^Error: MCP server broken failed: .*ENOENT/)
  })
})
