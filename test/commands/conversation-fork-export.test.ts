// `jp conversation fork` (the parent byte-identical before and after, tool
// calls copied as records) and `jp conversation export`, end to end.
import {expect} from 'chai'
import {after, afterEach, before, beforeEach, describe, it} from 'mocha'
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {copySandbox, initialisedSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'

const t = (s: number) => `2024-03-01T00:00:${String(s).padStart(2, '0')}Z`
const EVENTS = [
  {timestamp: t(0), type: 'turn_start'},
  {timestamp: t(1), type: 'chat_request', content: 'first question\nsecond line'},
  {timestamp: t(2), type: 'chat_response', reasoning: 'thinking'},
  {timestamp: t(3), type: 'chat_response', message: '# Answer\n\nUse `x`:\n\n```js\nx()\n```'},
  {timestamp: t(4), type: 'turn_start'},
  {timestamp: t(5), type: 'chat_request', content: 'run it'},
  {timestamp: t(6), type: 'tool_call_request', id: 'c1', name: 'run', arguments: {cmd: 'touch SHOULD_NOT_EXIST'}},
  {timestamp: t(7), type: 'tool_call_response', id: 'c1', content: 'done ``` fence', is_error: false},
  {timestamp: t(8), type: 'chat_response', message: 'Ran it.'},
  {timestamp: t(9), type: 'turn_start'},
  {timestamp: t(10), type: 'chat_request', content: 'third'},
  {timestamp: t(11), type: 'chat_response', message: 'Third answer.'},
]

/** Every file under `dir` (names, modes and bytes hashed), so any change to the parent shows. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    const st = statSync(p)
    out[name] = `${st.mode.toString(8)} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`
  }
  out['.'] = statSync(dir).mode.toString(8)
  return out
}

describe('jp conversation fork and export', function () {
  this.timeout(60_000)
  // One initialised workspace per file; each case gets its own copy and writes its parent there.
  let template: Sandbox
  let sb: Sandbox
  let parentDir: string
  before(async () => (template = await initialisedSandbox()))
  after(() => template.cleanup())
  beforeEach(() => {
    sb = copySandbox(template)
    parentDir = writeConversation(sb.cwd, 'jp-c100', {title: 'Parent', created_at: '2024-01-01T00:00:00Z'}, EVENTS)
  })
  afterEach(() => sb.cleanup())

  const events = (id: string) => JSON.parse(readFileSync(join(sb.cwd, '.jp', 'conversations', id, 'events.json'), 'utf8'))
  const meta = (id: string) => JSON.parse(readFileSync(join(sb.cwd, '.jp', 'conversations', id, 'metadata.json'), 'utf8'))

  it('fork --at 2 copies turns 1–2 into a new active conversation naming its parent; the parent is untouched, no tool re-run', async () => {
    const before = snapshot(parentDir)
    const r = await runJp(['conversation', 'fork', 'jp-c100', '--at', '2', '--title', 'Other way', '--format', 'json'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const {id, parent, turn} = JSON.parse(r.stdout)
    expect([parent, turn]).to.deep.equal(['jp-c100', 2])
    expect(id).to.match(/^jp-c\d+$/).and.not.equal('jp-c100')
    expect(r.stderr).to.include(`Forked jp-c100 at turn 2: active conversation ${id}`)
    expect(events(id)).to.deep.equal(EVENTS.slice(0, 9))
    expect(meta(id)).to.include({title: 'Other way'})
    expect(meta(id).forked_from).to.deep.equal({id: 'jp-c100', turn: 2})
    expect(snapshot(parentDir)).to.deep.equal(before)
    expect(statSync(join(sb.cwd, 'SHOULD_NOT_EXIST'), {throwIfNoEntry: false})).to.equal(undefined)

    const show = await runJp(['c', 'show'], {sandbox: sb})
    expect(show.code, show.stderr).to.equal(0)
    expect(show.stdout.split('\n').slice(0, 2)).to.deep.equal([`${id}  Other way`, 'forked from jp-c100 at turn 2'])
  })

  it('fork with no ID forks the active conversation, every turn; a turn out of range is one line naming the range', async () => {
    await runJp(['c', 'use', 'jp-c100'], {sandbox: sb})
    const r = await runJp(['c', 'fork'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const id = /active conversation (jp-c\d+)/.exec(r.stderr)![1]
    expect(events(id)).to.deep.equal(EVENTS)
    expect(meta(id)).to.include({title: 'Parent'})
    const bad = await runJp(['c', 'fork', 'jp-c100', '--at', '4'], {sandbox: sb})
    expect(bad.code).to.equal(1)
    expect(bad.stderr).to.equal('Error: --at 4: conversation jp-c100 has turns 1 to 3\n')
  })

  it('jp query --fork=ID@TURN forks and asks in one step; a bare --fork forks the active one; the parent is untouched', async () => {
    const before = snapshot(parentDir)
    const r = await runJp(['query', '--fork=jp-c100@1', 'another way'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const ls = (await runJp(['c', 'ls', '--format', 'json'], {sandbox: sb})).stdout.trim().split('\n').map((l) => JSON.parse(l))
    const fork = ls.find((c: {active: boolean}) => c.active)
    expect(fork.id).to.not.equal('jp-c100')
    const got = events(fork.id)
    expect(got.slice(0, 4)).to.deep.equal(EVENTS.slice(0, 4))
    expect(got.slice(4).find((e: {type: string}) => e.type === 'chat_request').content).to.equal('another way')
    expect(meta(fork.id).forked_from).to.deep.equal({id: 'jp-c100', turn: 1})
    expect(snapshot(parentDir)).to.deep.equal(before)

    // Bare: the active conversation (the fork just made), every turn, the query a word of its own.
    const again = await runJp(['query', '--fork', 'third way'], {sandbox: sb})
    expect(again.code, again.stderr).to.equal(0)
    const active = (await runJp(['c', 'ls', '--format', 'json'], {sandbox: sb})).stdout.trim().split('\n').map((l) => JSON.parse(l)).find((c: {active: boolean}) => c.active)
    expect(meta(active.id).forked_from).to.deep.equal({id: fork.id, turn: 2})
    expect(events(active.id).filter((e: {type: string}) => e.type === 'chat_request').map((e: {content: string}) => e.content)).to.deep.equal([
      'first question\nsecond line',
      'another way',
      'third way',
    ])
    const bad = await runJp(['query', '--fork=jp-c100@9', 'x'], {sandbox: sb})
    expect(bad.code).to.equal(1)
    expect(bad.stderr).to.include('Error: --fork=jp-c100@9: conversation jp-c100 has turns 1 to 3')
  })

  it('export: markdown with a heading per turn, quoted user text, raw answers, fenced tool calls and results', async () => {
    const r = await runJp(['c', 'export', 'jp-c100'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(
      [
        '# Parent',
        '',
        'Conversation `jp-c100`.',
        '',
        '## Turn 1',
        '',
        '**User**',
        '',
        '> first question',
        '> second line',
        '',
        '**Reasoning**',
        '',
        '```text',
        'thinking',
        '```',
        '',
        '**Assistant**',
        '',
        '# Answer\n\nUse `x`:\n\n```js\nx()\n```',
        '',
        '## Turn 2',
        '',
        '**User**',
        '',
        '> run it',
        '',
        '**Tool call** `run` (`c1`)',
        '',
        '```json',
        '{\n  "cmd": "touch SHOULD_NOT_EXIST"\n}',
        '```',
        '',
        '**Tool result** (`c1`)',
        '',
        '````',
        'done ``` fence',
        '````',
        '',
        '**Assistant**',
        '',
        'Ran it.',
        '',
        '## Turn 3',
        '',
        '**User**',
        '',
        '> third',
        '',
        '**Assistant**',
        '',
        'Third answer.',
        '',
      ].join('\n'),
    )
  })

  it('export --format json prints the stored events', async () => {
    const r = await runJp(['c', 'export', 'jp-c100', '--format', 'json'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(JSON.parse(r.stdout)).to.deep.equal(EVENTS)
  })
})
