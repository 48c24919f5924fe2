// `jp conversation code` (SPEC §19 "Code and tables"): the raw text of a
// code block of the last answer, for a pipe. End to end through bin/run.js
// (build first).
import {expect} from 'chai'
import {after, afterEach, before, beforeEach, describe, it} from 'mocha'

import {copySandbox, initialisedSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {runScript} from '../helpers/markdown.js'
import {spawnPty} from '../helpers/pty.js'
import {BIN} from '../helpers/cli.js'

const OLD = 'Old answer:\n\n```sh\necho old\n```\n'
/** The last answer, stored in two events (as a stream is), then a tool call, then a second response. */
const ANSWER = ['Run this:\n\n```sh\necho "first"\n', 'printf \'%s\\n\' "tab\there"   \n```\n\nThen in a list:\n\n- item\n\n  ```python\n  print(1)\n  ```\n']
const AFTER_TOOL = 'And indented:\n\n    make all\n\nDone.'

function conversation(sb: Sandbox, answer = ANSWER, afterTool = AFTER_TOOL): void {
  const t = (s: number) => `2024-02-01T00:00:${String(s).padStart(2, '0')}Z`
  writeConversation(sb.cwd, 'jp-c300', {title: 'code'}, [
    {timestamp: t(0), type: 'turn_start'},
    {timestamp: t(1), type: 'chat_request', content: 'old'},
    {timestamp: t(2), type: 'chat_response', message: OLD},
    {timestamp: t(3), type: 'turn_start'},
    {timestamp: t(4), type: 'chat_request', content: 'how?'},
    {timestamp: t(5), type: 'chat_response', reasoning: '```js\nnot this\n```'},
    ...answer.map((message, k) => ({timestamp: t(6 + k), type: 'chat_response', message})),
    {timestamp: t(20), type: 'tool_call_request', id: 'c1', name: 'x', arguments: {}},
    {timestamp: t(21), type: 'tool_call_response', id: 'c1', content: '```\nnot this\n```', is_error: false},
    {timestamp: t(22), type: 'chat_response', message: afterTool},
  ])
}

describe('jp conversation code', function () {
  this.timeout(60_000)
  // One initialised workspace with jp-c300 active per file; each case gets its own copy.
  let template: Sandbox
  let sb: Sandbox
  before(async () => {
    template = await initialisedSandbox()
    conversation(template)
    const use = await runJp(['c', 'use', 'jp-c300'], {sandbox: template})
    expect(use.code, use.stderr).to.equal(0)
  })
  after(() => template.cleanup())
  beforeEach(() => (sb = copySandbox(template)))
  afterEach(() => sb.cleanup())

  it('prints the last block of the last answer, byte for byte, and nothing else: `jp c code | sh` runs it', async () => {
    const last = await runJp(['c', 'code'], {sandbox: sb})
    expect(last.code, last.stderr).to.equal(0)
    expect(last.stdout).to.equal('make all\n')
    expect(last.stderr).to.equal('')
    const first = await runJp(['conversation', 'code', '1'], {sandbox: sb})
    expect(first.stdout).to.equal('echo "first"\nprintf \'%s\\n\' "tab\there"   \n')
    const byId = await runJp(['conversation', 'code', 'jp-c300', '2'], {sandbox: sb})
    expect(byId.stdout).to.equal('print(1)\n')
    const sh = await runScript('jp c code 1 | sh', {sandbox: sb, cwd: sb.cwd})
    expect(sh.code, sh.stderr).to.equal(0)
    expect(sh.stdout).to.equal('first\ntab\there\n')
  })

  it('a block that is not there is one line on stderr and exit 1', async () => {
    const r = await runJp(['c', 'code', '4'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stdout).to.equal('')
    expect(r.stderr).to.equal('Error: no code block 4 in the last answer of jp-c300 (it has 3; see jp conversation code --list)\n')
    conversation(sb, ['No code here.'], 'Nor here.')
    const none = await runJp(['c', 'code'], {sandbox: sb})
    expect(none.code).to.equal(1)
    expect(none.stderr.trim().split('\n')).to.have.length(1)
    expect(none.stderr).to.include('has no code block')
    const bad = await runJp(['c', 'code', 'jp-c300', 'x'], {sandbox: sb})
    expect(bad.code).to.equal(2)
  })

  it('--list shows number, language and first line of each block', async () => {
    const r = await runJp(['c', 'code', '--list'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('1  sh      echo "first"\n2  python  print(1)\n3  -       make all\n')
  })

  it('--all prints every block, a blank line between them', async () => {
    const r = await runJp(['c', 'code', '--all'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('echo "first"\nprintf \'%s\\n\' "tab\there"   \n\nprint(1)\n\nmake all\n')
  })

  it('on a terminal, control characters of the model’s text are shown, not sent', async () => {
    conversation(sb, ['```sh\necho \u001b[31mred\n```\n'], 'Done.')
    const term = await spawnPty([BIN, 'c', 'code', '--list'], {cwd: sb.cwd, env: sb.env, cols: 80})
    try {
      await term.waitForExit(30_000)
      expect(term.screenText()).to.include('1  sh  echo \\u001b[31mred')
    } finally {
      term.dispose()
    }
    const piped = await runJp(['c', 'code'], {sandbox: sb})
    expect(piped.stdout).to.equal('echo \u001b[31mred\n')
  })
})
