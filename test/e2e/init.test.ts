// `jp init` on a terminal asks for the default model with the inline prompt
// (on /dev/tty, re-asking on a malformed id with the text kept); Ctrl+C
// creates nothing.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {spawnPty} from '../helpers/pty.js'
import {startModelsServer, type ModelsServer} from '../helpers/models-server.js'

describe('e2e: jp init on a terminal', function () {
  this.timeout(30_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  it('asks for the model, re-asks on a malformed id keeping the text, and writes the answer', async () => {
    const s = await spawnPty([BIN, 'init', 'proj'], {cwd: sb.cwd, env: sb.env})
    await s.waitForText('Default model (PROVIDER/MODEL')
    s.send('claude')
    s.send('\r')
    await s.waitForText("'claude' is not PROVIDER/MODEL")
    // The rejected text is kept: complete it rather than retype it.
    s.send('\x01anthropic/')
    s.send('\r')
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    const config = readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')
    expect(config).to.include('id = "anthropic/claude"')
  })

  for (const answer of ['anthropic/claude\r', '\x03']) {
    it(`leaves the terminal settings as it found them (${answer === '\x03' ? 'Ctrl+C' : 'answered'})`, async () => {
      const before = join(sb.dir, 'stty-before')
      const after = join(sb.dir, 'stty-after')
      const script = `stty -a > '${before}'; "$0" "$1" init proj; stty -a > '${after}'`
      const s = await spawnPty(['-c', script, process.execPath, BIN], {file: '/bin/sh', cwd: sb.cwd, env: sb.env})
      await s.waitForText('Default model (PROVIDER/MODEL')
      expect(s.stty(), 'the question changes the terminal while it is open').to.not.equal(readFileSync(before, 'utf8').split('\n').slice(1).join('\n'))
      s.send(answer)
      await s.waitForExit()
      expect(readFileSync(after, 'utf8')).to.equal(readFileSync(before, 'utf8'))
    })
  }

  // A signal from outside (`kill -INT`, `kill -QUIT`, `kill`) while the question is
  // open: no signal router runs in `jp init`, so the restore registry's
  // stand-in restores the terminal and the signal ends jp as it ends any jp
  // command (128 + the signal).
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGQUIT', 131],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} from outside while the question is open: exit ${code}, the terminal restored (icanon echo), nothing created`, async () => {
      const before = join(sb.dir, 'stty-before')
      const after = join(sb.dir, 'stty-after')
      const status = join(sb.dir, 'status')
      const script = `stty -a > '${before}'; "$0" "$1" init proj; echo "exit=$?" > '${status}'; stty -a > '${after}'`
      const s = await spawnPty(['-c', script, process.execPath, BIN], {file: '/bin/sh', cwd: sb.cwd, env: sb.env})
      try {
        await s.waitForText('Default model (PROVIDER/MODEL')
        await s.settle(100)
        expect(s.stty(), 'the question put the terminal in raw mode').to.match(/-icanon/).and.match(/-echo\b/)
        // jp is the shell's one child.
        const jp = Number(readFileSync(`/proc/${s.pid}/task/${s.pid}/children`, 'utf8').trim())
        process.kill(jp, signal)
        await s.waitForExit()
        expect(readFileSync(status, 'utf8').trim()).to.equal(`exit=${code}`)
        const settled = readFileSync(after, 'utf8')
        expect(settled).to.match(/(^|\s)icanon(\s|$)/m).and.match(/(^|\s)echo(\s|$)/m)
        expect(settled).to.equal(readFileSync(before, 'utf8'))
        expect(existsSync(join(sb.cwd, 'proj', '.jp'))).to.equal(false)
      } finally {
        s.dispose()
      }
    })
  }

  it('Ctrl+C at the question creates nothing and fails with one line', async () => {
    const s = await spawnPty([BIN, 'init', 'proj'], {cwd: sb.cwd, env: sb.env})
    await s.waitForText('Default model (PROVIDER/MODEL')
    s.send('\x03')
    const status = await s.waitForExit()
    expect(status.exitCode).to.equal(1)
    expect(s.screenText()).to.include('Error: cancelled; no workspace was created')
    expect(existsSync(join(sb.cwd, 'proj', '.jp'))).to.equal(false)
  })
})

// When a configured provider lists its models (a local server speaking
// Ollama's `GET /api/tags`), init offers them in a list filtered as you
// type; Esc or "Type a model id…" falls back to the typed question.
describe('e2e: jp init offers the providers\' models', function () {
  this.timeout(30_000)
  let sb: Sandbox
  let ollama: ModelsServer
  let env: NodeJS.ProcessEnv
  beforeEach(async () => {
    sb = makeSandbox()
    ollama = await startModelsServer('ollama', ['llama3.2:latest', 'qwen2.5-coder:7b', 'evil\u001b[2Jmodel'])
    env = {...sb.env, OLLAMA_HOST: ollama.url}
  })
  afterEach(async () => {
    await ollama.close()
    sb.cleanup()
  })

  it('lists them (sanitized), filters as you type, and writes the one chosen', async () => {
    const s = await spawnPty([BIN, 'init', 'proj'], {cwd: sb.cwd, env})
    await s.waitForText('Default model (type to filter)')
    await s.waitForText('ollama/qwen2.5-coder:7b')
    expect(s.screenText()).to.include('Type a model id…')
    expect(s.output()).to.not.include('\u001b[2Jmodel')
    s.type('qwen')
    await s.waitFor(() => !s.screenText().includes('ollama/llama3.2:latest'), 'the list filtered')
    s.send('\r')
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')).to.include('id = "ollama/qwen2.5-coder:7b"')
    expect(ollama.requests.map((r) => r.path)).to.deep.equal(['/api/tags'])
  })

  it('typed ahead: the filter and Enter in one write choose the filtered model', async () => {
    const s = await spawnPty([BIN, 'init', 'proj'], {cwd: sb.cwd, env})
    await s.waitForText('ollama/qwen2.5-coder:7b')
    s.send('qwen\r')
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')).to.include('id = "ollama/qwen2.5-coder:7b"')
  })

  it('Esc asks for a typed id instead', async () => {
    const s = await spawnPty([BIN, 'init', 'proj'], {cwd: sb.cwd, env})
    await s.waitForText('ollama/llama3.2:latest')
    s.send('\u001b')
    await s.waitForText('Default model (PROVIDER/MODEL')
    s.type('openai/gpt-x')
    s.send('\r')
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    expect(readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')).to.include('id = "openai/gpt-x"')
  })
})
