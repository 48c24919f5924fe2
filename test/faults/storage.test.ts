// Fault suite, storage side (SPEC §10): corrupt files, a read-only
// conversation, a full disk, two jp processes on one conversation, and jp
// killed mid-stream. Real jp processes, real files, a real local server.
import {expect} from 'chai'
import {chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {requireProgram} from '../helpers/programs.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {loadEvents} from '../../src/lib/conversation/journal.js'
import {startSlowServer} from '../fixtures/e2e/slow-server.js'
import {
  conversationsDir,
  errLines,
  FAULT_FIXTURES,
  type GatedServer,
  onlyConversation,
  runJpWith,
  startGatedServer,
  startJp,
  storedEvents,
  useOpenAI,
} from './harness.js'

type Message = {role: string; content: string}
const messagesOf = (body: string) => (JSON.parse(body) as {messages: Message[]}).messages.map((m) => [m.role, m.content])

describe('faults: storage, locking and killed processes', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let gated: GatedServer | undefined

  beforeEach(() => {
    sb = makeSandbox()
  })
  afterEach(async () => {
    await server?.close()
    await gated?.close()
    server = undefined
    gated = undefined
    sb.cleanup()
  })

  it('a corrupt events.json is reported with its path, left byte-identical, exit 1; a new conversation still works', async () => {
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['fresh start'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const events = join(onlyConversation(sb), 'events.json')
    const corrupt = '[\n  {"type": "turn_start", "timestamp": \n'
    writeFileSync(events, corrupt)

    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb})
    expect(r.code).to.equal(1)
    const lines = errLines(r.stderr)
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.match(/^Error: /)
    expect(lines[0]).to.include(events)
    expect(readFileSync(events, 'utf8')).to.equal(corrupt)
    expect(server.requests).to.have.length(1)

    const fresh = await runJp(['query', ...cfg, '-n', 'three'], {sandbox: sb})
    expect(fresh.code, fresh.stderr).to.equal(0)
    expect(fresh.stdout).to.equal('fresh start\n')
    expect(readFileSync(events, 'utf8')).to.equal(corrupt)
  })

  describe('a read-only conversation directory', () => {
    // chmod does not stop root, and these tests often run as root: then the
    // jp processes run as `nobody` through setpriv, on a sandbox they own.
    const root = process.getuid?.() === 0
    const NOBODY = 65534
    const prefix = root ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'] : []

    function chownTree(dir: string): void {
      chownSync(dir, NOBODY, NOBODY)
      for (const e of readdirSync(dir, {withFileTypes: true})) {
        const p = join(dir, e.name)
        if (e.isDirectory()) chownTree(p)
        else chownSync(p, NOBODY, NOBODY)
      }
    }

    it('fails with one line naming the path, changes nothing, and works again once writable', async function () {
      if (root) requireProgram(this, 'setpriv', 'util-linux') // root ignores chmod: setpriv drops privileges
      server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['writable again'])}])
      const cfg = useOpenAI(sb, server.url)
      if (root) chownTree(sb.dir)
      const first = await runJpWith(['query', ...cfg, 'one'], {sandbox: sb, prefix})
      expect(first.code, first.stderr).to.equal(0)
      const dir = onlyConversation(sb)
      const before = readFileSync(join(dir, 'events.json'), 'utf8')
      chmodSync(dir, 0o555)
      try {
        const r = await runJpWith(['query', ...cfg, 'two'], {sandbox: sb, prefix})
        expect(r.code).to.equal(1)
        const lines = errLines(r.stderr)
        expect(lines, r.stderr).to.have.length(1)
        expect(lines[0]).to.match(/^Error: .*(EACCES|permission denied)/i)
        expect(lines[0]).to.include(dir)
        expect(readFileSync(join(dir, 'events.json'), 'utf8')).to.equal(before)
        expect(server.requests).to.have.length(1)
      } finally {
        chmodSync(dir, 0o755)
      }
      const again = await runJpWith(['query', ...cfg, 'three'], {sandbox: sb, prefix})
      expect(again.code, again.stderr).to.equal(0)
      expect(again.stdout).to.equal('writable again\n')
    })
  })

  it('a full disk (ENOSPC injected at the fs layer): one error line, events.json unchanged, no temp files; the next run works', async () => {
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['space again'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const dir = onlyConversation(sb)
    const events = join(dir, 'events.json')
    const before = readFileSync(events, 'utf8')
    const listing = readdirSync(dir).sort()

    const hook = pathToFileURL(join(FAULT_FIXTURES, 'enospc.mjs')).href
    const env = {NODE_OPTIONS: `--import=${hook}`, JP_FAULT_ENOSPC: 'events\\.(json|log)'}
    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb, env})
    expect(r.code).to.equal(1)
    const errors = errLines(r.stderr).filter((l) => !/ExperimentalWarning|--trace-warnings/.test(l))
    expect(errors, r.stderr).to.have.length(2)
    expect(errors[0]).to.match(/^Error: cannot write .*events\.(json|log): ENOSPC.*unchanged/)
    expect(errors[1]).to.match(/^Nothing after the failed write was saved; /)
    // The turn could not even be recorded, so nothing was sent.
    expect(server.requests).to.have.length(1)
    expect(readFileSync(events, 'utf8')).to.equal(before)
    expect(readdirSync(dir).sort()).to.deep.equal(listing)

    const again = await runJp(['query', ...cfg, 'three'], {sandbox: sb})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stdout).to.equal('space again\n')
    const last = server.requests.at(-1)!
    expect(messagesOf(last.body)[0]).to.deep.equal(['user', 'one'])
    expect(storedEvents(sb).filter((e) => e.type === 'chat_request').map((e) => e.content)).to.include.members(['one', 'three'])
  })

  describe('two jp processes on one conversation', () => {
    /** The first request streams "A: " and waits for `gate`; later requests answer at once. */
    async function gatedAnswers(gate: Promise<void>): Promise<GatedServer> {
      const first = openaiText(['A: ', 'done'])
      const split = first.lastIndexOf('data: {', first.indexOf('"done"'))
      return startGatedServer(async (n, _req, res) => {
        res.writeHead(200, {'content-type': 'text/event-stream'})
        if (n === 1) {
          res.write(first.slice(0, split))
          await gate
          res.end(first.slice(split))
        } else res.end(openaiText([`answer ${n}`]))
      })
    }

    it('the second waits for the lock, then fails naming the conversation; the file stays valid and the next run works', async () => {
      let open!: () => void
      gated = await gatedAnswers(new Promise<void>((r) => (open = r)))
      const cfg = useOpenAI(sb, gated.url)
      const a = startJp(['query', ...cfg, 'from A'], {sandbox: sb})
      try {
        await a.waitForStdout('A: ')
        const id = onlyConversation(sb).split('/').at(-1)!
        const metadata = join(onlyConversation(sb), 'metadata.json')
        const metaBefore = {text: readFileSync(metadata, 'utf8'), mtimeMs: statSync(metadata).mtimeMs}
        const b = await runJp(['query', ...cfg, 'from B'], {sandbox: sb})
        expect(b.code).to.equal(1)
        // The loser wrote nothing of the conversation (last_activated_at included).
        expect({text: readFileSync(metadata, 'utf8'), mtimeMs: statSync(metadata).mtimeMs}).to.deep.equal(metaBefore)
        const lines = errLines(b.stderr)
        expect(lines, b.stderr).to.have.length(1)
        expect(lines[0]).to.equal(
          `Error: conversation ${id} is in use by another jp process (pid ${a.child.pid}); wait for it to finish or pick another conversation`,
        )
      } finally {
        open()
      }
      const ra = await a.done
      expect(ra.code, a.stderr()).to.equal(0)
      expect(a.stdout()).to.equal('A: done\n')
      expect(gated.requests).to.equal(1)
      const events = storedEvents(sb)
      expect(events.filter((e) => e.type === 'chat_request').map((e) => e.content)).to.deep.equal(['from A'])
      const c = await runJp(['query', ...cfg, 'from C'], {sandbox: sb})
      expect(c.code, c.stderr).to.equal(0)
      expect(storedEvents(sb).filter((e) => e.type === 'chat_request').map((e) => e.content)).to.deep.equal(['from A', 'from C'])
    })

    it('when the first finishes within the wait, both succeed one after the other and both exchanges are stored', async () => {
      let open!: () => void
      gated = await gatedAnswers(new Promise<void>((r) => (open = r)))
      const cfg = useOpenAI(sb, gated.url)
      const a = startJp(['query', ...cfg, 'from A'], {sandbox: sb})
      await a.waitForStdout('A: ')
      const b = startJp(['query', ...cfg, 'from B'], {sandbox: sb})
      // B is started while A holds the lock; A is let go shortly after.
      setTimeout(open, 300)
      const [ra, rb] = await Promise.all([a.done, b.done])
      expect(ra.code, a.stderr()).to.equal(0)
      expect(rb.code, b.stderr()).to.equal(0)
      expect(b.stdout()).to.equal('answer 2\n')
      const events = storedEvents(sb)
      expect(events.filter((e) => e.type === 'chat_request').map((e) => e.content)).to.deep.equal(['from A', 'from B'])
      expect(events.filter((e) => e.type === 'chat_response').map((e) => e.message)).to.deep.equal(['A: done', 'answer 2'])
    })
  })

  it('jp killed with SIGKILL mid-stream: the answer so far is stored (at most a second lost), the stale lock is taken over', async () => {
    const partial = openaiText(['streaming when killed'])
    server = await startReplayServer([
      {body: partial.slice(0, partial.lastIndexOf('data: {', partial.indexOf('"stop"'))), hold: true},
      {body: openaiText(['after the crash'])},
    ])
    const cfg = useOpenAI(sb, server.url)
    const a = startJp(['query', ...cfg, 'one'], {sandbox: sb})
    await a.waitForStdout('streaming when killed')
    // The stream is still open; the text arrived over a second ago when jp dies.
    await new Promise((r) => setTimeout(r, 1500))
    process.kill(a.child.pid!, 'SIGKILL')
    expect((await a.done).signal).to.equal('SIGKILL')
    const dir = onlyConversation(sb)
    const lock = join(dir, '.lock')
    expect(existsSync(lock), 'the killed jp left its lock behind').to.equal(true)
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).to.equal(a.child.pid)

    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('after the crash\n')
    expect(existsSync(lock)).to.equal(false)
    expect(messagesOf(server.requests[1].body)).to.deep.equal([
      ['user', 'one'],
      ['assistant', 'streaming when killed'],
      ['user', 'two'],
    ])
    const shown = await runJp(['conversation', 'show'], {sandbox: sb})
    expect(shown.code, shown.stderr).to.equal(0)
    expect(storedEvents(sb).filter((e) => e.type === 'chat_request').map((e) => e.content)).to.deep.equal(['one', 'two'])
    expect(readdirSync(conversationsDir(sb)).filter((n) => n.startsWith('jp-c'))).to.have.length(1)
  })
  it('jp killed with SIGKILL after several seconds of streaming: every appended second is stored, exactly', async () => {
    const pieces = Array.from({length: 30}, (_, i) => `"w${i}" naïve — \\ 😀 line\n`)
    const slow = await startSlowServer([{text: pieces, intervalMs: 250}])
    try {
      const cfg = useOpenAI(sb, slow.baseUrl.replace(/\/v1$/, ''))
      const a = startJp(['query', ...cfg, 'one'], {sandbox: sb})
      await a.waitForStdout('"w12"')
      // w12 arrived 3 s in: written by the first write and two appends; 1.5 s later, w12 is on disk.
      await new Promise((r) => setTimeout(r, 1500))
      process.kill(a.child.pid!, 'SIGKILL')
      expect((await a.done).signal).to.equal('SIGKILL')
      const dir = onlyConversation(sb)
      const log = readFileSync(join(dir, 'events.log'), 'utf8')
      expect(log.split('\n').filter((l) => l.includes('"append"')).length, 'appended as the answer streamed').to.be.at.least(2)
      const {events} = await loadEvents(join(dir, 'events.json'), join(dir, 'events.log'))
      const message = (events.find((e) => e.type === 'chat_response') as {message: string}).message
      const shown = pieces.slice(0, 13).join('')
      expect(message.startsWith(shown), `stored: ${JSON.stringify(message.slice(-80))}`).to.equal(true)
      expect(pieces.join('').startsWith(message), 'nothing but what streamed, in order').to.equal(true)
    } finally {
      await slow.close()
    }
  })

  it('a .lock that is a directory fails at once with one line naming it (no spin); the conversation is untouched', async () => {
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['never sent'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const dir = onlyConversation(sb)
    const lock = join(dir, '.lock')
    mkdirSync(join(lock, 'inside'), {recursive: true})
    const before = Object.fromEntries(['events.json', 'metadata.json'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]))
    const r = await runJp(['query', ...cfg, 'two'], {sandbox: sb, timeoutMs: 15_000})
    expect(r.signal, 'jp had to be killed: it spun on the lock').to.equal(null)
    expect(r.code).to.equal(1)
    const lines = errLines(r.stderr)
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.equal(`Error: cannot lock ${lock}: it exists and is not a lock file (a directory?); remove it`)
    expect(server.requests).to.have.length(1)
    for (const [f, text] of Object.entries(before)) expect(readFileSync(join(dir, f), 'utf8'), f).to.equal(text)
  })

  it('conversation files are 0600 and their directories 0700 (they hold private chats)', async () => {
    server = await startReplayServer([{body: openaiText(['private'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const dir = onlyConversation(sb)
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8)
    expect(mode(conversationsDir(sb)), 'conversations/').to.equal('700')
    expect(mode(dir), 'the conversation directory').to.equal('700')
    const files = readdirSync(dir)
    expect(files).to.include.members(['events.json', 'metadata.json', 'base_config.json'])
    for (const f of files) expect(mode(join(dir, f)), f).to.equal('600')
  })
})
