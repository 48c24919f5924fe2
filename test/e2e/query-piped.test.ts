// `jp query` end to end through bin/run.js with piped stdio (no terminal),
// against a local server speaking the OpenAI wire format byte for byte.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {closeSync, existsSync, openSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {IN_MEMORY_FIELD_CHARS, loadEvents} from '../../src/lib/conversation/journal.js'
import {BIN, makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'

const TOOL = join(ROOT, 'test/fixtures/tools/e2e-record.sh')

describe('e2e: jp query without a terminal', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined

  beforeEach(() => {
    sb = makeSandbox()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  function useServer(url: string, extra = ''): void {
    writeFileSync(
      join(sb.home, 'config.toml'),
      `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${url}/v1"\n${extra}`,
    )
  }

  const cfg = () => ['--cfg', join(sb.home, 'config.toml')]

  function storedEvents(): Array<Record<string, unknown>> {
    const dir = join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations')
    const ids = readdirSync(dir)
    expect(ids).to.have.length(1)
    return JSON.parse(readFileSync(join(dir, ids[0], 'events.json'), 'utf8'))
  }

  it('answers with the offline echo model when nothing is configured, with one notice on stderr', async () => {
    const r = await runJp(['query', 'hello there'], {sandbox: sb, env: {JP_ECHO_DELAY_MS: '0'}})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.match(/echo/i)
    expect(r.stdout).to.include('hello there')
    expect(r.stderr.match(/echo\/default/g)).to.have.length(1)
  })

  it('writes exactly the streamed text to stdout and records the turn', async () => {
    server = await startReplayServer([{body: openaiText(['Hel', 'lo, ', 'wörld', '!'])}])
    useServer(server.url)
    const r = await runJp(['query', ...cfg(), 'say hi'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('Hello, wörld!\n')
    const body = server.requests[0].json() as {messages: Array<{role: string; content: string}>; stream: boolean}
    expect(body.messages.at(-1)).to.deep.include({role: 'user', content: 'say hi'})
    const types = storedEvents().map((e) => e.type)
    expect(types).to.deep.equal(['turn_start', 'chat_request', 'chat_response'])
  })

  it('appends piped stdin to the query', async () => {
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    const r = await runJp(['query', ...cfg(), 'summarize'], {sandbox: sb, input: 'line one\nline two\n'})
    expect(r.code, r.stderr).to.equal(0)
    const body = server.requests[0].json() as {messages: Array<{role: string; content: string}>}
    expect(body.messages.at(-1)!.content).to.equal('summarize\n\nline one\nline two')
  })

  it('a large piped query (3 MB, from a non-blocking pipe; escaped once for the log and the request) reaches the server and the conversation exactly, from its first byte', async () => {
    const piped = Array.from({length: 60_000}, (_, i) => `line ${i}: "quoted" back\\slash\ttab naïve — 😀 \u2028 {"json": ${i}}\n`).join('')
    expect(piped.length).to.be.above(2 * 1024 * 1024)
    server = await startReplayServer([{body: openaiText(['ok'])}])
    useServer(server.url)
    const r = await runJp(['query', ...cfg(), 'summarize'], {sandbox: sb, input: piped})
    expect(r.code, r.stderr).to.equal(0)
    const query = `summarize\n\n${piped.trim()}`
    const body = server.requests[0].json() as {messages: Array<{role: string; content: string}>}
    expect(body.messages.at(-1)!.content === query, 'the request carries the query exactly').to.equal(true)
    const dir = join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations')
    const [id] = readdirSync(dir)
    const stored = await loadEvents(join(dir, id, 'events.json'), join(dir, id, 'events.log'))
    const request = stored.events.find((e) => e.type === 'chat_request') as {content?: string}
    expect(request.content === query, 'the stored query is the query exactly').to.equal(true)
  })

  it('continues the active conversation: the second request carries the first exchange', async () => {
    server = await startReplayServer([{body: openaiText(['first answer'])}, {body: openaiText(['second answer'])}])
    useServer(server.url)
    expect((await runJp(['query', ...cfg(), 'one'], {sandbox: sb})).code).to.equal(0)
    const r = await runJp(['query', ...cfg(), 'two'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const body = server.requests[1].json() as {messages: Array<{role: string; content: string}>}
    expect(body.messages.map((m) => [m.role, m.content])).to.deep.equal([
      ['user', 'one'],
      ['assistant', 'first answer'],
      ['user', 'two'],
    ])
  })

  it('runs a tool enabled with --tool and sends its result in the next request', async () => {
    server = await startReplayServer([
      {body: openaiToolCall('call_1', 'record', {path: 'src', deep: true})},
      {body: openaiText(['Done.'])},
    ])
    const record = join(sb.dir, 'record.txt')
    useServer(server.url, `[conversation.tools.record]\ncommand = "${TOOL}"\nsummary = "Record"\n[conversation.tools.record.parameters.path]\ntype = "string"\nrequired = true\n`)
    const r = await runJp(['query', ...cfg(), '--tool', 'record', 'go'], {sandbox: sb, env: {RECORD_FILE: record}})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('Done.\n')
    expect(readFileSync(record, 'utf8')).to.equal('{"path":"src","deep":true}\nname=record file={"path":"src","deep":true}\n')
    const first = server.requests[0].json() as {tools: Array<{function: {name: string; parameters: unknown}}>}
    expect(first.tools[0].function.name).to.equal('record')
    const second = server.requests[1].json() as {messages: Array<Record<string, unknown>>}
    expect(second.messages.at(-1)).to.deep.include({role: 'tool', tool_call_id: 'call_1', content: 'tool says: {"path":"src","deep":true}'})
  })

  it('never runs an ask tool without a terminal unless --tool consents, and still answers the call', async () => {
    server = await startReplayServer([{body: openaiToolCall('call_9', 'record', {path: 'x'})}, {body: openaiText(['Understood.'])}])
    const record = join(sb.dir, 'record.txt')
    useServer(server.url, `[conversation.tools.record]\ncommand = "${TOOL}"\n`)
    const r = await runJp(['query', ...cfg(), 'go'], {sandbox: sb, env: {RECORD_FILE: record}})
    expect(r.code, r.stderr).to.equal(0)
    expect(existsSync(record)).to.equal(false)
    const second = server.requests[1].json() as {messages: Array<Record<string, unknown>>}
    expect(second.messages.at(-1)).to.deep.include({
      role: 'tool',
      tool_call_id: 'call_9',
      content: 'Tool not run: no terminal to ask for permission (enable it with --tool record or set run = "unattended").',
    })
  })

  it('--format json prints one JSON event per line and nothing else on stdout', async () => {
    server = await startReplayServer([{body: openaiText(['a', 'b'])}])
    useServer(server.url)
    const r = await runJp(['query', ...cfg(), '--format', 'json', 'x'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const lines = r.stdout.trimEnd().split('\n')
    const events = lines.map((l) => JSON.parse(l) as {type: string; text?: string})
    expect(events.filter((e) => e.type === 'text').map((e) => e.text).join('')).to.equal('ab')
    expect(events.every((e) => typeof e.type === 'string')).to.equal(true)
  })

  it('fails before any request when the API key variable is unset, naming it', async () => {
    server = await startReplayServer([{body: openaiText(['never'])}])
    writeFileSync(join(sb.home, 'config.toml'), `[assistant.model]\nid = "openai/gpt-x"\n[providers.llm.openai]\nbase_url = "${server.url}/v1"\n`)
    const r = await runJp(['query', ...cfg(), 'x'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stderr).to.include('OPENAI_API_KEY')
    expect(r.stderr.trim().split('\n')).to.have.length(1)
    expect(server.requests).to.have.length(0)
  })

  it('a provider error keeps what streamed, exits 1 with one error line, and the next query works', async () => {
    server = await startReplayServer([
      {body: openaiText(['partial ']).split('data: {"id":"chatcmpl-e2e","object":"chat.completion.chunk","created":1,"model":"e2e","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}')[0], destroy: true},
      {body: openaiText(['recovered'])},
    ])
    useServer(server.url)
    const r = await runJp(['query', ...cfg(), 'x'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('partial \n')
    expect(r.stderr).to.match(/^Error: /m)
    expect(storedEvents().some((e) => e.message === 'partial ')).to.equal(true)
    const again = await runJp(['query', ...cfg(), 'retry'], {sandbox: sb})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stdout).to.equal('recovered\n')
  })

  it('an unreadable stdin (a directory) fails with one line naming stdin', () => {
    const fd = openSync(sb.cwd, 'r')
    try {
      const r = spawnSync(process.execPath, [BIN, 'query', 'x'], {cwd: sb.cwd, env: sb.env, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8'})
      expect(r.status).to.equal(1)
      expect(r.stderr.trim()).to.match(/^Error: cannot read the query from stdin: EISDIR/)
      expect(r.stderr.trim().split('\n')).to.have.length(1)
    } finally {
      closeSync(fd)
    }
  })

  it('fails clearly with no query and no terminal', async () => {
    const r = await runJp(['query'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stderr).to.match(/^Error: no query given/)
  })

  it('a 3 MB answer (written as log bytes while it streams, more than is kept in memory): stdout and the stored message equal what streamed; the follow-up request carries it all', async () => {
    const words = ['plain', '"quoted"', 'back\\slash', 'tab\there', 'naïve', '—', '😀', 'line\n', '{"json": [1, 2]}', '\u2028']
    const pieces: string[] = []
    let size = 0
    for (let i = 0; size < 3 * 1024 * 1024; i++) {
      const piece = Array.from({length: 24}, (_, k) => words[(i + k) % words.length]).join(' ') + ' '
      pieces.push(piece)
      size += piece.length
    }
    const answer = pieces.join('')
    expect(answer.length).to.be.above(2 * IN_MEMORY_FIELD_CHARS)
    server = await startReplayServer([{body: openaiText(pieces)}, {body: openaiText(['short'])}])
    useServer(server.url)

    const first = await runJp(['query', ...cfg(), 'go'], {sandbox: sb})
    expect(first.code, first.stderr).to.equal(0)
    expect(first.stdout === answer || first.stdout === answer + '\n', 'stdout is the answer').to.equal(true)

    const dir = join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations')
    const [id] = readdirSync(dir)
    const stored = await loadEvents(join(dir, id, 'events.json'), join(dir, id, 'events.log'))
    const response = stored.events.find((e) => e.type === 'chat_response') as {message?: string}
    expect(response.message?.length).to.equal(answer.length)
    expect(response.message === answer, 'the stored message is the answer exactly').to.equal(true)

    const second = await runJp(['query', ...cfg(), 'more'], {sandbox: sb})
    expect(second.code, second.stderr).to.equal(0)
    const body = server.requests[1].json() as {messages: Array<{role: string; content: string}>}
    const sent = body.messages.find((m) => m.role === 'assistant')
    expect(sent?.content === answer, 'the follow-up sends the whole answer back').to.equal(true)
  })
})
