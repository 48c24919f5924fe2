import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../lib/cli/base-command.js'

// No blanks and no control characters: an id is written into config.toml and shown in messages.
const MODEL_RE = /^[A-Za-z0-9._-]+\/[^\s\u0000-\u001f\u007f-\u009f]+$/

export default class Init extends JpCommand {
  // The configuration: this command makes a workspace; the next command checks what it wrote.
  static override configCheck = 'none' as const
  static summary = 'Create a jp workspace (.jp/) in DIR'
  static description =
    'Creates DIR/.jp/config.toml and DIR/.jp/conversations/ and trusts the new workspace (see jp trust). On a terminal, asks for the default model unless --model or --yes is given; without a terminal it never asks. An existing config.toml is left unchanged and is not trusted by init.'
  static examples = ['<%= config.bin %> init', '<%= config.bin %> init ~/project --model anthropic/claude-sonnet-4-5']

  static args = {dir: Args.string({description: 'Directory to initialise', default: '.', ignoreStdin: true})}

  static flags = {
    model: Flags.string({char: 'm', helpValue: 'PROVIDER/MODEL', description: 'Default model for this workspace'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask anything; use defaults'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Init)
    const {resolve, join} = await import('node:path')
    const {existsSync} = await import('node:fs')
    const root = resolve(args.dir)
    const configPath = join(root, '.jp', 'config.toml')
    const hadConfig = existsSync(configPath)
    const hadJpDir = existsSync(join(root, '.jp'))

    let model = flags.model?.trim()
    if (model === undefined && !flags.yes && !hadConfig) model = await this.askModel()
    if (model && !MODEL_RE.test(model)) this.fail(`--model ${model}: expected PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5`)

    const {initWorkspace} = await import('../lib/conversation/workspace.js')
    const {writeFile} = await import('node:fs/promises')
    const {tomlString} = await import('../lib/config/toml-text.js')
    const config = configTemplate(model === undefined ? undefined : tomlString(model))
    try {
      // What init writes must load: checked before anything is created.
      const {parseConfigToml} = await import('../lib/config/parse.js')
      if (!hadConfig) await parseConfigToml(config, `--model ${model ?? ''}`)
      const ws = await initWorkspace(root)
      const trust = await import('../lib/conversation/trust-store.js')
      if (hadConfig) this.say(`jp: ${configPath} already exists; left unchanged`)
      else await writeFile(configPath, config, {flag: 'wx'})
      // What jp creates, the user chose: trusted. A .jp/ that was already there
      // (a cloned repository's config or conversations) is not trusted by init.
      // What the template sets: no restricted key, so the trust covers none yet.
      if (!hadJpDir) await trust.trustWorkspace(root, {}, process.env)
      else if (!(await trust.isTrusted(root, process.env))) {
        this.say(`jp: ${ws.jpDir} existed before 'jp init', so it is not trusted; review it, then run: jp trust ${root}`)
      }
      this.say(`Initialized jp workspace in ${ws.jpDir}`)
    } catch (e) {
      this.fail(e)
    }
  }

  /** Asks on the terminal (never stdin): a list of the providers' models, else a typed id; undefined without a terminal. */
  private async askModel(): Promise<string | undefined> {
    const {hasTty} = await import('../lib/terminal/tty.js')
    if (!hasTty()) return undefined
    const {askModelId} = await import('../lib/cli/model-choice.js')
    try {
      return await askModelId(this.cfgArgs(), MODEL_RE)
    } catch {
      this.fail('cancelled; no workspace was created')
    }
  }
}

/** The new workspace's config.toml; `model` is already a TOML string. */
function configTemplate(model: string | undefined): string {
  const id = model ? `id = ${model}` : '# id = "anthropic/claude-sonnet-4-5"   # PROVIDER/MODEL; unset = offline echo/default'
  return `# jp workspace configuration. Layers: defaults < ~/.config/jp/config.toml <
# this file < the conversation's config < JP_CFG_* < --cfg.

[assistant.model]
${id}
`
}
