import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {defaultConfig, modelIdFromConfig} from '../../src/lib/config/defaults.js'
import {ConfigError} from '../../src/lib/config/errors.js'
import {loadConfig, mergeConfig, parseConfigToml, validatePartial} from '../../src/lib/config/load.js'
import {resolveToolConfig} from '../../src/lib/tool/resolve.js'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../../src/lib/config/types.js'

describe('config loading', () => {
  let dir: string
  let env: NodeJS.ProcessEnv
  let ws: string
  let userFile: string
  let wsFile: string

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-cfg-'))
    env = {HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg')}
    ws = join(dir, 'ws')
    mkdirSync(join(ws, '.jp'), {recursive: true})
    mkdirSync(join(dir, 'xdg', 'jp'), {recursive: true})
    userFile = join(dir, 'xdg', 'jp', 'config.toml')
    wsFile = join(ws, '.jp', 'config.toml')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const load = (extra: {cfgArgs?: string[]; env?: NodeJS.ProcessEnv; conversationConfig?: unknown} = {}) =>
    loadConfig({cwd: dir, workspaceRoot: ws, env: {...env, ...extra.env}, cfgArgs: extra.cfgArgs, conversationConfig: extra.conversationConfig})

  async function loadError(extra: Parameters<typeof load>[0] = {}): Promise<ConfigError> {
    try {
      await load(extra)
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError)
      return e as ConfigError
    }
    throw new Error('expected loadConfig to fail')
  }

  describe('layers', () => {
    it('uses the built-in defaults with no files', async () => {
      const c = await load()
      expect(c).to.deep.equal(defaultConfig(env))
      expect(c.conversation.tools['*'].cancellation_response).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
      expect(c.providers.llm.openai.base_url).to.equal('https://api.openai.com/v1')
      expect(modelIdFromConfig(c)).to.equal('echo/default')
    })

    it('OPENAI_BASE_URL replaces the default openai base_url, and a file still wins over it', async () => {
      expect((await load({env: {OPENAI_BASE_URL: 'http://127.0.0.1:9/v1'}})).providers.llm.openai.base_url).to.equal('http://127.0.0.1:9/v1')
      writeFileSync(wsFile, '[providers.llm.openai]\nbase_url = "http://file/v1"\n')
      expect((await load({env: {OPENAI_BASE_URL: 'http://127.0.0.1:9/v1'}})).providers.llm.openai.base_url).to.equal('http://file/v1')
    })

    it('each layer wins over the one below it, and untouched keys survive', async () => {
      writeFileSync(userFile, '[editor]\nbackend = "user"\n[interrupt]\nescalation_cooldown_secs = 5\n[assistant.model]\nid = "user/m"\n')
      let c = await load()
      expect(c.editor.backend).to.equal('user')
      expect(c.interrupt.escalation_cooldown_secs).to.equal(5)
      expect(c.editor.inline.edit_mode).to.equal('emacs') // default kept beside the override

      writeFileSync(wsFile, '[editor]\nbackend = "workspace"\n')
      c = await load()
      expect(c.editor.backend).to.equal('workspace')
      expect(c.interrupt.escalation_cooldown_secs).to.equal(5) // user layer still visible

      c = await load({conversationConfig: {editor: {backend: 'conversation'}}})
      expect(c.editor.backend).to.equal('conversation')

      c = await load({conversationConfig: {editor: {backend: 'conversation'}}, env: {JP_CFG_EDITOR_BACKEND: 'env'}})
      expect(c.editor.backend).to.equal('env')

      c = await load({
        conversationConfig: {editor: {backend: 'conversation'}},
        env: {JP_CFG_EDITOR_BACKEND: 'env'},
        cfgArgs: ['editor.backend=flag'],
      })
      expect(c.editor.backend).to.equal('flag')
      expect(modelIdFromConfig(c)).to.equal('user/m')
    })

    it('later --cfg arguments win over earlier ones; a --cfg path loads a TOML file', async () => {
      const extra = join(dir, 'extra.toml')
      writeFileSync(extra, '[interrupt.streaming]\naction = "reply"\ncompose_in_editor = "always"\n')
      const c = await load({cfgArgs: ['interrupt.streaming.action=stop', extra, 'interrupt.streaming.compose_in_editor=true']})
      expect(c.interrupt.streaming).to.deep.equal({action: 'reply', compose_in_editor: true})
    })

    it('falls back to ~/.config/jp/config.toml without XDG_CONFIG_HOME', async () => {
      mkdirSync(join(dir, 'home', '.config', 'jp'), {recursive: true})
      writeFileSync(join(dir, 'home', '.config', 'jp', 'config.toml'), '[editor]\nbackend = "home"\n')
      const c = await loadConfig({cwd: dir, env: {HOME: join(dir, 'home')}})
      expect(c.editor.backend).to.equal('home')
    })

    it('resolves JP_CFG_* names whose keys contain underscores, and parses values as TOML', async () => {
      const c = await load({
        env: {
          JP_CFG_INTERRUPT_STREAMING_COMPOSE_IN_EDITOR: 'true',
          JP_CFG_INTERRUPT_TOOL_CALL_COMPOSE_IN_EDITOR: 'always',
          JP_CFG_INTERRUPT_ESCALATION_COOLDOWN_SECS: '7',
          JP_CFG_EDITOR_CMD: 'code --wait',
          JP_CFG_EDITOR_ENVS: '["A", "B"]',
          JP_CFG_CONVERSATION_TOOLS_RUN_TESTS_RUN: 'unattended',
        },
      })
      expect(c.interrupt.streaming.compose_in_editor).to.equal(true)
      expect(c.interrupt.tool_call.compose_in_editor).to.equal('always')
      expect(c.interrupt.escalation_cooldown_secs).to.equal(7)
      expect(c.editor.cmd).to.equal('code --wait')
      expect(c.editor.envs).to.deep.equal(['A', 'B'])
      expect(c.conversation.tools.run_tests.run).to.equal('unattended')
    })

    it('a JP_CFG_ value that parses as a number still sets a string key', async () => {
      const c = await load({env: {JP_CFG_EDITOR_BACKEND: '42'}})
      expect(c.editor.backend).to.equal('42')
    })

    it('accepts editor.cmd as a table and fills args and shell', async () => {
      writeFileSync(wsFile, '[editor.cmd]\nprogram = "code"\nargs = ["--wait"]\n')
      const c = await load()
      expect(c.editor.cmd).to.deep.equal({program: 'code', args: ['--wait'], shell: false})
      // a later string replaces the table rather than merging into it
      expect((await load({cfgArgs: ['editor.cmd=vim']})).editor.cmd).to.equal('vim')
    })

    it('accepts tool entries with parameters, and tool defaults come from conversation.tools.*', async () => {
      writeFileSync(
        wsFile,
        [
          "[conversation.tools.'*']",
          'result = "ask"',
          '[conversation.tools.grep]',
          'source = "local"',
          'command = { program = "./grep.sh", args = ["-n"] }',
          'summary = "search"',
          '[conversation.tools.grep.parameters.pattern]',
          'type = "string"',
          'description = "regex"',
          'required = true',
          '[conversation.tools.grep.parameters.mode]',
          'type = "string"',
          'enum = ["a", "b"]',
          '[conversation.tools.grep.parameters.paths]',
          'type = "array"',
          'items = { type = "string" }',
        ].join('\n'),
      )
      const c = await load()
      const t = resolveToolConfig(c.conversation.tools, 'grep')!
      expect(t.run).to.equal('ask')
      expect(t.result).to.equal('ask')
      expect(t.command).to.deep.equal({program: './grep.sh', args: ['-n'], shell: false})
      expect(t.parameters?.pattern).to.deep.equal({type: 'string', description: 'regex', required: true})
      expect(t.parameters?.mode.enum).to.deep.equal(['a', 'b'])
      expect(t.parameters?.paths.items).to.deep.equal({type: 'string'})
    })
  })

  describe('errors', () => {
    it('bad TOML syntax names file, line and column', async () => {
      writeFileSync(wsFile, '[editor]\nbackend = "x"\ninline = = 3\n')
      const e = await loadError()
      expect(e.message).to.match(new RegExp(`^${wsFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+: invalid TOML: `))
      expect(e.line).to.equal(3)
      expect(e.message).to.not.include('\n')
    })

    it('an unknown key names file, its line, the key and the known keys', async () => {
      writeFileSync(wsFile, '# comment\n[editor]\nbackend = "x"\n  colour = "red"\n')
      const e = await loadError()
      expect(e.message).to.equal(`${wsFile}:4:3: editor.colour: unknown key (expected one of: cmd, envs, backend, inline)`)
    })

    it('unbalanced quoting in editor.cmd or a tool command stops loading, naming file, line and key', async () => {
      writeFileSync(wsFile, '[editor]\ncmd = "code \\"--wait"\n')
      let e = await loadError()
      expect(e.message).to.equal(`${wsFile}:2:1: editor.cmd: cannot split into words: Got EOF while in a quoted string`)
      writeFileSync(wsFile, "[conversation.tools.grep]\ncommand = \"grep 'x\"\n")
      e = await loadError()
      expect(e.message).to.match(/:2:1: conversation\.tools\.grep\.command: cannot split into words/)
    })

    it('a wrong type in a valid file names the line of the key and the expected type', async () => {
      writeFileSync(wsFile, '[interrupt.streaming]\naction = "stop"\ncompose_in_editor = "sometimes"\n')
      const e = await loadError()
      expect(e.message).to.equal(
        `${wsFile}:3:1: interrupt.streaming.compose_in_editor: expected false | true | "always" | "never", got "sometimes"`,
      )
    })

    it('a wrong type in the user file is reported against that file', async () => {
      writeFileSync(userFile, 'interrupt.escalation_cooldown_secs = "soon"\n')
      const e = await loadError()
      expect(e.message).to.equal(`${userFile}:1:1: interrupt.escalation_cooldown_secs: expected number >= 0, got "soon"`)
    })

    it('a table editor.cmd without program is an error', async () => {
      writeFileSync(wsFile, '[editor]\ncmd = { args = ["-w"] }\n')
      const e = await loadError()
      expect(e.message).to.match(/:2:1: editor\.cmd\.program: missing/)
    })

    it('a bad JP_CFG_ value names the variable, the key and the expected type', async () => {
      const e = await loadError({env: {JP_CFG_EDITOR_INLINE_EDIT_MODE: 'nano'}})
      expect(e.message).to.equal('JP_CFG_EDITOR_INLINE_EDIT_MODE: editor.inline.edit_mode: expected "emacs" | "vi", got "nano"')
    })

    it('a JP_CFG_ variable matching no key is an error naming it', async () => {
      const e = await loadError({env: {JP_CFG_EDITOR_COLOUR: 'red'}})
      expect(e.message).to.equal('JP_CFG_EDITOR_COLOUR: no configuration key matches this variable')
    })

    it('a bad --cfg value, an unknown --cfg key and a missing --cfg file are errors', async () => {
      expect((await loadError({cfgArgs: ['interrupt.tool_call.action=explode']})).message).to.equal(
        '--cfg: interrupt.tool_call.action: expected "prompt" | "continue" | "restart" | "respond" | "stop", got "explode"',
      )
      expect((await loadError({cfgArgs: ['editor.colour=red']})).message).to.match(/^--cfg: editor\.colour: unknown key/)
      expect((await loadError({cfgArgs: ['missing.toml']})).message).to.equal('--cfg missing.toml: is neither KEY=VALUE nor an existing file')
    })

    it('a broken --cfg file names its path, line and column', async () => {
      const f = join(dir, 'bad.toml')
      writeFileSync(f, '[editor.inline]\nedit_mode = "vim"\n')
      const e = await loadError({cfgArgs: [f]})
      expect(e.message).to.equal(`${f}:2:1: editor.inline.edit_mode: expected "emacs" | "vi", got "vim"`)
    })

    it('a bad conversation config layer names its source', async () => {
      const e = await loadConfig({cwd: dir, env, conversationConfig: {editor: {envs: 'EDITOR'}}, conversationConfigSource: '/x/base_config.json'}).catch(
        (err: unknown) => err as ConfigError,
      )
      expect((e as ConfigError).message).to.equal('/x/base_config.json: editor.envs: expected array of string, got "EDITOR"')
    })
  })

  describe('exported helpers', () => {
    it('parseConfigToml validates and returns the layer', async () => {
      expect(await parseConfigToml('[assistant.model]\nid = "a/b"\n', 'doc')).to.deep.equal({assistant: {model: {id: 'a/b'}}})
      const e = await parseConfigToml('[assistant.model]\nid = 3\n', 'QUERY_MESSAGE.md').catch((err: unknown) => err as Error)
      expect((e as Error).message).to.equal('QUERY_MESSAGE.md:2:1: assistant.model.id: expected string, got 3')
    })

    it('validatePartial rejects unknown keys; mergeConfig merges tables and replaces arrays', () => {
      expect(() => validatePartial({nope: 1}, 'x')).to.throw(ConfigError, 'x: nope: unknown key')
      const merged = mergeConfig(defaultConfig({}), {editor: {envs: ['ONLY']}, interrupt: {streaming: {action: 'stop'}}})
      expect(merged.editor.envs).to.deep.equal(['ONLY'])
      expect(merged.interrupt.streaming).to.deep.equal({action: 'stop', compose_in_editor: false})
    })
  })
})
