// Issue 42, finding 4: jp follows no symbolic link where it keeps its own
// files in the user data dir (drafts, the trust store). A link planted at
// one of them (a shared machine, a dotfiles repository, a restored backup)
// must not make jp read its target as jp's own file nor write through it:
// one line names the link, the target stays byte-identical.
//
// The files come from one list (PRIVATE_FILES). A session that touches the
// ways jp writes there (a failed query keeps its draft, `jp trust`) then
// checks that every file found under the data dir is on the list, so a new
// file jp starts writing cannot be missed by this test.
import {expect} from 'chai'
import {createServer} from 'node:http'
import {lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {basename, join, relative} from 'node:path'
import {makeSandbox, runJp, snapshotSandbox, type Sandbox} from '../helpers/cli.js'
import {listenLocal, type LocalServer} from '../helpers/local-server.js'

const VICTIM = 'VICTIM'

/** A provider that refuses every request (400: not retried), so a query fails and keeps its draft. */
async function refusingProvider(): Promise<LocalServer> {
  return listenLocal(
    createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(400, {'content-type': 'application/json'})
        res.end('{"error":{"message":"no","type":"invalid_request_error"}}')
      })
    }),
  )
}

interface PrivateFile {
  /** The file's name as it appears under the user data dir. */
  name: string
  /** Runs jp so that it reads and writes that file. */
  touch(sb: Sandbox, server: LocalServer): Promise<{code: number | null; stderr: string}>
}

function failingQuery(text: string) {
  return (sb: Sandbox, server: LocalServer) =>
    runJp(['query', '-c', 'assistant.model.id=llamacpp/x', '-c', `providers.llm.llamacpp.base_url=${server.baseUrl}`, text], {sandbox: sb})
}

/** Every file jp writes under the user data dir, with a run that writes it. */
const PRIVATE_FILES: PrivateFile[] = [
  {name: 'QUERY_MESSAGE.md', touch: failingQuery('second-failed')},
  {name: 'trusted_workspaces.json', touch: (sb) => runJp(['trust'], {sandbox: sb})},
]

function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    let names: string[]
    try {
      names = readdirSync(d)
    } catch {
      return
    }
    for (const n of names) {
      const p = join(d, n)
      if (lstatSync(p).isDirectory()) walk(p)
      else out.push(p)
    }
  }
  walk(dir)
  return out
}

describe('security: no symlink is followed in the user data dir (issue 42)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: LocalServer
  let dataDir: string

  // The conversation is made once per file, and put back before each case.
  let kept: ReturnType<typeof snapshotSandbox>
  before(async () => {
    sb = makeSandbox()
    mkdirSync(join(sb.cwd, '.jp'), {recursive: true})
    // A conversation exists (the draft of a failed query is kept under its id).
    const first = await runJp(['query', '-n', 'first'], {sandbox: sb})
    expect(first.code, first.stderr).to.equal(0)
    kept = snapshotSandbox(sb)
  })
  after(() => kept.cleanup())
  beforeEach(async () => {
    kept.reset()
    server = await refusingProvider()
    dataDir = sb.env.JP_USER_DATA_DIR!
  })
  afterEach(() => server.close())

  it('every file jp writes there is on the list (a new one must be added to PRIVATE_FILES)', async () => {
    for (const f of PRIVATE_FILES) await f.touch(sb, server)
    const names = new Set(filesUnder(dataDir).map((p) => basename(p)))
    expect(names.size, 'the session wrote nothing: the list would check nothing').to.be.greaterThan(0)
    for (const n of names) expect(PRIVATE_FILES.map((f) => f.name), `${relative(dataDir, join(dataDir, n))} is written by jp but not on the list`).to.include(n)
  })

  for (const file of PRIVATE_FILES) {
    it(`${file.name} linked to a file of yours: refused with one line naming it, the file untouched`, async () => {
      // Make jp create the real file first, to learn where it lives.
      await file.touch(sb, server)
      const real = filesUnder(dataDir).find((p) => basename(p) === file.name)
      expect(real, `${file.name} was not written`).to.be.a('string')
      const victim = join(sb.home, 'victim.txt')
      writeFileSync(victim, VICTIM)
      rmSync(real!)
      symlinkSync(victim, real!)
      const r = await file.touch(sb, server)
      expect(r.code, r.stderr).to.equal(1)
      const lines = r.stderr.split('\n').filter((l) => l.includes(real!))
      expect(lines, r.stderr).to.have.length(1)
      expect(lines[0]).to.include('symbolic link').and.not.include('inside .jp/')
      expect(readFileSync(victim, 'utf8')).to.equal(VICTIM)
      expect(lstatSync(real!).isSymbolicLink()).to.equal(true)
    })
  }
})

describe('security: the typed drafts (INLINE_QUERY.txt, INLINE_REPLY.txt) follow no link (issue 42)', () => {
  it('a link planted at the draft is neither read nor written through; the write replaces the link', async () => {
    const {TypedDraft, INLINE_QUERY_FILE} = await import('../../src/lib/compose/typed-draft.js')
    const sb = makeSandbox()
    try {
      const victim = join(sb.home, 'victim.txt')
      writeFileSync(victim, VICTIM)
      const dir = join(sb.env.JP_USER_DATA_DIR!, 'workspaces', 'w', 'conversations', 'c')
      mkdirSync(dir, {recursive: true})
      const path = join(dir, INLINE_QUERY_FILE)
      symlinkSync(victim, path)
      const draft = new TypedDraft(path)
      expect(draft.read()).to.equal(undefined)
      draft.update('typed')
      draft.flush()
      expect(readFileSync(victim, 'utf8')).to.equal(VICTIM)
      expect(lstatSync(path).isSymbolicLink()).to.equal(false)
      expect(readFileSync(path, 'utf8')).to.equal('typed')
    } finally {
      sb.cleanup()
    }
  })
})
