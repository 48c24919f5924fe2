// -c KEY=VALUE and JP_CFG_* values (issue 16): the text stands as typed for
// string keys (like `git -c`), typed keys parse as TOML values; bad values
// are one-line errors naming the source and key.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {EditorConfig} from '../../src/lib/config/editor.js'
import {ConfigError} from '../../src/lib/config/errors.js'
import {loadConfig} from '../../src/lib/config/load.js'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'

describe('config values from -c and JP_CFG_*', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'jp-cfgval-'))))
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const load = (cfgArgs: string[], env: NodeJS.ProcessEnv = {}) =>
    loadConfig({cwd: dir, env: {HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), ...env}, cfgArgs})

  async function loadError(cfgArgs: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
    try {
      await load(cfgArgs, env)
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError)
      return (e as Error).message
    }
    throw new Error('expected loadConfig to fail')
  }

  it("keeps the raw text of a string key: editor.cmd='/opt/My Editor/ed' is one word", async () => {
    const c = await load(["editor.cmd='/opt/My Editor/ed' --wait"])
    expect(c.editor.cmd).to.equal("'/opt/My Editor/ed' --wait")
    const command = new EditorConfig(c.editor, {env: {}, which: (p: string) => p}).command()
    expect(command?.argv([])).to.deep.include({file: '/opt/My Editor/ed', args: ['--wait']})
    // The same through the environment.
    const e = await load([], {JP_CFG_EDITOR_CMD: "'/opt/My Editor/ed'"})
    expect(e.editor.cmd).to.equal("'/opt/My Editor/ed'")
    // A plain string key: quotes, = and # are text.
    expect((await load(['assistant.system_prompt="Be brief" # really'])).assistant.system_prompt).to.equal('"Be brief" # really')
    expect((await load(['assistant.model.id=openai/gpt-4o'])).assistant.model.id).to.equal('openai/gpt-4o')
  })

  it('parses typed keys: numbers, booleans, arrays, the table form of a command', async () => {
    const c = await load([
      'interrupt.escalation_cooldown_secs=2.5',
      'assistant.model.parameters.reasoning=true',
      'editor.envs=["MY_EDITOR", "EDITOR"]',
      'conversation.tools.greet.enable=false',
    ])
    expect(c.interrupt.escalation_cooldown_secs).to.equal(2.5)
    expect(c.assistant.model.parameters?.reasoning).to.equal(true)
    expect(c.editor.envs).to.deep.equal(['MY_EDITOR', 'EDITOR'])
    expect(c.conversation.tools.greet.enable).to.equal(false)
    const t = await load(['editor.cmd={program = "/opt/My Editor/ed", args = ["--wait"]}'])
    expect(t.editor.cmd).to.deep.include({program: '/opt/My Editor/ed', args: ['--wait']})
    // A union key that also takes a string: a bare word stays text.
    expect((await load(['assistant.model.parameters.reasoning=high'])).assistant.model.parameters?.reasoning).to.equal('high')
  })

  it('reports bad values as one line naming the source and key', async () => {
    expect(await loadError(['interrupt.escalation_cooldown_secs=-5'])).to.equal(
      '--cfg: interrupt.escalation_cooldown_secs: expected number >= 0, got -5',
    )
    expect(await loadError([], {JP_CFG_PROVIDERS_LLM_TIMEOUT_SECS: '0'})).to.match(/^JP_CFG_PROVIDERS_LLM_TIMEOUT_SECS: .*timeout_secs: expected number > 0, got 0$/)
    const file = join(dir, 'bad.toml')
    writeFileSync(file, '[interrupt]\nescalation_cooldown_secs = -5\n')
    expect(await loadError([file])).to.equal(`${file}:2:1: interrupt.escalation_cooldown_secs: expected number >= 0, got -5`)
    expect(await loadError([''])).to.equal('--cfg: empty argument (expected KEY=VALUE or the path of a TOML file)')
    expect(await loadError(['  '])).to.equal('--cfg: empty argument (expected KEY=VALUE or the path of a TOML file)')
    mkdirSync(join(dir, 'adir'))
    expect(await loadError(['adir'])).to.equal('--cfg adir: is a directory (expected KEY=VALUE or the path of a TOML file)')
    expect(await loadError(["editor.cmd='/opt/My Editor/ed"])).to.match(/^--cfg: editor\.cmd: cannot split into words/)
  })
})

describe('-c editor.cmd with a quoted path, end to end', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})))
  afterEach(() => sb.cleanup())

  it("runs the editor at a path with a space: -c \"editor.cmd='.../My Editor/ed'\"", async () => {
    const editorDir = join(sb.dir, 'My Editor')
    mkdirSync(editorDir)
    const ran = join(sb.dir, 'ran.txt')
    // The editor records its argv and writes a query above the cut marker.
    writeFileSync(
      join(editorDir, 'ed'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${ran}'\nprintf 'from my editor\\n' > "$1.new" && cat "$1" >> "$1.new" && mv "$1.new" "$1"\n`,
      {mode: 0o755},
    )
    const r = await runJp(['query', '-e', '-c', `editor.cmd='${editorDir}/ed'`], {sandbox: sb})
    expect(r.code, r.stderr).to.equal(0)
    expect(readFileSync(ran, 'utf8')).to.match(/QUERY_MESSAGE\.md\n$/)
    expect(r.stdout).to.include('You said: from my editor')
    const bad = await runJp(['query', '-c', '', 'hi'], {sandbox: sb})
    expect(bad.code).to.equal(1)
    expect(bad.stderr).to.equal('Error: --cfg: empty argument (expected KEY=VALUE or the path of a TOML file)\n')
  })
})
