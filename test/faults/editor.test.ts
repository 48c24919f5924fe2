// Fault suite, editor side (SPEC §1.6, §5): an editor killed with SIGKILL in
// the middle of an edit. A real script editor kills itself; nothing the user
// had is lost and no temp file survives.
import {expect} from 'chai'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {probeBackend, readProbe} from './probe.js'

describe('faults: an editor killed by SIGKILL mid-edit', function () {
  this.timeout(20_000)
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-fault-editor-'))
    mkdirSync(join(dir, 'tmp'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('editText reports cancelled, hands back the text, and leaves no temp file or directory', async () => {
    const record = join(dir, 'probe.log')
    const backend = probeBackend({PROBE_RECORD: record, PROBE_SIGNAL: 'KILL'}, join(dir, 'tmp'))
    const result = await backend.editText('the user typed this\n')
    expect(result.outcome).to.equal('cancelled')
    // The buffer survives: what the editor had on disk when it died.
    expect(result.text).to.equal('the user typed this\nedited by probe\n')
    const seen = readProbe(record)
    expect(seen.path, 'the editor ran on a temp file').to.match(/\.md$/)
    expect(existsSync(seen.path)).to.equal(false)
    expect(existsSync(dirname(seen.path))).to.equal(false)
    expect(readdirSync(join(dir, 'tmp'))).to.deep.equal([])
  })
})
