// `jp config show [--origin]`, `jp config get KEY`, `jp config set KEY VALUE
// [--user|--workspace]` (issue 26 finding 4), in-process with @oclif/test.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {makeSandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

describe('jp config show / get / set', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let userFile: string
  let wsFile: string
  const jp = (args: string[], opts: {env?: NodeJS.ProcessEnv; cwd?: string} = {}) => runInProcess(args, {sandbox: sb, ...opts})
  beforeEach(async () => {
    sb = makeSandbox()
    userFile = join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml')
    wsFile = join(sb.cwd, '.jp', 'config.toml')
    expect((await jp(['init', '--yes'])).exitCode).to.equal(0)
  })
  afterEach(() => sb.cleanup())

  const COMMENTED = `# my workspace, my comments

[assistant.model]
# which model
id = "openai/gpt-4o"   # trailing comment

[editor]
cmd = "vim"
`

  describe('set', () => {
    it('changes a value in place, keeping comments, order and the other values', async () => {
      writeFileSync(wsFile, COMMENTED)
      const r = await jp(['config', 'set', 'assistant.model.id', 'anthropic/claude-sonnet-4-5'])
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(r.stderr).to.equal(`jp: set assistant.model.id in ${wsFile}\n`)
      expect(readFileSync(wsFile, 'utf8')).to.equal(COMMENTED.replace('"openai/gpt-4o"', '"anthropic/claude-sonnet-4-5"'))
    })

    it('adds a key to its table, or a new table at the end', async () => {
      writeFileSync(wsFile, COMMENTED)
      expect((await jp(['config', 'set', 'editor.backend', 'terminal'])).exitCode).to.equal(0)
      expect((await jp(['config', 'set', 'interrupt.escalation_cooldown_secs', '3'])).exitCode).to.equal(0)
      expect((await jp(['config', 'set', 'editor.envs', '["VISUAL", "EDITOR"]'])).exitCode).to.equal(0)
      expect(readFileSync(wsFile, 'utf8')).to.equal(
        COMMENTED.replace('cmd = "vim"\n', 'cmd = "vim"\nbackend = "terminal"\nenvs = ["VISUAL", "EDITOR"]\n') + '\n[interrupt]\nescalation_cooldown_secs = 3\n',
      )
      const show = await jp(['config', 'get', 'interrupt.escalation_cooldown_secs'])
      expect(show.stdout).to.equal('3\n')
    })

    it('takes a string key’s text as typed (as -c does) and writes it as a TOML string', async () => {
      const r = await jp(['config', 'set', '--user', 'editor.cmd', `code --wait "a b" 'c'`])
      expect(r.exitCode, r.stderr).to.equal(0)
      expect(readFileSync(userFile, 'utf8')).to.equal(`[editor]\ncmd = "code --wait \\"a b\\" 'c'"\n`)
      expect((await jp(['config', 'get', 'editor.cmd'], {cwd: sb.dir})).stdout).to.equal(`code --wait "a b" 'c'\n`)
    })

    it('without --user or --workspace: the workspace inside one, else the user config', async () => {
      expect((await jp(['config', 'set', 'assistant.model.id', 'openai/a'])).exitCode).to.equal(0)
      expect(readFileSync(wsFile, 'utf8')).to.match(/^id = "openai\/a"$/m)
      expect(existsSync(userFile)).to.equal(false)
      const outside = join(sb.dir, 'elsewhere')
      mkdirSync(outside)
      expect((await jp(['config', 'set', 'assistant.model.id', 'openai/b'], {cwd: outside})).exitCode).to.equal(0)
      expect(readFileSync(userFile, 'utf8')).to.equal('[assistant.model]\nid = "openai/b"\n')
      // -w DIR still picks the workspace (config set's own --workspace is the switch).
      expect((await jp(['config', 'set', '--workspace', '-w', sb.cwd, 'editor.backend', 'x'], {cwd: outside})).exitCode).to.equal(0)
      expect(readFileSync(wsFile, 'utf8')).to.match(/^backend = "x"$/m)
    })

    it('is validated as a loaded file: a bad value is one line naming the key, and nothing is written', async () => {
      writeFileSync(wsFile, COMMENTED)
      for (const [key, value, problem] of [
        ['interrupt.escalation_cooldown_secs', '-1', 'Error: jp config set: interrupt.escalation_cooldown_secs: expected number >= 0, got -1\n'],
        ['editor.inline.edit_mode', 'nano', 'Error: jp config set: editor.inline.edit_mode: expected "emacs" | "vi", got "nano"\n'],
        ['editor.cmd', 'vim "unclosed', /^Error: jp config set: editor\.cmd: cannot split into words/],
        // As a query checks it: PROVIDER/MODEL with a provider jp knows.
        ['assistant.model.id', 'nonsense', 'Error: jp config set: assistant.model.id: invalid model id "nonsense": expected PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5\n'],
        ['assistant.model.id', 'foo/bar', /^Error: jp config set: assistant\.model\.id: unknown provider "foo" in model id "foo\/bar" \(known: echo, anthropic/],
      ] as const) {
        const r = await jp(['config', 'set', key, value])
        expect(r.exitCode, key).to.equal(1)
        if (typeof problem === 'string') expect(r.stderr).to.equal(problem)
        else expect(r.stderr).to.match(problem)
        expect(readFileSync(wsFile, 'utf8')).to.equal(COMMENTED)
      }
    })

    it('an unknown key is a usage error with the nearest key', async () => {
      const r = await jp(['config', 'set', 'assistant.model.ids', 'x'])
      expect(r).to.deep.include({exitCode: 2, stderr: "Error: unknown config key 'assistant.model.ids'; did you mean 'assistant.model.id'?\nSee 'jp config set --help'.\n"})
    })

    it('refuses an untrusted workspace the keys jp ignores there, with the trust hint; others are written', async () => {
      const repo = join(sb.dir, 'cloned')
      mkdirSync(join(repo, '.jp'), {recursive: true})
      writeFileSync(join(repo, '.jp', 'config.toml'), '# from the repository\n')
      const r = await jp(['config', 'set', 'providers.llm.openai.base_url', 'http://127.0.0.1:9/v1'], {cwd: repo})
      expect(r.exitCode).to.equal(1)
      expect(r.stderr).to.equal(
        `Error: ${join(repo, '.jp', 'config.toml')}: providers.llm.openai.base_url: not set: the workspace ${repo} is not trusted, and jp ignores this key there; if you trust it, run: jp trust ${repo} (or set it for yourself with --user)\n`,
      )
      expect(readFileSync(join(repo, '.jp', 'config.toml'), 'utf8')).to.equal('# from the repository\n')
      expect((await jp(['config', 'set', 'editor.inline.edit_mode', 'vi'], {cwd: repo})).exitCode).to.equal(0)
      expect((await jp(['trust'], {cwd: repo})).exitCode).to.equal(0)
      expect((await jp(['config', 'set', 'providers.llm.openai.base_url', 'http://127.0.0.1:9/v1'], {cwd: repo})).exitCode).to.equal(0)
      expect(readFileSync(join(repo, '.jp', 'config.toml'), 'utf8')).to.equal(
        '# from the repository\n\n[editor.inline]\nedit_mode = "vi"\n\n[providers.llm.openai]\nbase_url = "http://127.0.0.1:9/v1"\n',
      )
      // The user's own edit of a trusted workspace extends the trust (issue 28): obeyed, no notice.
      const got = await jp(['config', 'get', 'providers.llm.openai.base_url'], {cwd: repo})
      expect(got.stdout.trim(), got.stderr).to.equal('http://127.0.0.1:9/v1')
      expect(got.stderr).not.to.include('jp trust')
    })
  })

  describe('show and get', () => {
    it('show prints the merged configuration as TOML; --origin names each value’s layer', async () => {
      mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
      writeFileSync(userFile, '[editor]\ncmd = "nvim"\n')
      writeFileSync(wsFile, '[assistant.model]\nid = "openai/gpt-4o"\n')
      const env = {JP_CFG_INTERRUPT_ESCALATION_COOLDOWN_SECS: '4', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1'}
      const plain = await jp(['config', 'show', '-c', 'editor.inline.edit_mode=vi'], {env})
      expect(plain.exitCode, plain.stderr).to.equal(0)
      expect(plain.stdout).to.include('[assistant.model]\nid = "openai/gpt-4o"\n')
      expect(plain.stdout).to.not.include('#')
      const origin = await jp(['config', 'show', '--origin', '-c', 'editor.inline.edit_mode=vi'], {env})
      const lines = origin.stdout.split('\n')
      expect(lines).to.include(`id = "openai/gpt-4o"   # ${wsFile}`)
      expect(lines).to.include(`cmd = "nvim"   # ${userFile}`)
      expect(lines).to.include('escalation_cooldown_secs = 4   # JP_CFG_INTERRUPT_ESCALATION_COOLDOWN_SECS')
      expect(lines).to.include('edit_mode = "vi"   # --cfg')
      expect(lines).to.include('base_url = "http://127.0.0.1:9/v1"   # $OPENAI_BASE_URL')
      expect(lines).to.include('backend = "terminal"   # default')
      // What it prints is a config jp loads back to the same values.
      writeFileSync(join(sb.dir, 'shown.toml'), origin.stdout)
      const again = await jp(['config', 'show', '-c', join(sb.dir, 'shown.toml')])
      expect(again.stdout).to.equal((await jp(['config', 'show', '-c', 'editor.inline.edit_mode=vi'], {env})).stdout)
    })

    it('get prints a string as it is, a table as TOML; a key with a default prints it; a key with no value exits 1', async () => {
      writeFileSync(wsFile, '')
      expect(await jp(['config', 'get', 'editor.inline.edit_mode'])).to.deep.include({exitCode: 0, stdout: 'emacs\n'})
      expect(await jp(['config', 'get', 'assistant.model.id'])).to.deep.include({exitCode: 1, stdout: '', stderr: 'Error: assistant.model.id is not set\n'})
      writeFileSync(wsFile, '[assistant.model]\nid = "openai/gpt-4o"\n')
      expect(await jp(['config', 'get', 'assistant.model.id'])).to.deep.include({exitCode: 0, stdout: 'openai/gpt-4o\n'})
      expect((await jp(['config', 'get', 'editor.inline'])).stdout).to.equal('[editor.inline]\nedit_mode = "emacs"\ncomplete_mentions = "tab"\n')
      expect(await jp(['config', 'get', 'editor.cmd'])).to.deep.include({exitCode: 1, stdout: '', stderr: 'Error: editor.cmd is not set\n'})
    })
  })
})
