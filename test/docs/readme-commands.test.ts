// Every command line of the README, run as written (placeholders filled in)
// with `jp` on PATH, in order, in one sandbox: the offline echo model, and a
// local HTTP server speaking the OpenAI and Ollama wire formats for the lines
// that name those providers. A line that fails as written fails here.
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import {listenLocal} from '../helpers/local-server.js'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'

import {fixture} from '../llm/replay-server.js'
import {assertBuilt, makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {codeBlocksUnder, runScript} from '../helpers/markdown.js'
import {copyExamplePlugin} from '../helpers/example-plugin.js'
import {requireProgram} from '../helpers/programs.js'

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
/** The conversation id the README's examples use. */
const EXAMPLE_ID = /--id (jp-c\d+)/.exec(README)?.[1] ?? 'missing-from-readme'

/** The README's placeholders → values that exist in the sandbox. */
function instantiate(line: string): string {
  return line
    .replace(/\[ID\.\.\.\]|\[ID\]|\bID\b(?!\))/g, EXAMPLE_ID)
    .replace(/\[--([a-z-]+)\|[^\]]*\]/g, '--$1') // [--events|--metadata|...] → the first
    .replace(/\[DIR\]/g, 'proj')
    .replace(/\[COMMAND\.\.\.\]/g, 'conversation ls')
    .replace(/\[--model PROVIDER\/MODEL\]/g, '--model echo/default')
    .replace(/\[--yes\]/g, '--yes')
}

/** The sh command lines of the README, in order (comments are kept: bash ignores them). */
function readmeLines(): string[] {
  const blocks = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1])
  return blocks.flatMap((b) => b.split('\n')).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
}

/** Lines that need a terminal; each is covered by the named pty test instead. */
const NEEDS_TERMINAL: Record<string, string> = {
  'jp query': 'test/e2e/query-inline.test.ts (a bare jp query on a terminal composes inline)',
}

interface Received {
  path: string
  body: {model?: string}
}

/** One server for both wire formats (chat and the model lists), routed by path. */
async function startProviderServer(): Promise<{url: string; received: Received[]; close(): Promise<void>}> {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString('utf8')))
    req.on('end', () => {
      received.push({path: req.url ?? '', body: JSON.parse(body || '{}') as Received['body']})
      if (req.url === '/v1/chat/completions') {
        res.writeHead(200, {'content-type': 'text/event-stream'})
        res.end(fixture('openai-text.sse'))
      } else if (req.url === '/v1/models') {
        res.writeHead(200, {'content-type': 'application/json'})
        res.end(JSON.stringify({object: 'list', data: [{id: 'gpt-4o', object: 'model', created: 1, owned_by: 'system'}]}))
      } else if (req.url === '/api/tags') {
        res.writeHead(200, {'content-type': 'application/json'})
        res.end(JSON.stringify({models: [{name: 'llama3.2:latest', model: 'llama3.2:latest', modified_at: '2026-05-01T10:00:00Z', size: 1, digest: 'a', details: {}}]}))
      } else if (req.url === '/api/chat') {
        res.writeHead(200, {'content-type': 'application/x-ndjson'})
        res.end(fixture('ollama-chat.ndjson'))
      } else {
        res.writeHead(404).end()
      }
    })
  })
  const {url, close} = await listenLocal(server)
  return {url, received, close}
}

