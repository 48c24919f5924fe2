import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {isAlive, waitFor} from '../helpers/processes.js'
import {tempDirs} from '../../src/lib/process/temp-dirs.js'
import {resolveToolCommand, runLocalTool} from '../../src/lib/tool/runner.js'

const TOOLS = fileURLToPath(new URL('../fixtures/tools/', import.meta.url))
const tool = (name: string) => join(TOOLS, name)

describe('runLocalTool', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-tool-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('returns stdout and passes the same JSON on stdin and in the JP_TOOL_ARGUMENTS_FILE file, with the name and cwd', async () => {
    const args = {path: 'a b/"c"', n: 3, nested: {ok: true}, text: 'line1\nline2 $(x) `y`'}
    const r = await runLocalTool({name: 'echoer', command: tool('echo-args.sh'), arguments: args, cwd: dir})
    expect(r.isError).to.equal(false)
    expect(r.exitCode).to.equal(0)
    const lines = r.content.split('\n')
    const stdinJson = lines.find((l) => l.startsWith('stdin='))!.slice(6)
    // The file holds a JSON string containing \n escapes, not raw newlines.
    const fileJson = lines.find((l) => l.startsWith('file='))!.slice(5)
    expect(JSON.parse(stdinJson)).to.deep.equal(args)
    expect(fileJson).to.equal(stdinJson)
    expect(lines).to.include('name=echoer')
    expect(lines).to.include(`cwd=${dir}`)
  })

  it('shlex-splits a string command into program and arguments', async () => {
    const r = await runLocalTool({
      name: 't',
      command: `'${tool('echo-args.sh')}' "two words" plain 'it'\\''s'`,
      arguments: {},
      cwd: dir,
    })
    expect(r.isError).to.equal(false)
    expect(r.content).to.contain('arg=two words\narg=plain\narg=it\'s\n')
  })

  it('turns a non-zero exit into an error result carrying stderr and the exit code', async () => {
    const r = await runLocalTool({name: 'bad', command: {program: tool('fail.sh'), args: ['7'], shell: false}, arguments: {}, cwd: dir})
    expect(r.isError).to.equal(true)
    expect(r.exitCode).to.equal(7)
    expect(r.content).to.contain("Tool 'bad' failed with exit code 7.")
    expect(r.content).to.contain('something went wrong: 7')
  })

  it('reports a missing program by name, without throwing', async () => {
    const r = await runLocalTool({name: 'ghost', command: './no-such-tool.sh --flag', arguments: {}, cwd: dir})
    expect(r.isError).to.equal(true)
    expect(r.exitCode).to.equal(null)
    expect(r.content).to.equal("Tool 'ghost' could not be run: program './no-such-tool.sh' not found")
  })

  it('reports unbalanced quoting in the command as an error result naming the key', async () => {
    const r = await runLocalTool({name: 'q', command: 'echo "unterminated', arguments: {}, cwd: dir})
    expect(r.isError).to.equal(true)
    expect(r.content).to.contain('conversation.tools.q.command')
  })

  it('never interprets shell metacharacters in the program path or arguments when shell = false', async () => {
    const odd = tool('odd $(touch INJECTED) name.sh')
    const r = await runLocalTool({
      name: 'odd',
      command: {program: odd, args: ['$(touch INJECTED2)', '; touch INJECTED3', '*'], shell: false},
      arguments: {x: '$(touch INJECTED4)'},
      cwd: dir,
    })
    expect(r.isError, r.content).to.equal(false)
    expect(r.content).to.contain('odd tool ran with 3 args')
    expect(r.content).to.contain('arg=$(touch INJECTED2)\narg=; touch INJECTED3\narg=*\n')
    for (const f of ['INJECTED', 'INJECTED2', 'INJECTED3', 'INJECTED4']) {
      expect(existsSync(join(dir, f)), f).to.equal(false)
      expect(existsSync(join(TOOLS, f)), f).to.equal(false)
    }
  })

  it('with shell = true runs the program text through /bin/sh, quoting the args and never splicing the arguments', async () => {
    writeFileSync(join(dir, 'marker'), '')
    const r = await runLocalTool({
      name: 'sh',
      command: {program: 'ls | grep -c mark; printf "%s|"', args: ['a b', '$(touch INJECTED)'], shell: true},
      arguments: {evil: '$(touch INJECTED5)'},
      cwd: dir,
    })
    expect(r.isError, r.content).to.equal(false)
    expect(r.content).to.equal('1\na b|$(touch INJECTED)|')
    expect(existsSync(join(dir, 'INJECTED'))).to.equal(false)
    expect(existsSync(join(dir, 'INJECTED5'))).to.equal(false)
    expect(resolveToolCommand({program: 'x', args: ["it's"], shell: true}, 't').args).to.deep.equal(['-c', `x 'it'"'"'s'`])
  })

  it('abort kills the whole process group, grandchildren that ignore SIGTERM included', async () => {
    const ac = new AbortController()
    const run = runLocalTool({
      name: 'spawner',
      command: {program: tool('spawn-grandchild.sh'), args: [dir], shell: false},
      arguments: {},
      cwd: dir,
      signal: ac.signal,
      killGraceMs: 200,
    })
    await waitFor(() => existsSync(join(dir, 'tool.pid')) && existsSync(join(dir, 'grandchild.pid')), 'pid files')
    const toolPid = Number(readFileSync(join(dir, 'tool.pid'), 'utf8'))
    const grandPid = Number(readFileSync(join(dir, 'grandchild.pid'), 'utf8'))
    expect(isAlive(toolPid)).to.equal(true)
    expect(isAlive(grandPid)).to.equal(true)
    ac.abort()
    const r = await run
    expect(r.cancelled).to.equal(true)
    expect(r.isError).to.equal(true)
    expect(r.signal).to.equal('SIGKILL')
    await waitFor(() => !isAlive(toolPid) && !isAlive(grandPid), 'tool and grandchild to die')
  })

  it('runs the tool in its own process group: a SIGINT to jp\'s group does not reach it', async function () {
    const host = spawn(process.execPath, ['--import', 'tsx', tool('run-tool-host.ts'), dir], {
      detached: true, // the host leads its own group, so the test can signal that group alone
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    host.stdout.on('data', (b) => (out += b))
    host.stderr.on('data', (b) => (out += b))
    const exited = new Promise<number | null>((r) => host.on('close', r))
    try {
      await waitFor(() => existsSync(join(dir, 'started')), 'the tool to start')
      process.kill(-host.pid!, 'SIGINT')
      await waitFor(() => out.includes('host-got-sigint'), 'the host to see SIGINT')
      writeFileSync(join(dir, 'release'), '')
      expect(await exited).to.equal(0)
    } finally {
      try {
        process.kill(-host.pid!, 'SIGKILL')
      } catch {}
    }
    const line = out.split('\n').find((l) => l.startsWith('result='))
    expect(line, out).to.not.equal(undefined)
    const result = JSON.parse(line!.slice(7))
    expect(result).to.deep.include({isError: false, exitCode: 0, content: 'finished\n'})
    expect(existsSync(join(dir, 'tool-signals'))).to.equal(false)
  })
})

describe('runLocalTool: the arguments directory never outlives jp', function () {
  this.timeout(20_000)
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-tool-exit-'))
    mkdirSync(join(dir, 'tmp'))
    // The tool says where its arguments file is, then outlives any patience.
    writeFileSync(join(dir, 'tool.sh'), '#!/bin/sh\necho $$ > "$(dirname "$0")/tool-pid"\necho "$JP_TOOL_ARGUMENTS_FILE" > "$(dirname "$0")/args-path"\nexec sleep 30\n', {mode: 0o755})
  })
  afterEach(() => {
    if (existsSync(join(dir, 'tool-pid'))) {
      try {
        process.kill(Number(readFileSync(join(dir, 'tool-pid'), 'utf8')), 'SIGKILL')
      } catch {}
    }
    rmSync(dir, {recursive: true, force: true})
  })

  for (const how of ['exit', 'throw'] as const) {
    it(`is removed when jp ends while the tool runs (${how === 'exit' ? 'process.exit, as the third Ctrl+C and the watchdog do' : 'an uncaught exception'})`, async () => {
      const host = spawn(process.execPath, ['--import', 'tsx', tool('exit-while-tool-runs.ts'), dir, how], {
        env: {...process.env, TMPDIR: join(dir, 'tmp')},
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      host.stdout.on('data', (b) => (out += b))
      host.stderr.on('data', (b) => (out += b))
      const code = await new Promise<number | null>((r) => host.on('close', r))
      expect(code, out).to.equal(how === 'exit' ? 130 : 1)
      const argsFile = readFileSync(join(dir, 'args-path'), 'utf8').trim()
      expect(dirname(dirname(argsFile))).to.equal(join(dir, 'tmp'))
      expect(existsSync(dirname(argsFile)), `${dirname(argsFile)} left behind`).to.equal(false)
      expect(readdirSync(join(dir, 'tmp')).filter((n) => n.startsWith('jp-tool-'))).to.deep.equal([])
      await waitFor(() => !isAlive(Number(readFileSync(join(dir, 'tool-pid'), 'utf8'))), 'the tool to be killed with jp')
    })
  }

  it('is removed when the call ends, whatever the result', async () => {
    writeFileSync(join(dir, 'quick.sh'), '#!/bin/sh\necho "$JP_TOOL_ARGUMENTS_FILE"\nexit 3\n', {mode: 0o755})
    const r = await runLocalTool({name: 'quick', command: join(dir, 'quick.sh'), arguments: {a: 1}, cwd: dir})
    expect(r.exitCode).to.equal(3)
    const argsFile = r.content.split('\n').find((l) => l.endsWith('arguments.json'))!
    expect(existsSync(dirname(argsFile))).to.equal(false)
    expect(tempDirs()).to.deep.equal([])
  })
})
