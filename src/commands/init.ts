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

  /**
   * Asks on the terminal (never stdin); undefined without a terminal. When a
   * configured provider lists its models (as `jp models` does), they are
   * offered in a list filtered as you type; otherwise, or on Esc or "Type a
   * model id", the id is typed.
   */
  private async askModel(): Promise<string | undefined> {
    const {hasTty} = await import('../lib/terminal/tty.js')
    if (!hasTty()) return undefined
    const offered = await this.offeredModels()
    if (offered.length > 0) {
      const picked = await this.pickModel(offered)
      if (picked !== TYPE_ONE) return picked
    }
    const {askQuestion} = await import('../lib/inquire/question.js')
    let typed: string
    try {
      typed = await askQuestion('Default model (PROVIDER/MODEL, empty for the offline echo/default):', {
        // A malformed id is named under the answer, which stays to be fixed.
        validate: (answer) => answer.trim() === '' || MODEL_RE.test(answer.trim()) || `'${answer.trim()}' is not PROVIDER/MODEL (e.g. anthropic/claude-sonnet-4-5)`,
      })
    } catch {
      this.fail('cancelled; no workspace was created')
    }
    return typed.trim() || undefined
  }

  /** The ids the configured providers list (those that answer within a few seconds); none when the config does not load. */
  private async offeredModels(): Promise<string[]> {
    const {listModels} = await import('../lib/llm/models.js')
    const {PROVIDER_NAMES} = await import('../lib/config/providers.js')
    let providers
    try {
      // The user's config (and --cfg): where the providers' URLs and key variables are set. One that does not load offers nothing.
      const {loadWorkspaceConfig} = await import('../lib/conversation/config.js')
      const {findWorkspace} = await import('../lib/conversation/workspace.js')
      const workspace = await findWorkspace({cwd: process.cwd(), env: process.env})
      providers = (await loadWorkspaceConfig({workspace, cfgArgs: this.cfgArgs(), cwd: process.cwd(), env: process.env, notice: () => {}})).providers.llm
    } catch {
      return []
    }
    const listings = await listModels(providers, PROVIDER_NAMES, process.env, OFFER_TIMEOUT_MS)
    return listings.flatMap((l) => ('models' in l ? l.models.map((m) => m.id) : [])).filter((id) => MODEL_RE.test(id))
  }

  /** The list: the offered ids filtered as you type, then "Type a model id" and "None". Esc is "Type a model id". */
  private async pickModel(offered: string[]): Promise<string | undefined> {
    const {searchList} = await import('../lib/inquire/search-list.js')
    const {fuzzyScore} = await import('../lib/conversation/resume.js')
    const {sanitizeUntrusted} = await import('../lib/text/untrusted.js')
    const {isPromptCancelled} = await import('../lib/inquire/types.js')
    const always = [
      {value: TYPE_ONE, name: 'Type a model id…'},
      {value: '', name: 'None: the offline echo/default'},
    ]
    const source = (term: string) => [
      ...offered
        .map((id, i) => [fuzzyScore(term, id), i, id] as const)
        .filter((row): row is readonly [number, number, string] => row[0] !== undefined)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map(([, , id]) => ({value: id, name: sanitizeUntrusted(id)})),
      ...always,
    ]
    try {
      const picked = await searchList('Default model (type to filter):', {pageSize: 8, source})
      return picked === '' ? undefined : picked
    } catch (error) {
      if (isPromptCancelled(error) && error.reason === 'cancelled') return TYPE_ONE
      this.fail('cancelled; no workspace was created')
    }
  }
}

/** The list's row that asks for a typed id instead (a value no model id can be). */
const TYPE_ONE = '\u0000type'

/** How long init waits for the providers' lists before asking for a typed id. */
const OFFER_TIMEOUT_MS = 3000

/** The new workspace's config.toml; `model` is already a TOML string. */
function configTemplate(model: string | undefined): string {
  const id = model ? `id = ${model}` : '# id = "anthropic/claude-sonnet-4-5"   # PROVIDER/MODEL; unset = offline echo/default'
  return `# jp workspace configuration. Layers: defaults < ~/.config/jp/config.toml <
# this file < the conversation's config < JP_CFG_* < --cfg.

[assistant.model]
${id}
`
}
