// Issue 28, findings 5–8 through the built CLI (build first): a model and a
// tool that misbehave. A local server speaks the OpenAI wire format; the
// tools are real programs run unattended, without a terminal.
//  5. a tool that leaves a background child holding stdout ends the call anyway;
//  6. 10 MB of arguments reach the tool (they failed with `spawn E2BIG`);
//  7. arguments nested 200k levels deep are a one-line error result, not a crash;
//  8. the tool's environment holds no provider key or other secret.
import {expect} from 'chai'
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, runJp, type RunResult, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {walkFiles} from '../faults/harness.js'

type Message = {role: string; content?: string | null; tool_call_id?: string}

/** A response calling tool `name` with `args` as raw argument text (any size, any shape). */
function toolCallRaw(name: string, args: string): string {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`
  return (
    chunk({role: 'assistant', content: null}) +
    chunk({tool_calls: [{index: 0, id: 'call_1', type: 'function', function: {name, arguments: args}}]}) +
    chunk({}, 'tool_calls') +
    'data: [DONE]\n\n'
  )
}

describe('security: hostile tool calls and tools (built CLI)', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let server: ReplayServer | undefined

  beforeEach(() => (sb = makeSandbox()))
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** Serves a call of tool `t` with `args`, then a text answer; runs `jp query` with the tool table `toolToml`. */
  async function run(args: string, toolToml: string, opts: {env?: NodeJS.ProcessEnv; extra?: string; timeoutMs?: number} = {}): Promise<RunResult> {
    server = await startReplayServer([{body: toolCallRaw('t', args)}, {body: openaiText(['Done.'])}])
    const file = join(sb.home, 'config.toml')
    writeFileSync(
      file,
      `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n${opts.extra ?? ''}` +
        `[conversation.tools.t]\nrun = "unattended"\n${toolToml}`,
    )
    return runJp(['query', '--cfg', file, 'go'], {sandbox: sb, env: opts.env, timeoutMs: opts.timeoutMs ?? 30_000})
  }

  /** The tool message the model got in the second request. */
  function toolMessage(): Message {
    expect(server!.requests, 'the model was asked again with the result').to.have.length(2)
    const messages = (server!.requests[1].json() as {messages: Message[]}).messages
    const tool = messages.filter((m) => m.role === 'tool')
    expect(tool).to.have.length(1)
    return tool[0]
  }

  it('finding 5: `sleep 25 &` in a shell tool does not keep jp waiting; the result says the tool left processes behind', async () => {
    const r = await run('{}', `command = {program = "sleep 25 & echo done", shell = true}\n`, {timeoutMs: 15_000})
    expect(r.signal, 'jp waited for the background child and was killed by the test').to.equal(null)
    expect(r.code, r.stderr).to.equal(0)
    const content = toolMessage().content!
    expect(content.split('\n')[0]).to.equal('done')
    expect(content).to.include('left processes running')
    expect(r.stdout).to.equal('Done.\n')
  })

  it('finding 6: 10 MB of arguments reach the tool on stdin (no E2BIG)', async () => {
    const big = JSON.stringify({text: 'y'.repeat(10 * 1024 * 1024)})
    const r = await run(big, `command = {program = "wc -c", shell = true}\n`)
    expect(r.code, r.stderr).to.equal(0)
    const content = toolMessage().content!
    expect(content.trim()).to.equal(String(Buffer.byteLength(big)))
  })

  it('finding 7: arguments nested 200,000 levels deep are a one-line error result for the model; jp does not crash', async () => {
    const depth = 200_000
    const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const r = await run(deep, `command = "true"\n`)
    expect(r.code, r.stderr.slice(0, 500)).to.equal(0)
    expect(r.stderr).not.to.include('Maximum call stack')
    expect(toolMessage().content).to.equal("Invalid arguments for tool 't': the arguments are nested deeper than 1000 levels")
    expect(r.stdout).to.equal('Done.\n')
  })

  describe('finding 8: secrets stay out of tools', () => {
    const SECRETS = {
      OPENAI_API_KEY: 'sk-openai-live-0123456789',
      ANTHROPIC_API_KEY: 'sk-ant-live-0123456789',
      MY_ROUTER_CRED: 'router-credential-0123456789',
      GITHUB_TOKEN: 'ghp_0123456789abcdef',
      DB_PASSWORD: 'hunter2-0123456789',
    }

    it('a tool that prints its environment sends no key to the model, and none lands in the conversation files', async () => {
      const r = await run('{}', `command = "env"\n`, {
        env: {...SECRETS, HARMLESS_SETTING: 'visible'},
        // A provider whose key variable has a name no pattern catches.
        extra: `[providers.llm.openrouter]\napi_key_env = "MY_ROUTER_CRED"\n`,
      })
      expect(r.code, r.stderr).to.equal(0)
      const content = toolMessage().content!
      expect(content).to.include('HARMLESS_SETTING=visible')
      const sent = JSON.stringify(server!.requests.map((q) => q.body))
      const stored = walkFiles(join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp')).map((f) => readFileSync(f, 'utf8')).join('\n')
      expect(readdirSync(join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations'))).to.have.length(1)
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(content, name).not.to.include(value)
        expect(sent, `${name} in a request`).not.to.include(value)
        expect(stored, `${name} in the conversation files`).not.to.include(value)
      }
    })

    it('conversation.tools.NAME.env keeps what the user names (keep), and inherit = "none" passes nothing else', async () => {
      const r = await run('{}', `command = "env"\nenv = {inherit = "none", keep = ["GITHUB_TOKEN", "PATH"]}\n`, {env: {...SECRETS, HARMLESS_SETTING: 'visible'}})
      expect(r.code, r.stderr).to.equal(0)
      const names = toolMessage()
        .content!.trimEnd()
        .split('\n')
        .map((l) => l.slice(0, l.indexOf('=')))
        .sort()
      expect(names).to.deep.equal(['GITHUB_TOKEN', 'JP_TOOL_ARGUMENTS_FILE', 'JP_TOOL_NAME', 'PATH'])
    })
  })
})
