// Issue 26 finding 9: every flag is checked before an editor opens, `--id`
// does not change the active conversation, and `jp init --model` writes a
// config.toml that loads. `jp query` runs as a real process (it reads piped
// stdin); `jp init` in-process.
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

describe('jp query and jp init: flags checked first (finding 9)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let record: string
  beforeEach(() => {
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    record = join(sb.dir, 'editor-ran')
  })
  afterEach(() => sb.cleanup())
  const editorEnv = () => ({EDITOR: join(ROOT, 'test/fixtures/editors/record.sh'), EDITOR_RECORD: record})

  for (const [flags, named] of [
    [['-T', 'nosuch'], "'nosuch'"],
    [['-t', 'nosuch'], "'nosuch'"],
    [['-m', 'nosuch/model'], 'nosuch'],
    [['-m', 'anthropic/claude-x'], 'ANTHROPIC_API_KEY'],
  ] as const) {
    it(`jp query -e ${flags.join(' ')} "x" fails before the editor opens, naming ${named}`, async () => {
      const r = await runJp(['query', '-e', ...flags, 'x'], {sandbox: sb, env: editorEnv()})
      expect(r.code, r.stderr).to.equal(1)
      expect(r.stderr.trimEnd().split('\n').filter((l) => l.startsWith('Error:'))).to.have.length(1)
      expect(r.stderr).to.include(named)
      expect(existsSync(record), 'the editor ran').to.equal(false)
    })
  }

  it('the same query with good flags does open the editor (the check above can fail)', async () => {
    const r = await runJp(['query', '-e', '-m', 'echo/default', 'x'], {sandbox: sb, env: editorEnv()})
    expect(r.code, r.stderr).to.equal(0)
    expect(existsSync(record)).to.equal(true)
  })

  it('--id ID continues ID and leaves the active conversation as it was', async () => {
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    expect((await runJp(['query', '-n', 'first'], {sandbox: sb})).code).to.equal(0)
    const first = (await runJp(['conversation', 'path'], {sandbox: sb})).stdout.trim().split('/').at(-1)!
    expect((await runJp(['query', '-n', 'second'], {sandbox: sb})).code).to.equal(0)
    const active = () => readFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'utf8').trim()
    const second = active()
    expect(second).to.not.equal(first)
    const r = await runJp(['query', '--id', first, 'back to the first'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(active()).to.equal(second)
    const shown = await runJp(['conversation', 'show', first], {sandbox: sb})
    expect(shown.stdout).to.include('back to the first')
  })

  it('jp init --model writes the id as TOML that loads back to the same id', async () => {
    const id = 'openai/a"b\\c'
    const r = await runInProcess(['init', 'proj', '--yes', '--model', id], {sandbox: sb})
    expect(r.exitCode, r.stderr).to.equal(0)
    const got = await runInProcess(['config', 'get', 'assistant.model.id'], {sandbox: sb, cwd: join(sb.cwd, 'proj')})
    expect(got).to.deep.include({exitCode: 0, stdout: `${id}\n`})
  })

  it('jp init --model with a control character is refused before anything is made', async () => {
    const r = await runInProcess(['init', 'proj', '--yes', '--model', 'openai/a\u007fb'], {sandbox: sb})
    expect(r.exitCode).to.equal(1)
    expect(r.stderr).to.equal('Error: --model openai/a\\u007fb: expected PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5\n')
    expect(existsSync(join(sb.cwd, 'proj'))).to.equal(false)
  })
})
