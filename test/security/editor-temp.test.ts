// Security: the editor's temp files (SPEC §5, house rules) are 0600 in a
// 0700 directory while the editor runs — observed from inside a real script
// editor with stat — and are gone afterwards, whatever the editor did.
import {expect} from 'chai'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {probeBackend, readProbe} from '../faults/probe.js'

describe('security: editor temp files', function () {
  this.timeout(20_000)
  let dir: string
  let record: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-sec-editor-'))
    mkdirSync(join(dir, 'tmp'))
    record = join(dir, 'probe.log')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const cases: Array<[string, NodeJS.ProcessEnv, 'saved' | 'cancelled']> = [
    ['an editor that saves', {}, 'saved'],
    ['an editor that fails (exit 3)', {PROBE_EXIT: '3'}, 'cancelled'],
    ['an editor killed by SIGTERM', {PROBE_SIGNAL: 'TERM'}, 'cancelled'],
  ]
  for (const [name, env, outcome] of cases) {
    it(`${name}: file 0600 in a 0700 directory holding only it, both removed after`, async () => {
      const result = await probeBackend({PROBE_RECORD: record, ...env}, join(dir, 'tmp')).editText('secret draft\n')
      expect(result.outcome).to.equal(outcome)
      const seen = readProbe(record)
      expect(seen.file_mode).to.equal('600')
      expect(seen.dir_mode).to.equal('700')
      expect(seen.dir_entries).to.equal('1')
      expect(dirname(dirname(seen.path))).to.equal(join(dir, 'tmp'))
      expect(existsSync(seen.path)).to.equal(false)
      expect(existsSync(dirname(seen.path))).to.equal(false)
      expect(readdirSync(join(dir, 'tmp'))).to.deep.equal([])
    })
  }

  it('with the default temp dir (no override) the draft lives in a private directory under the OS temp dir, then is gone', async () => {
    const result = await probeBackend({PROBE_RECORD: record}).editText('x')
    expect(result).to.deep.equal({outcome: 'saved', text: 'xedited by probe\n'})
    const seen = readProbe(record)
    expect(dirname(dirname(seen.path))).to.equal(tmpdir())
    expect(seen.file_mode).to.equal('600')
    expect(seen.dir_mode).to.equal('700')
    expect(existsSync(dirname(seen.path))).to.equal(false)
  })
})
