// Fault suite: a really full disk. Where the test may mount (root, or
// CAP_SYS_ADMIN in a user namespace), jp runs in a private mount namespace
// (`unshare -m`) whose data dir is a tiny tmpfs holding a copy of the
// conversation and filled to the last byte: the kernel itself answers ENOSPC.
// The mount dies with the namespace; the real data dir underneath is untouched.
// (test/faults/storage.test.ts covers the same fault injected at the fs layer,
// which runs anywhere.)
import {expect} from 'chai'
import {spawn, spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {BIN, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {errLines, onlyConversation, storedEvents, useOpenAI} from './harness.js'

/** Whether this process may mount a tmpfs in a private mount namespace. */
function canMountTmpfs(): boolean {
  const dir = mkdtempSync('/tmp/jp-mount-probe-')
  try {
    const r = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs "$1"', 'probe', dir], {stdio: 'ignore'})
    return r.status === 0
  } catch {
    return false
  } finally {
    rmdirSync(dir)
  }
}

// Inside the namespace: mount, copy the data in, fill the disk (then free
// $FREE_KB of it), run jp with $QUERY, list the conversation with `jp
// conversation show`, and copy out what a test needs to see (the tmpfs
// vanishes with the namespace).
const SCRIPT = `
set -e
mount -t tmpfs -o size=256k tmpfs "$DATA"
cp -a "$SAVED/." "$DATA/"
dd if=/dev/zero of="$DATA/filler" bs=4096 2>/dev/null || true
[ "$FREE_KB" = 0 ] || truncate -s "-$FREE_KB"K "$DATA/filler"
set +e
"$NODE" "$BIN" query --cfg "$CFG" "$QUERY"
code=$?
cp "$DATA/$CONV/events.json" "$OUT/events-after.json"
ls -A "$DATA/$CONV" > "$OUT/listing-after"
"$NODE" "$BIN" conversation show > "$OUT/show" 2> "$OUT/show-err"
echo $? > "$OUT/show-code"
exit $code
`

/** Runs SCRIPT in a private mount namespace; resolves to its exit code and stderr. */
function inNamespace(env: NodeJS.ProcessEnv): Promise<{code: number | null; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-m', 'sh', '-c', SCRIPT], {env: {...env, NODE: process.execPath, BIN}, cwd: env.PWD_FOR_JP, stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stderr}))
  })
}

describe('faults: a real full disk (tmpfs in a private mount namespace)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  const mountable = canMountTmpfs()

  beforeEach(function () {
    if (!mountable) this.skip() // no rights to mount a tmpfs here; the fs-layer ENOSPC case still runs
    sb = makeSandbox()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb?.cleanup()
  })

  it('ENOSPC from the kernel: one error line, events.json byte-identical, no temp files; the next run (disk free) works', async () => {
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['space again'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const data = sb.env.JP_USER_DATA_DIR!
    const conv = relative(data, onlyConversation(sb))
    const before = readFileSync(join(data, conv, 'events.json'), 'utf8')
    const listing = readdirSync(join(data, conv)).sort()
    const saved = join(sb.dir, 'saved')
    const out = join(sb.dir, 'out')
    cpSync(data, saved, {recursive: true})
    mkdirSync(out)

    const r = await inNamespace({...sb.env, DATA: data, SAVED: saved, OUT: out, CONV: conv, CFG: cfg[1], FREE_KB: '0', QUERY: 'two', PWD_FOR_JP: sb.cwd})
    expect(r.code, r.stderr).to.equal(1)
    const lines = errLines(r.stderr)
    // (The lock file is the first write: the conversation is not even opened.)
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.match(/^Error: .*ENOSPC/)
    expect(readFileSync(join(out, 'events-after.json'), 'utf8')).to.equal(before)
    const after = readFileSync(join(out, 'listing-after'), 'utf8').split('\n').filter(Boolean).sort()
    expect(after.filter((n) => n !== '.lock'), 'no temp files left behind').to.deep.equal(listing)
    expect(server.requests).to.have.length(1)

    // Outside the namespace the disk has room again.
    const again = await runJp(['query', ...cfg, 'three'], {sandbox: sb})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stdout).to.equal('space again\n')
    expect(storedEvents(sb).filter((e) => e.type === 'chat_request').map((e) => e.content)).to.deep.equal(['one', 'three'])
  })

  it('a nearly full disk (a few kB free) and a 5 kB query: the turn is saved in the journal, the short events.json is never renamed into place, exit 0 with a warning (issue 28, finding 13)', async () => {
    server = await startReplayServer([{body: openaiText(['first'])}, {body: openaiText(['answer to the long one'])}])
    const cfg = useOpenAI(sb, server.url)
    expect((await runJp(['query', ...cfg, 'one'], {sandbox: sb})).code).to.equal(0)
    const data = sb.env.JP_USER_DATA_DIR!
    const conv = relative(data, onlyConversation(sb))
    const before = readFileSync(join(data, conv, 'events.json'), 'utf8')
    const saved = join(sb.dir, 'saved')
    const out = join(sb.dir, 'out')
    cpSync(data, saved, {recursive: true})
    mkdirSync(out)
    const long = `long ${'x'.repeat(5 * 1024)} end`

    const r = await inNamespace({...sb.env, DATA: data, SAVED: saved, OUT: out, CONV: conv, CFG: cfg[1], FREE_KB: '12', QUERY: long, PWD_FOR_JP: sb.cwd})
    // Saved (in events.log): exit 0, so a script that retries on failure does not ask twice.
    expect(r.code, r.stderr).to.equal(0)
    const lines = errLines(r.stderr)
    expect(lines, r.stderr).to.have.length(1)
    expect(lines[0]).to.match(new RegExp(`^⚠ the turn is saved in .*${conv.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/events\\.log, but it could not be folded into events\\.json: ENOSPC.*; the next run tries again$`))
    // events.json is never a cut-off copy: it is the old file, byte for byte ...
    expect(readFileSync(join(out, 'events-after.json'), 'utf8')).to.equal(before)
    const after = readFileSync(join(out, 'listing-after'), 'utf8').split('\n').filter(Boolean)
    expect(after.filter((n) => n.includes('.jp-tmp')), 'no temp files left behind').to.deep.equal([])
    // ... and the conversation still loads on that same full disk, with whatever was recorded.
    expect(readFileSync(join(out, 'show-code'), 'utf8').trim(), readFileSync(join(out, 'show-err'), 'utf8')).to.equal('0')
    const shown = readFileSync(join(out, 'show'), 'utf8')
    expect(shown).to.include('one')
    // The query and its answer were recorded (appended to events.log) before
    // folding them into events.json ran out of space: nothing is lost.
    expect(server.requests).to.have.length(2)
    expect(after).to.include('events.log')
    expect(shown).to.include(long)
    expect(shown).to.include('answer to the long one')
  })
})
