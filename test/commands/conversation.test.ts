// End to end through bin/run.js on the dist/ that `npm test` built (alone: npm run build first).
import {expect} from 'chai'
import {after, afterEach, before, beforeEach, describe, it} from 'mocha'
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {join} from 'node:path'
import {copySandbox, initialisedSandbox, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'

describe('jp init and jp conversation (end to end)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())
  // The cases that are not about init start from a copy of a workspace
  // initialised once per file: in the sandbox's cwd, or in cwd/proj.
  const initialised: Record<'here' | 'proj', Sandbox> = {} as never
  before(async () => {
    initialised.here = await initialisedSandbox()
    initialised.proj = await initialisedSandbox(['init', 'proj', '--yes'])
  })
  after(() => Object.values(initialised).forEach((t) => t.cleanup()))
  const startFrom = (which: 'here' | 'proj'): void => {
    sb.cleanup()
    sb = copySandbox(initialised[which])
  }

  it('jp init DIR --model writes config.toml and conversations/, without asking (no tty)', async () => {
    const r = await runJp(['init', 'proj', '--model', 'openai/gpt-4o'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    const cfg = readFileSync(join(sb.cwd, 'proj', '.jp', 'config.toml'), 'utf8')
    expect(cfg).to.match(/^id = "openai\/gpt-4o"$/m)
    expect(existsSync(join(sb.cwd, 'proj', '.jp', 'conversations'))).to.equal(true)
    expect(r.stderr).to.include(`Initialized jp workspace in ${join(sb.cwd, 'proj', '.jp')}`)
  })

  it('jp init without a tty and without --yes never asks (nor reads piped stdin) and leaves the model unset', async () => {
    const r = await runJp(['init'], {sandbox: sb, input: 'anthropic/should-not-be-read\n'})
    expect(r.code, r.stderr).to.equal(0)
    const cfg = readFileSync(join(sb.cwd, '.jp', 'config.toml'), 'utf8')
    expect(cfg).to.not.include('should-not-be-read')
    expect(cfg).to.not.match(/^id =/m)
    expect(r.stdout).to.equal('')
    expect(existsSync(join(sb.cwd, 'anthropic'))).to.equal(false) // stdin was not taken as DIR either
  })

  it('jp init keeps an existing config.toml and rejects a malformed --model', async () => {
    mkdirSync(join(sb.cwd, '.jp'))
    writeFileSync(join(sb.cwd, '.jp', 'config.toml'), '# mine\n')
    const r = await runJp(['init', '--yes', '--model', 'a/b'], {sandbox: sb})
    expect(r.code).to.equal(0)
    expect(readFileSync(join(sb.cwd, '.jp', 'config.toml'), 'utf8')).to.equal('# mine\n')
    const bad = await runJp(['init', 'other', '--model', 'nomodel'], {sandbox: sb})
    expect(bad.code).to.equal(1)
    expect(bad.stderr.trim()).to.equal('Error: --model nomodel: expected PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5')
  })

  it('show marks a queued reply as steered where it was delivered (text and json)', async () => {
    startFrom('here')
    writeConversation(sb.cwd, 'jp-c300', {title: 'Steered'}, [
      {timestamp: '2024-02-01T00:00:00Z', type: 'turn_start'},
      {timestamp: '2024-02-01T00:00:01Z', type: 'chat_request', content: 'read a'},
      {timestamp: '2024-02-01T00:00:02Z', type: 'tool_call_request', id: 'c1', name: 'read', arguments: {}},
      {timestamp: '2024-02-01T00:00:03Z', type: 'tool_call_response', id: 'c1', content: 'A', is_error: false},
      {timestamp: '2024-02-01T00:00:04Z', type: 'chat_request', content: 'use b instead', queued: 'next_step'},
      {timestamp: '2024-02-01T00:00:05Z', type: 'chat_response', message: 'ok'},
      {timestamp: '2024-02-01T00:00:06Z', type: 'turn_start'},
      {timestamp: '2024-02-01T00:00:07Z', type: 'chat_request', content: 'and then c', queued: 'turn_end'},
    ])
    const show = await runJp(['conversation', 'show', 'jp-c300'], {sandbox: sb})
    expect(show.code, show.stderr).to.equal(0)
    expect(show.stdout).to.include('tool result [c1]:\n  A\nuser (queued reply, steered at the next step):\n  use b instead\nassistant:')
    expect(show.stdout).to.include('user (queued reply, sent after the turn):\n  and then c')
    expect(show.stdout).to.include('user:\n  read a')
    const json = await runJp(['conversation', 'show', 'jp-c300', '--format', 'json'], {sandbox: sb})
    const queued = json.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.queued)
    expect(queued.map((e) => [e.content, e.queued])).to.deep.equal([['use b instead', 'next_step'], ['and then c', 'turn_end']])
  })

  it('ls, use, show, path and rm work on stored conversations (and the c alias)', async () => {
    startFrom('here')
    writeConversation(sb.cwd, 'jp-c100', {title: 'Older', created_at: '2024-01-01T00:00:00Z'}, [])
    writeConversation(sb.cwd, 'jp-c200', {title: 'Newer one', created_at: '2024-02-01T00:00:00Z'}, [
      {timestamp: '2024-02-01T00:00:00Z', type: 'turn_start'},
      {timestamp: '2024-02-01T00:00:01Z', type: 'chat_request', content: 'What is 2+2?'},
      {timestamp: '2024-02-01T00:00:02Z', type: 'chat_response', reasoning: 'simple sum'},
      {timestamp: '2024-02-01T00:00:03Z', type: 'chat_response', message: 'It is 4.'},
      {timestamp: '2024-02-01T00:00:04Z', type: 'tool_call_request', id: 'c1', name: 'calc', arguments: {expr: '2+2'}},
      {timestamp: '2024-02-01T00:00:05Z', type: 'tool_call_response', id: 'c1', content: 'boom', is_error: true},
      {timestamp: '2024-02-01T00:00:06Z', type: 'mystery', detail: 7},
    ])

    const ls = await runJp(['conversation', 'ls'], {sandbox: sb})
    expect(ls.code, ls.stderr).to.equal(0)
    const lines = ls.stdout.trimEnd().split('\n')
    expect(lines[0]).to.match(/ID\s+TITLE\s+LAST ACTIVE/)
    expect(lines[1]).to.match(/jp-c200\s+Newer one/)
    expect(lines[2]).to.match(/jp-c100\s+Older/)

    const use = await runJp(['c', 'use', 'jp-c100'], {sandbox: sb})
    expect(use.code, use.stderr).to.equal(0)
    const json = await runJp(['conversation', 'ls', '--format', 'json'], {sandbox: sb})
    const rows = json.stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(rows.map((r) => [r.id, r.title, r.active])).to.deep.equal([
      ['jp-c100', 'Older', true], // just activated: most recent
      ['jp-c200', 'Newer one', false],
    ])

    const show = await runJp(['conversation', 'show', 'jp-c200'], {sandbox: sb})
    expect(show.code, show.stderr).to.equal(0)
    expect(show.stdout).to.include('jp-c200  Newer one')
    expect(show.stdout).to.include('user:\n  What is 2+2?')
    expect(show.stdout).to.include('reasoning:\n  simple sum')
    expect(show.stdout).to.include('assistant:\n  It is 4.')
    expect(show.stdout).to.include('tool call calc [c1]:')
    expect(show.stdout).to.include('tool result [c1] (error):\n  boom')
    expect(show.stdout).to.include('mystery: {"detail":7}')
    const showJson = await runJp(['conversation', 'show', 'jp-c200', '--format', 'json'], {sandbox: sb})
    expect(showJson.stdout.trim().split('\n').map((l) => JSON.parse(l).type)).to.include('mystery')

    const activeShow = await runJp(['conversation', 'show'], {sandbox: sb})
    expect(activeShow.stdout).to.include('jp-c100  Older')

    const p = await runJp(['conversation', 'path'], {sandbox: sb})
    expect(p.stdout).to.equal(join(sb.cwd, '.jp', 'conversations', 'jp-c100') + '\n')
    const pe = await runJp(['conversation', 'path', 'jp-c200', '--events'], {sandbox: sb})
    expect(pe.stdout).to.equal(join(sb.cwd, '.jp', 'conversations', 'jp-c200', 'events.json') + '\n')
    const pm = await runJp(['c', 'path', 'jp-c200', '--metadata'], {sandbox: sb})
    expect(pm.stdout).to.equal(join(sb.cwd, '.jp', 'conversations', 'jp-c200', 'metadata.json') + '\n')
    // Held by another jp with a journal not yet folded in: the path comes with a warning, and nothing is folded.
    const held = join(sb.cwd, '.jp', 'conversations', 'jp-c200')
    writeFileSync(join(held, '.lock'), JSON.stringify({pid: process.pid, host: hostname(), since: new Date().toISOString()}))
    writeFileSync(join(held, 'events.log'), '')
    const busy = await runJp(['conversation', 'path', 'jp-c200', '--events'], {sandbox: sb})
    expect(busy.stdout).to.equal(join(held, 'events.json') + '\n')
    expect(busy.stderr).to.equal('jp: jp-c200 is in use by another jp; events.json may not hold its newest events yet (they are in events.log)\n')
    rmSync(join(held, '.lock'))
    rmSync(join(held, 'events.log'))
    const pb = await runJp(['conversation', 'path', 'jp-c200', '--base-config'], {sandbox: sb})
    expect(pb.stdout).to.equal(join(sb.cwd, '.jp', 'conversations', 'jp-c200', 'base_config.json') + '\n')

    const rm = await runJp(['conversation', 'rm', 'jp-c100'], {sandbox: sb})
    expect(rm.code, rm.stderr).to.equal(0)
    expect(existsSync(join(sb.cwd, '.jp', 'conversations', 'jp-c100'))).to.equal(false)
    const after = await runJp(['conversation', 'path'], {sandbox: sb})
    expect(after.code).to.equal(1)
    expect(after.stderr.trim()).to.equal("Error: no active conversation; pass an ID (see 'jp conversation ls')")
  })

  it('finds the workspace from a subdirectory and with --workspace', async () => {
    startFrom('proj')
    writeConversation(join(sb.cwd, 'proj'), 'jp-c300', {title: 'Here'}, [])
    mkdirSync(join(sb.cwd, 'proj', 'src', 'deep'), {recursive: true})
    const sub = await runJp(['conversation', 'ls', '--format', 'json'], {sandbox: sb, cwd: join(sb.cwd, 'proj', 'src', 'deep')})
    expect(JSON.parse(sub.stdout.trim()).id).to.equal('jp-c300')
    const explicit = await runJp(['conversation', 'ls', '--format', 'json', '-w', 'proj'], {sandbox: sb})
    expect(JSON.parse(explicit.stdout.trim()).id).to.equal('jp-c300')
    const missing = await runJp(['conversation', 'ls', '-w', 'nope'], {sandbox: sb})
    expect(missing.code).to.equal(1)
    expect(missing.stderr).to.match(/^Error: --workspace-dir nope: no \.jp directory in .*nope/)
  })

  it('takes -w/--workspace-dir DIR before or after the command name, in every command (config set included)', async () => {
    startFrom('proj')
    writeConversation(join(sb.cwd, 'proj'), 'jp-c300', {title: 'Here'}, [])
    const config = join(sb.cwd, 'proj', '.jp', 'config.toml')
    const lines: string[][] = [
      ['--workspace-dir', 'proj', 'conversation', 'ls', '--format', 'json'],
      ['conversation', 'ls', '--format', 'json', '--workspace-dir', 'proj'],
      ['conversation', 'ls', '--format', 'json', '--workspace-dir=proj'],
      ['-w', 'proj', 'conversation', 'ls', '--format', 'json'],
      // The old spelling: a hidden alias wherever it does not clash.
      ['--workspace', 'proj', 'conversation', 'ls', '--format', 'json'],
      ['conversation', 'ls', '--format', 'json', '--workspace', 'proj'],
    ]
    for (const args of lines) {
      const r = await runJp(args, {sandbox: sb})
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0)
      expect(JSON.parse(r.stdout.trim()).id, args.join(' ')).to.equal('jp-c300')
    }
    const sets: [string[], string][] = [
      [['--workspace-dir', 'proj', 'config', 'set', 'style.hyperlinks', 'false'], 'false'],
      [['config', 'set', '--workspace-dir', 'proj', 'style.hyperlinks', 'true'], 'true'],
      // Before the command name --workspace can only be the directory.
      [['--workspace', 'proj', 'config', 'set', 'style.hyperlinks', 'false'], 'false'],
      // Behind `config set` it is the target switch (SPEC §18).
      [['config', 'set', '--workspace', '-w', 'proj', 'style.hyperlinks', 'true'], 'true'],
    ]
    for (const [args, value] of sets) {
      const r = await runJp(args, {sandbox: sb})
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0)
      expect(readFileSync(config, 'utf8'), args.join(' ')).to.match(new RegExp(`hyperlinks = ${value}$`, 'm'))
    }
  })

  it('an unknown id is a one-line error naming it', async () => {
    startFrom('here')
    for (const cmd of [['show', 'jp-c9'], ['use', 'jp-c9'], ['rm', 'jp-c9'], ['path', 'jp-c9']]) {
      const r = await runJp(['conversation', ...cmd], {sandbox: sb})
      expect(r.code, cmd.join(' ')).to.equal(1)
      expect(r.stderr).to.equal(`Error: conversation 'jp-c9' not found in workspace ${sb.cwd} (see 'jp conversation ls')\n`)
    }
  })

  it('show reports a corrupt events.json by path and leaves it byte-identical', async () => {
    startFrom('here')
    const dir = writeConversation(sb.cwd, 'jp-c400', {title: 'x'}, [])
    const corrupt = '[{"type": "turn_start", "timestamp": "t"},\n'
    writeFileSync(join(dir, 'events.json'), corrupt)
    const r = await runJp(['conversation', 'show', 'jp-c400'], {sandbox: sb})
    expect(r.code).to.equal(1)
    expect(r.stderr).to.match(new RegExp(`^Error: ${join(dir, 'events.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid JSON`))
    expect(r.stderr.trim().split('\n')).to.have.length(1)
    expect(readFileSync(join(dir, 'events.json'), 'utf8')).to.equal(corrupt)
  })

  it('outside any workspace, ls uses the default workspace without creating it', async () => {
    const r = await runJp(['conversation', 'ls', '--format', 'json'], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal('')
    expect(existsSync(join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp'))).to.equal(false)
  })
})
