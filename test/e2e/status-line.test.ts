// The printer-owned status line (SPEC §17 "Status line", JP RFD 091), end to
// end: bin/run.js in a real pty against a local OpenAI-format server that
// keeps the client waiting (keep-alive comments and an empty delta first),
// and a tool that takes its time.
import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {createServer, type Server} from 'node:http'
import {listenLocal} from '../helpers/local-server.js'
import {runJp} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {JpRun, type Redirect} from '../fixtures/e2e/interrupt-run.js'
import {ROOT} from '../helpers/cli.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {findWorkspace} from '../../src/lib/conversation/workspace.js'

const HOLDER = join(ROOT, 'test/conversation/fixtures/store-child.ts')

const STATUS = /⏱ Waiting… (\d+\.\d)s/

interface WaitingServer {
  baseUrl: string
  close(): Promise<void>
}

/**
 * Answers each request in turn from `bodies`; the first waits `waitMs`
 * (sending an SSE comment every 200 ms and an empty content delta) before
 * its first token.
 */
async function startWaitingServer(bodies: string[], waitMs: number): Promise<WaitingServer> {
  let n = 0
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', async () => {
      const body = bodies[Math.min(n++, bodies.length - 1)]
      res.writeHead(200, {'content-type': 'text/event-stream'})
      if (n === 1) {
        res.write(`data: ${JSON.stringify({id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{index: 0, delta: {role: 'assistant', content: ''}, finish_reason: null}]})}\n\n`)
        const end = Date.now() + waitMs
        while (Date.now() < end && !res.destroyed) {
          res.write(': keep-alive\n\n')
          await new Promise((r) => setTimeout(r, 200))
        }
      }
      res.end(body)
    })
  })
  const {baseUrl, close} = await listenLocal(server)
  return {baseUrl, close}
}

