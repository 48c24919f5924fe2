// A terminal that hangs up while Node starts can still look like a terminal
// when Node asks what fd 1 is, and be gone when it opens it: Node then throws
// ERR_TTY_INIT_FAILED from process.stdout's getter (seen once in ~65 tmux
// kill-server runs, test/e2e/terminal-closed-tmux.test.ts). That is the
// hang-up arriving early: jp ends as the hang-up ends it (129), with no stack
// on stderr. The failing open is simulated by a --require seam (the race
// itself is microseconds wide).
import {expect} from 'chai'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'

const SEAM = join(ROOT, 'test', 'fixtures', 'terminal', 'stdout-hung-up.cjs')

describe('a terminal gone between Node\'s look at stdout and its opening', function () {
  this.timeout(60_000)
  let sb: Sandbox
  before(() => {
    sb = makeSandbox({JP_CFG_ASSISTANT_MODEL_ID: 'echo/default'})
  })
  after(() => sb?.cleanup())

  for (const args of [['query', '-n', 'hi'], ['conversation', 'ls']]) {
    it(`jp ${args.join(' ')}: exit 129, nothing on stderr`, async () => {
      const r = await runJp(args, {sandbox: sb, env: {NODE_OPTIONS: `--require ${SEAM}`}})
      expect(r.stderr).to.equal('')
      expect(r.code, r.stderr).to.equal(129)
    })
  }
})
