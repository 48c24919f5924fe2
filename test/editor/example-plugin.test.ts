// The example plugin's "Try it" steps (its README and docs/plugins.md), run
// as written with `jp` on PATH in a sandbox: the plugin must handle both the
// file jp passes when composing a query and the directory `jp conversation
// edit` passes (SPEC §5, §13).
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {readFileSync, realpathSync, statSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {join} from 'node:path'
import {afterEach, before, beforeEach, describe, it} from 'mocha'

import {assertBuilt, makeSandbox, ROOT, type Sandbox} from '../helpers/cli.js'
import {codeBlocksUnder, runScript} from '../helpers/markdown.js'

interface LogEntry {
  method: string
  paths?: string[]
  files?: string[]
}

/** The JSON lines `cat "$JP_RECORD_EDITOR_LOG"` printed (the only JSON lines on stdout). */
function logEntries(stdout: string): LogEntry[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogEntry)
}

describe('the example editor backend plugin, step by step as documented', function () {
  this.timeout(120_000)
  let sandbox: Sandbox

  // bin/run.js runs dist/, which `npm test` built (a test never rebuilds it).
  before(() => assertBuilt())
  beforeEach(() => {
    sandbox = makeSandbox({JP_ECHO_DELAY_MS: '0'})
  })
  afterEach(() => sandbox.cleanup())

  for (const [doc, heading] of [
    ['examples/editor-backend-plugin/README.md', 'Try it'],
    ['docs/plugins.md', '4. Try it'],
  ] as const) {
    it(`${doc}: "${heading}" runs, editing the query file and the conversation directory`, async () => {
      const [script] = codeBlocksUnder(readFileSync(join(ROOT, doc), 'utf8'), heading)
      expect(script, `an sh block under "${heading}"`).to.be.a('string')
      const built = statSync(join(ROOT, 'dist', 'jp.cjs')).mtimeMs
      const r = await runScript(script, {sandbox, cwd: ROOT})
      expect(r.code, r.stderr).to.equal(0)
      // The steps must not rebuild jp under the running suite (dist/ removed meanwhile).
      expect(statSync(join(ROOT, 'dist', 'jp.cjs')).mtimeMs, 'the step rebuilt jp (dist/jp.cjs)').to.equal(built)
      expect(r.stdout).to.include('You said: hello')
      expect(r.stderr).to.not.match(/warning|auto-transpiled|EISDIR/i)

      const entries = logEntries(r.stdout)
      expect(entries.map((e) => e.method)).to.deep.equal(['editFile', 'editFile'])
      // Composing a query: the one file, edited (the line lands below the cut marker).
      expect(entries[0].paths).to.have.length(1)
      expect(entries[0].paths![0]).to.match(/QUERY_MESSAGE\.md$/)
      expect(entries[0].files).to.equal(undefined)
      // jp conversation edit: the conversation's directory, its files listed and left alone.
      expect(entries[1].paths).to.have.length(1)
      expect(entries[1].paths![0]).to.match(/conversations\/jp-c\d+$/)
      expect(entries[1].files!.map((f) => f.split('/').pop())).to.include.members(['events.json', 'metadata.json'])
      const events = JSON.parse(readFileSync(entries[1].files!.find((f) => f.endsWith('events.json'))!, 'utf8'))
      expect(JSON.stringify(events)).to.include('hello')
    })
  }

  it('docs/plugins.md: "Testing a backend" links a plugin into fresh directories and edits a conversation, as written', async () => {
    const [script] = codeBlocksUnder(readFileSync(join(ROOT, 'docs', 'plugins.md'), 'utf8'), 'Testing a backend or code that edits')
    expect(script, 'an sh block').to.include('jp conversation edit -c editor.backend=mine')
    // The reader's ./my-plugin and its backend `mine` are the example and `record`.
    const asExample = script.replace('./my-plugin', './examples/editor-backend-plugin').replaceAll('editor.backend=mine', 'editor.backend=record')
    const log = join(sandbox.dir, 'record.log')
    const r = await runScript(asExample, {sandbox, cwd: ROOT, env: {JP_RECORD_EDITOR_LOG: log}})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).to.not.match(/no active conversation/)
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogEntry)
    expect(entries.map((e) => e.method)).to.deep.equal(['editFile'])
    expect(entries[0].paths![0]).to.match(/conversations\/jp-c\d+$/)
  })

})
