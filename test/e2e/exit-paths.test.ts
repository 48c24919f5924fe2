// Exit codes on every path of `jp query` without a terminal (SPEC §17; the
// terminal paths are in ladder.test.ts and interrupt.test.ts): the real
// bin/run.js in its own session (no controlling terminal), a local server
// that streams slowly, real signals and a real `| head -n 1`. Every path
// ends with its documented code — never 13, Node's code for a top-level
// promise left unsettled — and keeps what arrived.
import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {ROOT} from '../helpers/cli.js'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {shQuote} from '../helpers/pty.js'
import {startSlowServer, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'

const lines = (n: number) => Array.from({length: n}, (_, i) => `line ${i}\n`)

/** The exit codes of the README's table ("| 129 / 143 | ..." is two). */
function readmeExitCodes(): number[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const table = /\| Exit \| When \|\n\|---\|---\|\n((?:\|.*\n)+)/.exec(readme)
  expect(table, 'the exit-code table').to.not.equal(null)
  return table![1].split('\n').filter(Boolean).flatMap((row) => /^\| ([\d /]+) \|/.exec(row)![1].split('/').map((c) => Number(c.trim())))
}

describe('e2e: exit codes on every path of jp query (no terminal)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: SlowServer

  beforeEach(async () => {
    server = await startSlowServer([{text: lines(200), intervalMs: 20}])
    sb = makeSandbox()
    const dir = join(sb.env.XDG_CONFIG_HOME!, 'jp')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'config.toml'), `[assistant.model]\nid = "llamacpp/x"\n[providers.llm.llamacpp]\nbase_url = "${server.baseUrl}"\n`)
  })
  afterEach(async () => {
    await server.close()
    sb.cleanup()
  })

  /** Runs `sh -c script` in a new session (no controlling terminal). */
  function sh(script: string) {
    const child = spawn('/bin/sh', ['-c', script], {cwd: sb.cwd, env: sb.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const exited = new Promise<number>((resolve) => child.on('close', (code, sig) => resolve(code ?? 128 + (sig === 'SIGKILL' ? 9 : 0))))
    return {child, exited, out: () => out, err: () => err}
  }

  const jp = `exec ${shQuote(process.execPath)} ${shQuote(BIN)} query 'count lines'`

  async function storedText(): Promise<string> {
    const store = new ConversationStore(await findWorkspace({cwd: sb.cwd, env: sb.env}), {env: sb.env})
    const id = await store.activeId()
    const events = (await store.load(id!)).events as Array<{type: string; message?: string}>
    return events.filter((e) => e.type === 'chat_response' && typeof e.message === 'string').map((e) => e.message!).join('')
  }

  async function until(predicate: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 1000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10))
    if (!predicate()) throw new Error(`timed out waiting for ${what}`)
  }

  it('the answer runs to its end: 0', async () => {
    server = await (async () => {
      await server.close()
      return startSlowServer([{text: lines(5), intervalMs: 5}])
    })()
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml'), `[assistant.model]\nid = "llamacpp/x"\n[providers.llm.llamacpp]\nbase_url = "${server.baseUrl}"\n`)
    const run = sh(jp)
    expect(await run.exited, run.err()).to.equal(0)
    expect(run.out()).to.equal(lines(5).join(''))
  })

  it('| head -n 1: the reader goes away — exit 141 (a producer cut off by SIGPIPE), quietly, the answer so far saved', async () => {
    const status = join(sb.dir, 'status')
    const run = sh(`{ ${jp.replace(/^exec /, '')} 2> ${shQuote(join(sb.dir, 'err'))}; echo $? > ${shQuote(status)}; } | head -n 1`)
    await run.exited
    await until(() => existsSync(status) && readFileSync(status, 'utf8').trim() !== '', 'jp to exit')
    expect(readFileSync(status, 'utf8').trim()).to.equal('141')
    expect(run.out()).to.equal('line 0\n')
    const err = readFileSync(join(sb.dir, 'err'), 'utf8')
    expect(err).not.to.match(/Error|EPIPE|at /)
    const stored = await storedText()
    expect(stored.startsWith('line 0\n')).to.equal(true)
    expect(stored.length).to.be.lessThan(lines(200).join('').length)
  })

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
  ] as const) {
    it(`${signal} while the answer streams: ${code}${signal === 'SIGQUIT' ? '' : ', the answer so far saved'}`, async () => {
      const run = sh(jp)
      await until(() => run.out().includes('line 3\n'), 'a few lines')
      process.kill(run.child.pid!, signal)
      expect(await run.exited, run.err()).to.equal(code)
      if (signal !== 'SIGQUIT') {
        const stored = await storedText()
        expect(stored.startsWith('line 0\nline 1\nline 2\nline 3\n')).to.equal(true)
        expect(stored.length).to.be.lessThan(lines(200).join('').length)
      }
    })
  }

  it('walks every exit code the README documents, each on a path that gives it', async () => {
    const signalled = (signal: NodeJS.Signals) => async () => {
      const run = sh(jp)
      await until(() => run.out().includes('line 1\n'), 'the answer to start')
      process.kill(run.child.pid!, signal)
      return run.exited
    }
    const paths: Record<number, () => Promise<number>> = {
      0: async () => sh(`${jp} > /dev/null`).exited,
      // Not a usage error: a model the config cannot resolve.
      1: async () => sh(`${jp.replace("query 'count lines'", "query -m nosuch/model 'count lines'")}`).exited,
      2: async () => sh(`${jp.replace("query 'count lines'", 'query --bogus')}`).exited,
      129: signalled('SIGHUP'),
      130: signalled('SIGINT'),
      131: signalled('SIGQUIT'),
      141: async () => {
        const status = join(sb.dir, 'status141')
        await sh(`{ ${jp.replace(/^exec /, '')} 2> /dev/null; echo $? > ${shQuote(status)}; } | head -n 1`).exited
        await until(() => existsSync(status) && readFileSync(status, 'utf8').trim() !== '', 'jp to exit')
        return Number(readFileSync(status, 'utf8'))
      },
      143: signalled('SIGTERM'),
    }
    const documented = readmeExitCodes()
    expect([...documented].sort((a, b) => a - b)).to.deep.equal(Object.keys(paths).map(Number))
    for (const code of documented) expect(await paths[code](), `exit ${code}`).to.equal(code)
  })
})
