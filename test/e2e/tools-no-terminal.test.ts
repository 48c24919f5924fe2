// The tool rules without a terminal (SPEC §8.3 last paragraph): bin/run.js
// with piped stdio in a new session (no /dev/tty), a local server returning a
// tool call, and a real local tool that records what it received. The basic
// `--tool` run and `ask` without `--tool` are in query-piped.test.ts; these
// complete the table: result modes, run modes, and the consent of `--tool`.
import {expect} from 'chai'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp, type RunResult, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'

const TOOL = join(ROOT, 'test/fixtures/tools/e2e-record.sh')
const ARGS = {path: 'src', deep: true}
const RESULT = `tool says: ${JSON.stringify(ARGS)}`
const NO_TERMINAL = 'Tool not run: no terminal to ask for permission (enable it with --tool record or set run = "unattended").'

type Message = {role: string; content?: string | null; tool_call_id?: string}

describe('e2e: tool rules without a terminal', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let recordFile: string

  beforeEach(() => {
    sb = makeSandbox()
    recordFile = join(sb.dir, 'record.txt')
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** One call to `record` with ARGS, then a text answer; `toolToml` goes into the tool's table. */
  async function query(toolToml: string, args: string[] = []): Promise<RunResult> {
    server = await startReplayServer([{body: openaiToolCall('call_1', 'record', ARGS)}, {body: openaiText(['Done.'])}])
    const file = join(sb.home, 'config.toml')
    writeFileSync(
      file,
      `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n` +
        `[conversation.tools.record]\ncommand = "${TOOL}"\n${toolToml}`,
    )
    const r = await runJp(['query', '--cfg', file, ...args, 'go'], {sandbox: sb, env: {RECORD_FILE: recordFile}})
    expect(r.code, r.stderr).to.equal(0)
    // No prompt was attempted anywhere we could see it, and the answer stays clean.
    expect(r.stdout).to.equal('Done.\n')
    expect(r.stderr).not.to.match(/Run local tool|Deliver record result|Edit arguments/)
    return r
  }

  function toolRuns(): unknown[] {
    if (!existsSync(recordFile)) return []
    const lines = readFileSync(recordFile, 'utf8').trimEnd().split('\n')
    return lines.filter((_, i) => i % 2 === 0).map((l) => JSON.parse(l))
  }

  /** The one tool message of the second request. */
  function answer(): Message {
    expect(server!.requests).to.have.length(2)
    const body = server!.requests[1].json() as {messages: Message[]}
    const tools = body.messages.filter((m) => m.role === 'tool')
    expect(tools).to.have.length(1)
    expect(tools[0].tool_call_id).to.equal('call_1')
    return tools[0]
  }

  it('result = "ask" delivers the result unchanged (with --tool as consent to run)', async () => {
    await query('result = "ask"\n', ['--tool', 'record'])
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('result = "ask" given with --cfg on the command line behaves the same', async () => {
    await query('', ['--tool', 'record', '--cfg', 'conversation.tools.record.result="ask"'])
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('result = "edit" delivers the result unchanged', async () => {
    await query('run = "unattended"\nresult = "edit"\n')
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('result = "skip" runs the tool but withholds the result', async () => {
    await query('run = "unattended"\nresult = "skip"\n')
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal('Result delivery skipped by configuration.')
  })

  it('run = "unattended" runs without --tool', async () => {
    await query('run = "unattended"\n')
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('run = "unattended" inherited from conversation.tools.\'*\' runs too', async () => {
    await query('[conversation.tools.\'*\']\nrun = "unattended"\n')
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('run = "skip" never runs the tool, even when --tool names it, and answers the call', async () => {
    await query('run = "skip"\n', ['--tool', 'record'])
    expect(toolRuns()).to.deep.equal([])
    expect(answer().content).to.equal('Tool run skipped by configuration.')
  })

  it('run = "edit" without --tool is the no-terminal response; the tool never runs', async () => {
    await query('run = "edit"\n')
    expect(toolRuns()).to.deep.equal([])
    expect(answer().content).to.equal(NO_TERMINAL)
  })

  it('run = "edit" with --tool runs the model arguments as they are', async () => {
    await query('run = "edit"\n', ['--tool', 'record'])
    expect(toolRuns()).to.deep.equal([ARGS])
    expect(answer().content).to.equal(RESULT)
  })

  it('ask with --tool naming another tool is still no consent for this one', async () => {
    await query(`[conversation.tools.other]\ncommand = "${TOOL}"\n`, ['--tool', 'other'])
    expect(toolRuns()).to.deep.equal([])
    // Both tools are offered (enabled by default); --tool other consents only to other.
    expect(answer().content).to.equal(NO_TERMINAL)
  })
})
