// Command-line input a newcomer types (issue 16): global flags before the
// command, and bad values that must be one-line errors rather than ignored.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {join} from 'node:path'

import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'

describe('command-line input', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})))
  afterEach(() => sb.cleanup())

  it('takes the global flags before the command as after it (-w, --format, -c, --cfg=)', async () => {
    const ws = join(sb.dir, 'elsewhere')
    expect((await runJp(['init', ws, '--yes'], {sandbox: sb})).code).to.equal(0)
    const q = await runJp(['-w', ws, 'query', 'hello there'], {sandbox: sb})
    expect(q.code, q.stderr).to.equal(0)
    expect(q.stdout).to.include('You said: hello there')

    const before = await runJp(['-w', ws, '--format', 'json', 'conversation', 'ls'], {sandbox: sb})
    const after = await runJp(['conversation', 'ls', '-w', ws, '--format', 'json'], {sandbox: sb})
    expect(before.code, before.stderr).to.equal(0)
    expect(before.stdout).to.equal(after.stdout)
    expect(JSON.parse(before.stdout.trim())).to.include({title: 'hello there', active: true})

    // A value taken from the flag before the command still reaches the config.
    const bad = await runJp(['--cfg=assistant.model.id=nosuch/model', '-w', ws, 'query', 'hi'], {sandbox: sb})
    expect(bad.code).to.equal(1)
    expect(bad.stderr).to.match(/^Error: .*nosuch/m)
    // Everything after `--` stays an argument.
    const dashes = await runJp(['-w', ws, 'query', '--', '-w is text'], {sandbox: sb})
    expect(dashes.code, dashes.stderr).to.equal(0)
    expect(dashes.stdout).to.include('You said: -w is text')
  })

  it('--id "" is a one-line error, not a silent continue of the active conversation', async () => {
    expect((await runJp(['query', 'first'], {sandbox: sb})).code).to.equal(0)
    for (const id of ['', '  ']) {
      const r = await runJp(['query', '--id', id, 'second'], {sandbox: sb})
      expect(r.code, JSON.stringify(id)).to.equal(1)
      expect(r.stdout).to.equal('')
      expect(r.stderr).to.equal("Error: --id: the conversation id is empty (see 'jp conversation ls')\n")
    }
  })
})
