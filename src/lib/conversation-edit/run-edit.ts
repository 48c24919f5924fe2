// `jp conversation edit` as one library call (SPEC §10): which conversations,
// the config and the one editor (resolved before any lock is taken, so a
// broken config or a missing editor changes nothing), every lock held while
// anything is written, the property flags, the journal folded in, then the
// edit policy of conversation/edit-policy.ts with `Re-open the editor to fix it?` on
// the terminal. The command (src/commands/conversation/edit.ts) parses the
// flags, calls this, and turns a rejection into its one-line error.
import {loadWorkspaceConfig} from '../conversation/config.js'
import {applyProperties, editConversationFiles, type FileSelection, noEditorMessage, planEdit} from '../conversation/edit-policy.js'
import {WRITER_LOCK_WAIT_MS} from '../conversation/lock.js'
import {ConversationNotFoundError, type ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import {openEditor} from '../editor/open.js'
import type {EditorBackend} from '../editor/types.js'
import type {SelectOption} from '../inquire/types.js'
import {sanitizeUntrusted} from '../text/untrusted.js'

/** The flags of `jp conversation edit`. */
export interface ConversationEditRequest {
  /** The ids given (duplicates allowed); none: the active conversation. */
  ids: readonly string[]
  files: FileSelection
  title?: string
  pin?: boolean
}

/** Where it runs: the command's workspace, store and `--cfg` layers, and where a line of chrome goes (stderr). */
export interface ConversationEditContext {
  workspace: Workspace
  store: ConversationStore
  cfgArgs: readonly string[]
  /** Writes one line of chrome (no trailing newline; already made safe for a terminal). */
  stderr(line: string): void
}

export class ConversationEditUsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConversationEditUsageError'
  }
}

/** Runs the edit; resolves when it is kept (or only properties changed), rejects with a one-line error otherwise, the conversations unchanged. */
export async function runConversationEdit(request: ConversationEditRequest, ctx: ConversationEditContext): Promise<void> {
  const {store} = ctx
  const notice = (line: string) => ctx.stderr(sanitizeUntrusted(line))
  const ids = await chooseIds(store, request.ids)
  const properties = request.title !== undefined || request.pin !== undefined
  const filesChosen = Boolean(request.files.events || request.files.metadata || request.files.baseConfig)
  const editor = !properties || filesChosen ? await commandEditor(ctx, notice) : undefined

  const releases: Array<() => Promise<void>> = []
  try {
    for (const id of ids) {
      if (!(await store.exists(id))) throw new ConversationNotFoundError(id, store.workspace.root)
      releases.push(await store.lock(id, {waitMs: WRITER_LOCK_WAIT_MS}))
    }
    if (properties) {
      for (const id of ids) {
        const {metadata} = await store.load(id)
        await store.saveMetadata(id, applyProperties(metadata, {title: request.title, pin: request.pin}))
      }
    }
    if (editor) {
      // events.json alone must hold every event while it is edited: fold the journal in first.
      for (const id of ids) await store.compactEvents(id)
      await editConversationFiles(planEdit(ids.map((id) => store.paths(id)), request.files), {
        editor,
        cwd: store.workspace.root,
        confirmReopen: await reopenPrompt(),
        report: (line) => ctx.stderr(sanitizeUntrusted(line, {multiline: true})),
      })
      // The editor wrote metadata.json behind the store's back: the listing's index must read it again.
      for (const id of ids) await store.markChanged(id)
    }
  } finally {
    for (const release of releases) await release().catch(() => {})
  }
}

/** The ids given, once each, or the active conversation. */
async function chooseIds(store: ConversationStore, given: readonly string[]): Promise<string[]> {
  if (given.length > 0) return [...new Set(given)]
  const active = await store.activeId()
  if (!active) throw new ConversationEditUsageError("no active conversation; pass an ID (see 'jp conversation ls')")
  return [active]
}

/** The command's one editor, through the init hook's helper; none configured is an error naming what to set. */
async function commandEditor(ctx: ConversationEditContext, notice: (line: string) => void): Promise<EditorBackend> {
  const config = await loadWorkspaceConfig({workspace: ctx.workspace, cfgArgs: ctx.cfgArgs, cwd: process.cwd(), env: process.env, notice})
  const {editorConfig, editor} = await openEditor(config.editor, {env: process.env, notice})
  if (!editor) throw new ConversationEditUsageError(noEditorMessage(editorConfig))
  return editor
}

/** The answers to `Re-open the editor to fix it?` (`y` is the default). */
const REOPEN_OPTIONS: SelectOption[] = [
  {key: 'y', description: 're-open the editor with your edit'},
  {key: 'n', description: 'discard the edit'},
]

/** `Re-open the editor to fix it?` on the controlling terminal (never stdin; Enter means yes), or undefined without one. */
async function reopenPrompt(): Promise<((message: string) => Promise<boolean>) | undefined> {
  const {hasTty} = await import('../terminal/tty.js')
  if (!hasTty()) return undefined
  const {TerminalPromptBackend} = await import('../inquire/terminal-backend.js')
  const prompts = new TerminalPromptBackend()
  return async (message) => (await prompts.inlineSelect({message, options: REOPEN_OPTIONS, default: 'y'})) === 'y'
}