describe('e2e: the status line while waiting', function () {
  this.timeout(60_000)
  let server: WaitingServer | undefined
  let run: JpRun | undefined

  afterEach(async () => {
    run?.dispose()
    run = undefined
    await server?.close()
    server = undefined
  })

  async function start(redirect: Redirect, toml = '', args: string[] = []): Promise<JpRun> {
    run = new JpRun({baseUrl: server!.baseUrl, redirect, toml, args})
    return run.start('hi')
  }

  const statusOnScreen = (r: JpRun) => STATUS.exec(r.term.screenText())?.[1]

  it('ticks on the terminal until the first token, survives keep-alives and empty deltas, and is gone once the text starts', async () => {
    server = await startWaitingServer([openaiText(['the answer'])], 1800)
    const r = await start('tty')
    await r.term.waitFor(() => statusOnScreen(r) !== undefined, 'the status line')
    const first = statusOnScreen(r)!
    // Several keep-alive comments later it is still there, and has ticked.
    await new Promise((res) => setTimeout(res, 700))
    const later = statusOnScreen(r)
    expect(later, r.term.screenText()).not.to.equal(undefined)
    expect(Number(later)).to.be.greaterThan(Number(first))
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    const screen = r.term.screenText()
    expect(screen).to.include('the answer')
    expect(screen).not.to.include('⏱')
  })

  it('on a terminal narrower than the line it is clipped, not wrapped: one row, however many ticks', async () => {
    server = await startWaitingServer([openaiText(['ok'])], 1500)
    run = new JpRun({baseUrl: server.baseUrl, cols: 12})
    const r = await run.start('hi')
    await r.term.waitForText('⏱')
    await new Promise((res) => setTimeout(res, 800)) // eight ticks
    const rows = r.term.screen().filter((l) => l.includes('⏱') || /\d\.\ds/.test(l))
    expect(rows, r.term.screenText()).to.have.length(1)
    expect((await r.finish()).code, r.term.screenText()).to.equal(0)
  })

  it('stays off the screen while the user\'s editor has the terminal (a reply composed with Ctrl+X while waiting)', async () => {
    server = await startWaitingServer([openaiText(['first']), openaiText(['after the reply'])], 20_000)
    const editor = join(ROOT, 'test/fixtures/e2e/gated-editor.sh')
    run = new JpRun({baseUrl: server.baseUrl, env: {JP_EDITOR: editor}})
    run.sb.env.EDITOR_GATE = run.sb.dir
    const r = await run.start('hi')
    await r.term.waitFor(() => statusOnScreen(r) !== undefined, 'the status line')
    r.term.send('\x03')
    await r.term.waitForText('[c,r,q,s,a,?]')
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.send('\x18')
    const started = r.file('editor-started')
    await r.poll(() => existsSync(started), 'the editor to start')
    r.term.markOutput()
    await new Promise((res) => setTimeout(res, 700)) // seven ticks of the status line
    expect(r.term.outputSinceMark()).not.to.include('⏱')
    writeFileSync(r.file('editor-go'), '')
    // The editor's text comes back to the prompt, which sends it on Enter.
    await r.term.waitForText('Reply: from the gated editor')
    r.term.send('\r')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(r.term.screenText()).to.include('after the reply')
  })

  for (const redirect of ['files', 'pipe'] as const) {
    it(`${redirect === 'files' ? '> out 2> err' : '2> err | cat > out'}: shown on the terminal only, never in stdout or the redirected stderr`, async () => {
      server = await startWaitingServer([openaiText(['piped answer'])], 900)
      const r = await start(redirect)
      await r.term.waitFor(() => statusOnScreen(r) !== undefined, 'the status line on the terminal')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(res.stdout).to.equal('piped answer\n')
      expect(readFileSync(r.file('err'), 'utf8')).not.to.include('⏱')
      expect(readFileSync(r.file('err'), 'utf8')).not.to.include('\x1b[2K')
    })
  }

  it('never appears without a terminal', async () => {
    server = await startWaitingServer([openaiText(['plain'])], 600)
    run = new JpRun({baseUrl: server.baseUrl})
    const res = await runJp(['query', 'hi'], {sandbox: run.sb})
    expect(res.code, res.stderr).to.equal(0)
    expect(res.stdout).to.equal('plain\n')
    expect(res.stderr).not.to.include('⏱')
    expect(res.stderr + res.stdout).not.to.include('\x1b[2K')
  })

  it('a timer while a tool runs, cleared when it is done', async () => {
    server = await startWaitingServer([openaiToolCall('call_1', 'nap', {}), openaiText(['rested'])], 0)
    const r = await start('tty', '[conversation.tools.nap]\ncommand = "sleep 1.5"\nsummary = "Nap"\nrun = "unattended"\n', ['-t', 'nap'])
    await r.term.waitFor(() => /⏱ Running nap… \d+\.\ds/.test(r.term.screenText()), 'the tool timer')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(r.term.screenText()).to.include('rested')
    expect(r.term.screenText()).not.to.include('⏱')
  })

  it('a countdown while another jp holds the conversation, cleared once the lock is ours', async () => {
    server = await startWaitingServer([openaiText(['first']), openaiText(['second'])], 0)
    run = new JpRun({baseUrl: server.baseUrl})
    const sb = run.sb
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    expect((await runJp(['query', 'one'], {sandbox: sb})).code).to.equal(0)
    const id = (await new ConversationStore(await findWorkspace({cwd: sb.cwd, env: sb.env}), {env: sb.env}).activeId())!
    const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER, 'hold', sb.cwd, id], {cwd: ROOT, env: sb.env, stdio: ['pipe', 'pipe', 'inherit']})
    try {
      await new Promise<void>((resolve) => holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()))
      const r = await run.start('two')
      await r.term.waitFor(() => /⏱ Conversation in use by another jp, waiting… \d+\.\ds \(\d+\.\ds left\)/.test(r.term.screenText()), 'the lock countdown')
      holder.stdin.write('release\n')
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(r.term.screenText()).to.include('second')
      expect(r.term.screenText()).not.to.include('⏱')
    } finally {
      holder.kill()
    }
  })
})
