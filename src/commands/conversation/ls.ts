import {Flags} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import {sanitizeUntrusted, untrustedJson} from '../../lib/text/untrusted.js'

export default class ConversationLs extends JpCommand {
  static summary = 'List the conversations of the workspace'
  static description = `Pinned first, then most recently active. \`*\` marks the active conversation. With --format json, one JSON object per line.

Outside any .jp/ workspace, conversations are kept per directory (the git repository's top level, else the current directory): only this directory's are listed, unless --all is given (then this directory's come first).`
  static aliases = ['c:ls']
  static flags = {
    all: Flags.boolean({char: 'a', description: "Outside a workspace: every directory's conversations, this directory's first."}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(ConversationLs)
    const store = await this.store()
    let list
    try {
      list = await store.list()
    } catch (e) {
      this.fail(e)
    }
    const scope = store.workspace.scope
    if (scope !== undefined) {
      const here = list.filter((c) => c.directory === scope)
      list = flags.all ? [...here, ...list.filter((c) => c.directory !== scope)] : here
    }
    if (this.format() === 'json') {
      for (const c of list) process.stdout.write(untrustedJson({...c, title: c.title ?? null}) + '\n')
      return
    }
    if (list.length === 0) {
      this.say(scope === undefined || flags.all ? `No conversations in ${store.workspace.root} yet.` : `No conversations for ${scope} yet (--all: every directory's).`)
      return
    }
    const {default: stringWidth} = await import('string-width')
    const wide = scope !== undefined && flags.all
    // Titles come from piped queries and cloned repositories: never raw to the terminal.
    const rows = [
      ['', 'ID', 'TITLE', 'LAST ACTIVE', ...(wide ? ['DIRECTORY'] : [])],
      ...list.map((c) => [
        c.active ? '*' : ' ',
        sanitizeUntrusted(c.id),
        sanitizeUntrusted(c.error ? `(unreadable: ${c.error})` : `${c.pinned_at ? '📌 ' : ''}${c.title ?? '(untitled)'}`),
        sanitizeUntrusted(shortTime(c.last_activated_at ?? c.created_at)),
        ...(wide ? [sanitizeUntrusted(c.directory ?? '-')] : []),
      ]),
    ]
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => stringWidth(r[i]))))
    for (const r of rows) {
      const line = r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i] - stringWidth(cell)))).join('  ')
      process.stdout.write(line.trimEnd() + '\n')
    }
  }
}

function shortTime(iso: string | undefined): string {
  if (!iso) return '-'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`
}
