import {Args, Flags} from '@oclif/core'
import {existsSync} from 'node:fs'
import {JpCommand} from '../../lib/cli/base-command.js'
import {sanitizeUntrusted} from '../../lib/text/untrusted.js'

const which = ['events', 'metadata', 'base-config']

export default class ConversationPath extends JpCommand {
  static summary = "Print the absolute path of a conversation's directory or one of its files"
  static aliases = ['c:path']
  static args = {id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true})}
  static flags = {
    events: Flags.boolean({char: 'e', description: 'events.json', exclusive: which.filter((w) => w !== 'events')}),
    metadata: Flags.boolean({char: 'm', description: 'metadata.json', exclusive: which.filter((w) => w !== 'metadata')}),
    'base-config': Flags.boolean({char: 'b', description: 'base_config.json', exclusive: which.filter((w) => w !== 'base-config')}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ConversationPath)
    const store = await this.store()
    const id = args.id ?? (await store.activeId())
    if (!id) this.fail("no active conversation; pass an ID (see 'jp conversation ls')")
    try {
      if (!(await store.exists(id))) {
        const {ConversationNotFoundError} = await import('../../lib/conversation/store.js')
        throw new ConversationNotFoundError(id, store.workspace.root)
      }
      const p = store.paths(id)
      if (flags.events) await foldJournal(store, id)
      const out = flags.events ? p.events : flags.metadata ? p.metadata : flags['base-config'] ? p.baseConfig : p.dir
      process.stdout.write(out + '\n')
    } catch (e) {
      this.fail(e)
    }
  }
}

/**
 * Whoever asks for events.json's path means to read it: fold the journal
 * (events.log) in first, unless another jp is writing the conversation.
 */
async function foldJournal(store: import('../../lib/conversation/store.js').ConversationStore, id: string): Promise<void> {
  let release: () => Promise<void>
  try {
    release = await store.lock(id, {waitMs: 0})
  } catch {
    // In use: its writer folds the journal only if the conversation is small.
    if (existsSync(store.paths(id).eventsLog)) {
      process.stderr.write(`jp: ${sanitizeUntrusted(id)} is in use by another jp; events.json may not hold its newest events yet (they are in events.log)\n`)
    }
    return
  }
  try {
    await store.compactEvents(id)
  } finally {
    await release()
  }
}