describe('README command lines, run as written', function () {
  this.timeout(300_000)
  let sb: Sandbox
  let server: Awaited<ReturnType<typeof startProviderServer>>

  before(async function () {
    // The README's lines pipe `git diff` and NDJSON through jq; dist/ is what `npm test` built.
    requireProgram(this, 'git', 'git')
    requireProgram(this, 'jq', 'jq')
    assertBuilt()
    server = await startProviderServer()
    sb = makeSandbox({
      JP_ECHO_DELAY_MS: '0',
      // An editor that saves without changing anything.
      EDITOR: 'true',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'sk-readme-test',
      GIT_CONFIG_GLOBAL: '/dev/null',
    })
    // The user config: docs/tools.md's `greet` tool with its documented
    // `enable = false` (offered only with --tool greet, as the README's -t
    // line shows), and Ollama on the local server.
    const [example] = codeBlocksUnder(readFileSync(join(ROOT, 'docs', 'tools.md'), 'utf8'), 'Configuring a tool', 'toml')
    const tools = example.replace(/^# (enable = false)/m, '$1')
    expect(tools).to.match(/^enable = false/m)
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml'), `${tools}\n\n[providers.llm.ollama]\nbase_url = "${server.url}"\n`)
    // A project under git with an uncommitted change (for `git diff | jp ...`).
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {cwd: sb.cwd, env: sb.env})
    git('init', '-q')
    writeFileSync(join(sb.cwd, 'regex.js'), 'const re = /(a+)+$/\n')
    git('add', 'regex.js')
    git('commit', '-qm', 'regex')
    writeFileSync(join(sb.cwd, 'regex.js'), 'const re = /a+$/\n')
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    // The conversation the README's --id example continues, and a plugin to link.
    const dir = join(sb.cwd, '.jp', 'conversations', EXAMPLE_ID)
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'metadata.json'), JSON.stringify({title: 'regex backtracking'}))
    writeFileSync(join(dir, 'events.json'), '[]')
    writeFileSync(join(dir, 'base_config.json'), '{}')
    copyExamplePlugin(join(sb.cwd, 'my-plugin'))
    // docs/tools.md's tools/greet.sh, which the -t greet line runs.
    const [greet] = codeBlocksUnder(readFileSync(join(ROOT, 'docs', 'tools.md'), 'utf8'), 'Configuring a tool', 'sh')
    mkdirSync(join(sb.cwd, 'tools'))
    writeFileSync(join(sb.cwd, 'tools', 'greet.sh'), greet + '\n', {mode: 0o755})
  })
  after(async () => {
    await server?.close()
    sb?.cleanup()
  })

  it('has the lines this test knows how to prepare for', () => {
    expect(EXAMPLE_ID).to.match(/^jp-c\d+$/)
    expect(readmeLines().length).to.be.greaterThan(15)
  })

  it('runs every sh line of the README in order, each exiting 0', async () => {
    const ran: string[] = []
    for (const line of readmeLines()) {
      const command = line.replace(/\s+#.*$/, '').trim()
      if (command in NEEDS_TERMINAL) continue
      const script = instantiate(line)
      const r = await runScript(script, {sandbox: sb, cwd: sb.cwd, timeoutMs: 60_000})
      expect(r.code, `${script}\n${r.stderr}`).to.equal(0)
      expect(r.stderr, script).to.not.match(/^Error:/m)
      ran.push(command)
      if (/\| jq /.test(line)) {
        // The NDJSON pipe prints the answer as one line, not one line per chunk.
        expect(r.stdout, script).to.equal('[echo model — no provider configured] You said: hi\n')
      }
      if (line.startsWith('git diff |')) expect(r.stdout).to.include('(a+)+$')
      if (line.includes("-t greet")) expect(r.stdout, r.stderr).to.include("returned: Hello, example!")
      if (line.includes('-m ollama/llama3.2')) {
        expect(server.received.at(-1)).to.deep.include({path: '/api/chat'})
        expect(server.received.at(-1)!.body.model).to.equal('llama3.2')
        expect(r.stdout).to.include('Héllo thére')
      }
    }
    // Every line but the terminal-only ones ran.
    const expected = readmeLines()
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((c) => !(c in NEEDS_TERMINAL))
    expect(ran).to.deep.equal(expected)
    expect(ran.length).to.be.greaterThan(15)
  })

  it('runs the quick start line in a sandbox with nothing configured', async () => {
    // (The `npm install` half is the fresh-clone check of issue 16's closing note.)
    const fresh = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    try {
      const quick = await runScript('./bin/run.js query "hello"', {sandbox: fresh, cwd: ROOT})
      expect(quick.code, quick.stderr).to.equal(0)
      expect(quick.stdout).to.equal('[echo model — no provider configured] You said: hello\n')
    } finally {
      fresh.cleanup()
    }
  })

  it('runs the command lines quoted in the prose', async () => {
    const before = server.received.length
    const openai = await runScript('jp query -m openai/gpt-4o-mini "..."', {sandbox: sb, cwd: sb.cwd})
    expect(openai.code, openai.stderr).to.equal(0)
    expect(server.received.length).to.equal(before + 1)
    expect(server.received.at(-1)).to.deep.include({path: '/v1/chat/completions'})
    expect(server.received.at(-1)!.body.model).to.equal('gpt-4o-mini')

    const ws = await runScript('jp init ~/src/app --yes && jp -w ~/src/app conversation ls && jp c ls', {sandbox: sb, cwd: sb.cwd})
    expect(ws.code, ws.stderr).to.equal(0)
    expect(README).to.include('`jp -w ~/src/app conversation ls`')
    expect(README).to.include('`jp query -m openai/gpt-4o-mini "..."`')
  })
})
