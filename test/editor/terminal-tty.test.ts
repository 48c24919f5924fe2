// The editor gets the terminal (SPEC §5): in a real pseudo-terminal, with
// jp's stdout piped, the editor still has a tty on stdin and stdout; Ctrl+C
// goes to the editor and jp survives; jp's raw mode is re-applied after an
// editor that left the terminal cooked. Without any terminal, the editor
// inherits jp's stdio.
import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import * as pty from '@lydell/node-pty'

import {cleanEnv, editorPath, readRecord, ROOT, tempDir, type TempDir} from './helpers.js'

const DRIVER = join(ROOT, 'test', 'editor', 'drivers', 'edit-text.ts')

interface DriverResult {
  result: {outcome?: string; text?: string; error?: string}
  alive: boolean
  raw?: boolean
  stty?: string
}

function runInPty(command: string, env: NodeJS.ProcessEnv, onData?: (all: string, term: pty.IPty) => void) {
  return new Promise<{exitCode: number; output: string}>((resolve, reject) => {
    const term = pty.spawn('/bin/sh', ['-c', command], {name: 'xterm-256color', cols: 100, rows: 30, cwd: ROOT, env: env as Record<string, string>})
    let output = ''
    const timer = setTimeout(() => {
      term.kill()
      reject(new Error(`pty run timed out; output so far:\n${output}`))
    }, 20_000)
    term.onData((d) => {
      output += d
      onData?.(output, term)
    })
    term.onExit(({exitCode}) => {
      clearTimeout(timer)
      resolve({exitCode, output})
    })
  })
}

const node = `'${process.execPath}' --import tsx '${DRIVER}'`

describe('TerminalEditorBackend terminal handling', () => {
  let t: TempDir
  let record: string
  let resultFile: string
  beforeEach(() => {
    t = tempDir()
    record = t.path('record.log')
    resultFile = t.path('result.json')
  })
  afterEach(() => t.cleanup())

  const readResult = (): DriverResult => JSON.parse(readFileSync(resultFile, 'utf8'))

  it('gives the editor the terminal when stdout is piped (| cat)', async () => {
    const env = cleanEnv({JP_EDITOR: editorPath('record.sh'), EDITOR_RECORD: record, RESULT_FILE: resultFile})
    const {exitCode} = await runInPty(`${node} | cat`, env)
    expect(exitCode).to.equal(0)
    expect(readRecord(record).tty).to.deep.equal(['yes'])
    expect(readResult().result).to.deep.equal({outcome: 'saved', text: 'seed\nrecorded\n'})
  })

  it('gives the editor the terminal when stdin is redirected too', async () => {
    const env = cleanEnv({JP_EDITOR: editorPath('record.sh'), EDITOR_RECORD: record, RESULT_FILE: resultFile})
    const {exitCode} = await runInPty(`echo piped | ${node} | cat`, env)
    expect(exitCode).to.equal(0)
    expect(readRecord(record).tty).to.deep.equal(['yes'])
  })

  it('lets Ctrl+C reach the editor while jp survives and reports cancelled', async () => {
    const env = cleanEnv({JP_EDITOR: editorPath('sleep.sh'), EDITOR_SLEEP: '20', EDITOR_RECORD: record, RESULT_FILE: resultFile})
    let sent = false
    const {exitCode, output} = await runInPty(`exec ${node}`, env, (all, term) => {
      if (!sent && all.includes('EDITOR-READY')) {
        sent = true
        term.write('\x03')
      }
    })
    expect(sent, output).to.equal(true)
    expect(exitCode, output).to.equal(0)
    const r = readResult()
    expect(r.alive).to.equal(true)
    expect(r.result).to.deep.equal({outcome: 'cancelled', text: 'seed\n'})
  })

  it('re-applies raw mode after an editor that left the terminal cooked', async () => {
    const env = cleanEnv({JP_EDITOR: editorPath('stty-cooked.sh'), RAW: '1', RESULT_FILE: resultFile})
    const {exitCode, output} = await runInPty(`exec ${node}`, env)
    expect(exitCode, output).to.equal(0)
    const r = readResult()
    expect(r.result).to.deep.equal({outcome: 'saved', text: 'seed\ncooked\n'})
    expect(r.raw).to.equal(true)
    expect(r.stty).to.match(/(^|\s)-icanon(\s|$)/)
    expect(r.stty).to.match(/(^|\s)-echo(\s|$)/)
  })

  it('inherits jp stdio when no terminal can be opened', async () => {
    const env = cleanEnv({JP_EDITOR: editorPath('record.sh'), EDITOR_RECORD: record, RESULT_FILE: resultFile})
    // detached => setsid(): no controlling terminal, so /dev/tty cannot be opened.
    const child = spawn(process.execPath, ['--import', 'tsx', DRIVER], {cwd: ROOT, env, detached: true, stdio: ['pipe', 'pipe', 'pipe']})
    child.stdin.end()
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(code, out).to.equal(0)
    expect(existsSync(record)).to.equal(true)
    expect(readRecord(record).tty).to.deep.equal(['no'])
    expect(readResult().result).to.deep.equal({outcome: 'saved', text: 'seed\nrecorded\n'})
  })
})
