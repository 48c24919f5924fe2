// `jp conversation grep` end to end through bin/run.js (pipe), plus the
// highlighting on a real terminal (pty).
import {expect} from 'chai'
import {after, afterEach, before, beforeEach, describe, it} from 'mocha'
import {BIN, copySandbox, initialisedSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {spawnPty} from '../helpers/pty.js'

const t = (s: number) => `2024-03-01T00:00:${String(s).padStart(2, '0')}Z`

function seed(root: string): void {
  writeConversation(root, 'jp-c100', {title: 'Regex trouble', created_at: '2024-01-01T00:00:00Z'}, [
    {timestamp: t(0), type: 'turn_start'},
    {timestamp: t(1), type: 'chat_request', content: 'why does my regex fail?\nit is /a+b/'},
    {timestamp: t(2), type: 'chat_response', message: 'The REGEX needs an anchor.'},
    {timestamp: t(3), type: 'turn_start'},
    {timestamp: t(4), type: 'chat_request', content: 'run the tests'},
    {timestamp: t(5), type: 'tool_call_request', id: 'c1', name: 'run_tests', arguments: {pattern: 'regex'}},
    {timestamp: t(6), type: 'tool_call_response', id: 'c1', content: 'ok 3 regex tests', is_error: false},
  ])
  writeConversation(root, 'jp-c200', {title: 'Newer \u001b]0;pwned\u0007 chat', created_at: '2024-02-01T00:00:00Z'}, [
    {timestamp: t(0), type: 'turn_start'},
    {timestamp: t(1), type: 'chat_request', content: 'a regex \u001b[2J question'},
    {timestamp: t(2), type: 'chat_response', message: 'unrelated'},
  ])
  writeConversation(root, 'jp-c300', {title: 'Nothing here', created_at: '2024-03-01T00:00:00Z'}, [
    {timestamp: t(0), type: 'turn_start'},
    {timestamp: t(1), type: 'chat_request', content: 'hello'},
  ])
}

describe('jp conversation grep', function () {
  this.timeout(60_000)
  // One initialised, seeded workspace per file; each case gets its own copy.
  let template: Sandbox
  let sb: Sandbox
  before(async () => {
    template = await initialisedSandbox()
    seed(template.cwd)
  })
  after(() => template.cleanup())
  beforeEach(() => (sb = copySandbox(template)))
  afterEach(() => sb.cleanup())

  it('prints ID  TITLE, then each matching line with its turn and role, newest conversation first (pipe: raw text)', async () => {
    const r = await runJp(['conversation', 'grep', 'regex'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(
      [
        'jp-c200  Newer \u001b]0;pwned\u0007 chat',
        '  1 user: a regex \u001b[2J question',
        '',
        'jp-c100  Regex trouble',
        '  1 user: why does my regex fail?',
        '  2 tool: run_tests {"pattern":"regex"}',
        '  2 tool: ok 3 regex tests',
        '',
      ].join('\n'),
    )
  })

  it('-i matches any case, titles included; --role keeps one role (and no titles)', async () => {
    const r = await runJp(['c', 'grep', '-i', 'regex'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.include('  title: Regex trouble')
    expect(r.stdout).to.include('  1 assistant: The REGEX needs an anchor.')
    const role = await runJp(['c', 'grep', '-i', 'regex', '--role', 'assistant'], {sandbox: sb})
    expect(role.stdout).to.equal('jp-c100  Regex trouble\n  1 assistant: The REGEX needs an anchor.\n')
  })

  it('--regex takes a regular expression; a bad one is a usage error naming PATTERN (exit 2)', async () => {
    const r = await runJp(['c', 'grep', '--regex', '^it is /a\\+b/$'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('jp-c100  Regex trouble\n  1 user: it is /a+b/\n')
    const bad = await runJp(['c', 'grep', '--regex', '(unclosed'], {sandbox: sb})
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.match(/^Error: PATTERN is not a valid regular expression: .*\nSee 'jp conversation grep --help'\.\n$/)
  })

  it('--format json: one object per matching line; no match exits 1 with nothing on stdout', async () => {
    const r = await runJp(['c', 'grep', 'anchor', '--format', 'json'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(rows).to.deep.equal([{id: 'jp-c100', title: 'Regex trouble', turn: 1, role: 'assistant', text: 'The REGEX needs an anchor.', matches: [[19, 25]]}])
    const none = await runJp(['c', 'grep', 'zebra'], {sandbox: sb})
    expect(none.code).to.equal(1)
    expect(none.stdout).to.equal('')
  })

  // (A file whose bytes cannot hold the pattern is not parsed, so only a corrupt file that might match is reported.)
  it('a corrupt conversation is named on stderr and skipped; the rest are searched', async () => {
    const {writeFileSync} = await import('node:fs')
    const {join} = await import('node:path')
    writeFileSync(join(sb.cwd, '.jp', 'conversations', 'jp-c200', 'events.json'), '[{"content": "regex')
    const r = await runJp(['c', 'grep', 'regex'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).to.match(/jp-c200\/events\.json: invalid JSON/)
    expect(r.stdout).to.include('jp-c100  Regex trouble')
  })

  it('on a terminal: matches highlighted, control sequences of titles and text made visible', async () => {
    const s = await spawnPty([BIN, 'c', 'grep', 'regex'], {cwd: sb.cwd, env: sb.env, cols: 100})
    const status = await s.waitForExit()
    expect(status.exitCode, s.screenText()).to.equal(0)
    const screen = s.screenText()
    expect(screen).to.include('jp-c200  Newer \\u001b]0;pwned\\u0007 chat')
    expect(screen).to.include('1 user: a regex \\u001b[2J question')
    expect(s.output()).to.include('\u001b[1;31mregex\u001b[0m')
    expect(s.output()).to.not.include('\u001b]0;pwned')
  })
})
