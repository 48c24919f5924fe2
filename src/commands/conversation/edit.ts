import {Args, Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {sanitizeUntrusted} from '../../lib/text/untrusted.js'
import {WRITER_LOCK_WAIT_MS} from '../../lib/conversation/lock.js'

export default class ConversationEdit extends JpCommand {
  static summary = "Edit a conversation's files in your editor, or set its title and pin"
  static description = `Opens the conversation's directory (or, with --events/--metadata/--base-config, those files of every ID) in one editor run. The files are checked when the editor exits: a cancelled editor or content that does not load back leaves the conversation exactly as it was (on a terminal you can re-open the editor to fix it).

--title and --pin/--no-pin change the metadata without an editor.`

  static aliases = ['c:e', 'c:edit']
  static strict = false
  static args = {id: Args.string({description: 'Conversation id(s) (default: the active one)', ignoreStdin: true})}
  static flags = {
    events: Flags.boolean({char: 'e', description: 'Edit events.json.'}),
    metadata: Flags.boolean({char: 'm', description: 'Edit metadata.json.'}),
    'base-config': Flags.boolean({char: 'b', description: 'Edit base_config.json.'}),
    title: Flags.string({description: 'Set the title (no editor).', helpValue: 'TEXT'}),
    pin: Flags.boolean({description: 'Pin (--no-pin: unpin) the conversation (no editor).', allowNo: true}),
  }

  async run(): Promise<void> {
    const {argv, flags} = await this.parse(ConversationEdit)
    const store = await this.store()
    let ids = [...new Set(argv as string[])]
    if (ids.length === 0) {
      const active = await store.activeId()
      if (!active) this.fail("no active conversation; pass an ID (see 'jp conversation ls')")
      ids = [active]
    }

    const edit = await import('../../lib/conversation/edit.js')
    const properties = flags.title !== undefined || flags.pin !== undefined
    const filesChosen = flags.events || flags.metadata || flags['base-config']
    const wantsEditor = !properties || filesChosen

    // Resolved before any lock is taken: a broken config or a missing editor changes nothing.
    let editor: import('../../lib/editor/types.js').EditorBackend | undefined
    if (wantsEditor) {
      const config = await this.loadConfig()
      const {EditorConfig} = await import('../../lib/config/editor.js')
      const editorConfig = new EditorConfig(config.editor, {env: process.env})
      editor = await this.editorBackend(editorConfig)
      if (!editor) this.fail(edit.noEditorMessage(editorConfig.envs))
    }

    const releases: Array<() => Promise<void>> = []
    let failure: unknown
    try {
      for (const id of ids) {
        if (!(await store.exists(id))) {
          const {ConversationNotFoundError} = await import('../../lib/conversation/store.js')
          throw new ConversationNotFoundError(id, store.workspace.root)
        }
        releases.push(await store.lock(id, {waitMs: WRITER_LOCK_WAIT_MS}))
      }

      if (properties) {
        for (const id of ids) {
          const {metadata} = await store.load(id)
          await store.saveMetadata(id, edit.applyProperties(metadata, {title: flags.title, pin: flags.pin}))
        }
      }

      if (editor) {
        // events.json alone must hold every event while it is edited: fold the journal in first.
        for (const id of ids) await store.compactEvents(id)
        const {hasTty} = await import('../../lib/terminal/tty.js')
        const plan = edit.planEdit(
          ids.map((id) => store.paths(id)),
          {events: flags.events, metadata: flags.metadata, baseConfig: flags['base-config']},
        )
        await edit.editConversationFiles(plan, {
          editor,
          cwd: store.workspace.root,
          confirmReopen: hasTty() ? confirmOnTty : undefined,
          report: (line) => process.stderr.write(sanitizeUntrusted(line, {multiline: true}) + '\n'),
        })
      }
    } catch (e) {
      failure = e
    }
    for (const release of releases) await release().catch(() => {})
    if (failure !== undefined) this.fail(failure)
  }
}

/** A yes/no question on the controlling terminal (never stdin); Enter means yes. */
async function confirmOnTty(message: string): Promise<boolean> {
  const {inlineSelect} = await import('../../lib/inquire/inline-select.js')
  const answer = await inlineSelect({
    message,
    options: [
      {key: 'y', description: 're-open the editor with your edit'},
      {key: 'n', description: 'discard the edit'},
    ],
    default: 'y',
  })
  return answer === 'y'
}
