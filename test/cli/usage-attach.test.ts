// `jp query -u/--usage` and `-a/--attach PATH` (issue 26 finding 4), run as
// real processes against a local server speaking the provider's wire format.
import {expect} from 'chai'
import {execFileSync, spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {fixture, startReplayServer, type ReplayServer} from '../llm/replay-server.js'

/** An OpenAI-format stream: `delta` chunks, then usage with cached prompt tokens. */
function openaiStream(delta: Record<string, unknown>, finish: string, usage: {prompt: number; cached: number; completion: number}): string {
  const chunk = (body: Record<string, unknown>) => `data: ${JSON.stringify({id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...body})}\n\n`
  return (
    chunk({choices: [{index: 0, delta, finish_reason: null}]}) +
    chunk({choices: [{index: 0, delta: {}, finish_reason: finish}]}) +
    chunk({choices: [], usage: {prompt_tokens: usage.prompt, completion_tokens: usage.completion, prompt_tokens_details: {cached_tokens: usage.cached}}}) +
    'data: [DONE]\n\n'
  )
}

describe('jp query -u and -a', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  beforeEach(() => (sb = makeSandbox({JP_ECHO_DELAY_MS: '0', OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test'})))
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })
  const userConfig = (text: string) => {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml'), text)
  }
  const showText = async () => (await runJp(['conversation', 'show'], {sandbox: sb})).stdout

  describe('-u/--usage', () => {
    it('prints Tokens: N in (M cached), K out on stderr after the answer, and stores it with the turn', async () => {
      server = await startReplayServer([{body: fixture('anthropic-text.sse')}])
      const r = await runJp(['query', '-n', '-u', '-m', 'anthropic/claude-x', 'hi'], {sandbox: sb, env: {ANTHROPIC_BASE_URL: server.url}})
      expect(r.code, r.stderr).to.equal(0)
      // input 21 + cache creation 0 + cache read 4; output 14 (the last count of the message).
      expect(r.stderr.trimEnd().split('\n').at(-1)).to.equal('Tokens: 25 in (4 cached), 14 out')
      expect(r.stdout).to.not.include('Tokens:')
      expect(await showText()).to.match(/\nTokens: 25 in \(4 cached\), 14 out\n$/)
      // Without -u nothing is printed, yet the usage is stored.
      const quiet = await runJp(['query', '-m', 'anthropic/claude-x', 'again'], {sandbox: sb, env: {ANTHROPIC_BASE_URL: server.url}})
      expect(quiet.stderr).to.not.include('Tokens:')
      expect((await showText()).match(/^Tokens: 25 in \(4 cached\), 14 out$/gm)).to.have.length(2)
    })

    it('sums every request of the turn (a tool call, then the answer)', async () => {
      server = await startReplayServer([
        {body: openaiStream({tool_calls: [{index: 0, id: 'call_1', type: 'function', function: {name: 'greet', arguments: '{"name":"Ann"}'}}]}, 'tool_calls', {prompt: 100, cached: 60, completion: 10})},
        {body: openaiStream({content: 'Greeted.'}, 'stop', {prompt: 150, cached: 100, completion: 20})},
      ])
      userConfig(`[providers.llm.openai]\nbase_url = "${server.url}/v1"\n\n[conversation.tools.greet]\nsource = "local"\ncommand = "printf hello"\nsummary = "Greets"\nrun = "unattended"\n`)
      const r = await runJp(['query', '-n', '--usage', '-m', 'openai/gpt-x', 'greet Ann'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      expect(server.requests).to.have.length(2)
      expect(r.stderr.trimEnd().split('\n').at(-1)).to.equal('Tokens: 250 in (160 cached), 30 out')
      const events = (await runJp(['conversation', 'show', '--format', 'json'], {sandbox: sb})).stdout.trim().split('\n').map((l) => JSON.parse(l))
      expect(events.filter((e) => e.type === 'usage').map(({input_tokens, cached_tokens, output_tokens}) => [input_tokens, cached_tokens, output_tokens])).to.deep.equal([
        [100, 60, 10],
        [150, 100, 20],
      ])
    })

    it('says so when the provider reported no usage (the offline model)', async () => {
      const r = await runJp(['query', '-n', '-u', 'hi'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stderr.trimEnd().split('\n').at(-1)).to.equal('Tokens: not reported by the provider')
    })
  })

  describe('-a/--attach PATH', () => {
    it('sends each file with the query, fenced and labelled with its path; stored and shown', async () => {
      server = await startReplayServer([{body: fixture('openai-text.sse')}])
      writeFileSync(join(sb.cwd, 'notes.md'), 'Use ``` fences:\n```\ncode\n```\n')
      mkdirSync(join(sb.cwd, 'src'))
      writeFileSync(join(sb.cwd, 'src', 'a.ts'), 'export const a = 1')
      const r = await runJp(['query', '-n', '-m', 'openai/gpt-x', '-a', 'notes.md', '--attach', 'src/a.ts', 'review these'], {sandbox: sb, env: {OPENAI_BASE_URL: `${server.url}/v1`}})
      expect(r.code, r.stderr).to.equal(0)
      const sent = server.requests[0].json() as {messages: Array<{role: string; content: string}>}
      expect(sent.messages.filter((m) => m.role === 'user').map((m) => m.content)).to.deep.equal([
        'review these\n\nAttached file notes.md:\n````\nUse ``` fences:\n```\ncode\n```\n````\n\nAttached file src/a.ts:\n```\nexport const a = 1\n```',
      ])
      const shown = await showText()
      expect(shown).to.include('attached notes.md:\n  Use ``` fences:')
      expect(shown).to.include('attached src/a.ts:\n  export const a = 1')
      // The next turn still sends the attachments of the first (the conversation is the source of truth).
      await runJp(['query', '-m', 'openai/gpt-x', 'and now?'], {sandbox: sb, env: {OPENAI_BASE_URL: `${server.url}/v1`}})
      expect((server.requests[1].json() as {messages: Array<{content: string}>}).messages[0].content).to.include('Attached file src/a.ts:')
    })

    const editor = () => ({EDITOR: join(ROOT, 'test/fixtures/editors/record.sh'), EDITOR_RECORD: join(sb.dir, 'editor-ran')})
    for (const [what, prepare, message] of [
      ['a missing file', () => {}, 'Error: -a nope.txt: no such file'],
      ['a directory', () => mkdirSync(join(sb.cwd, 'nope.txt')), 'Error: -a nope.txt: is a directory (attach the files in it)'],
      [
        'a binary file (NUL in the first 8 KiB)',
        () => writeFileSync(join(sb.cwd, 'nope.txt'), Buffer.concat([Buffer.from('x'.repeat(8000)), Buffer.from([0]), Buffer.from('tail')])),
        'Error: -a nope.txt: is a binary file (a NUL byte in its first 8 KiB); only text can be attached',
      ],
      [
        'a file larger than query.attach_max_bytes',
        () => writeFileSync(join(sb.cwd, 'nope.txt'), 'x'.repeat(1024 * 1024 + 1)),
        'Error: -a nope.txt: 1048577 bytes, more than query.attach_max_bytes (1048576)',
      ],
    ] as const) {
      it(`${what} is one line naming it, before any editor or request`, async () => {
        server = await startReplayServer([{body: fixture('openai-text.sse')}])
        prepare()
        const r = await runJp(['query', '-e', '-m', 'openai/gpt-x', '-a', 'nope.txt', 'x'], {sandbox: sb, env: {...editor(), OPENAI_BASE_URL: `${server.url}/v1`}})
        expect(r.code).to.equal(1)
        expect(r.stderr).to.equal(`${message}\n`)
        expect(server.requests).to.have.length(0)
        expect(existsSync(join(sb.dir, 'editor-ran')), 'the editor ran').to.equal(false)
      })
    }

    describe('special files are refused before any blocking call (issue 42 finding 2)', () => {
      const refused = async (path: string, kind: string) => {
        server = await startReplayServer([{body: fixture('openai-text.sse')}])
        const r = await runJp(['query', '-n', '-m', 'openai/gpt-x', '-a', path, 'x'], {sandbox: sb, env: {OPENAI_BASE_URL: `${server.url}/v1`}, timeoutMs: 15_000})
        expect(r.signal, 'jp hung and was killed').to.equal(null)
        expect(r.code).to.equal(1)
        expect(r.stderr.trimEnd().split('\n'), r.stderr).to.have.length(1)
        expect(r.stderr).to.include(`-a ${path}: is ${kind}`)
        expect(server.requests).to.have.length(0)
      }
      it('a FIFO with no writer', async () => {
        execFileSync('mkfifo', [join(sb.cwd, 'f')])
        await refused('f', 'a FIFO (named pipe), not a regular file')
      })
      it('a FIFO whose writer holds it open and never writes', async () => {
        execFileSync('mkfifo', [join(sb.cwd, 'f')])
        const writer = spawn('sh', ['-c', 'exec 3>f; sleep 30'], {cwd: sb.cwd, stdio: 'ignore'})
        try {
          await refused('f', 'a FIFO (named pipe), not a regular file')
        } finally {
          writer.kill('SIGKILL')
        }
      })
      it('/dev/zero (a device that never ends)', async () => {
        await refused('/dev/zero', 'a device, not a regular file')
      })
      it('a /proc pseudo-file (size 0, yet content)', async () => {
        await refused('/proc/self/environ', 'a special file of unknown size')
      })
      it('SIGTERM while attachments are read ends jp at once (a FIFO is never waited on)', async () => {
        execFileSync('mkfifo', [join(sb.cwd, 'f')])
        const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'query', '-n', '-a', 'f', '-a', '/dev/zero', 'x'], {cwd: sb.cwd, env: sb.env, stdio: 'ignore', detached: true})
        const status = await new Promise<{code: number | null; signal: string | null}>((done) => {
          const timer = setTimeout(() => child.kill('SIGTERM'), 2000)
          child.on('close', (code, signal) => {
            clearTimeout(timer)
            done({code, signal})
          })
        })
        // It refused the FIFO itself (exit 1), or it was still starting and SIGTERM ended it: never a hang.
        expect([1, 143].includes(status.code ?? -1) || status.signal === 'SIGTERM', JSON.stringify(status)).to.equal(true)
      })
    })

    it('a NUL after the first 8 KiB does not make a file binary, and attach_max_bytes is configurable', async () => {
      server = await startReplayServer([{body: fixture('openai-text.sse')}])
      writeFileSync(join(sb.cwd, 'late.txt'), Buffer.concat([Buffer.from('y'.repeat(8192)), Buffer.from([0])]))
      const small = await runJp(['query', '-n', '-m', 'openai/gpt-x', '-c', 'query.attach_max_bytes=100', '-a', 'late.txt', 'x'], {sandbox: sb, env: {OPENAI_BASE_URL: `${server.url}/v1`}})
      expect(small.stderr).to.equal('Error: -a late.txt: 8193 bytes, more than query.attach_max_bytes (100)\n')
      const ok = await runJp(['query', '-n', '-m', 'openai/gpt-x', '-a', 'late.txt', 'x'], {sandbox: sb, env: {OPENAI_BASE_URL: `${server.url}/v1`}})
      expect(ok.code, ok.stderr).to.equal(0)
      expect(readFileSync(join(sb.cwd, 'late.txt')).length).to.equal(8193)
      expect((server.requests[0].json() as {messages: Array<{content: string}>}).messages[0].content).to.include('Attached file late.txt:')
    })
  })
})
