// The compose step of `jp query`: the query text as given, or composed in
// the editor (SPEC §9) when asked for or when nothing was given on a
// terminal. The shell around `composeQuery` picks the draft path, gathers the
// history, reports the outcome on stderr, and hands the turn a handle on the
// draft (moved to a new conversation's path, removed only once the turn
// succeeded).
import type {EditorConfig} from '../config/editor.js'
import type {Config} from '../config/types.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import type {EditorBackend} from '../editor/types.js'
import type {InlinePromptSettings} from '../inquire/terminal-backend.js'
import {noEditorMessage} from '../conversation/edit-policy.js'
import {queryModelId} from '../config/defaults.js'
import {adoptDraft, composeQuery, discardDraft} from './draft.js'
import {QueryError, userFacing} from './errors.js'
import {userQueries} from '../conversation/events.js'

export const EMPTY_QUERY_NOTICE = 'Query is empty, ignoring.'
export const CANCELLED_NOTICE = 'The editor was cancelled; nothing was sent.'
export const INLINE_CANCELLED_NOTICE = 'Cancelled; nothing was sent (your text is kept for the next jp query).'

export interface DraftHandle {
  path: string
  /** The edited configuration block, to record as a `config_delta` event. */
  delta?: Record<string, unknown>
  /** Moves a new conversation's draft to the conversation once it exists. */
  adopt(id: string): Promise<void>
  discard(): Promise<void>
}

export type ComposeInEditorResult =
  | {type: 'query'; text: string; draft: DraftHandle; setsModel: boolean}
  | {type: 'empty'}
  | {type: 'cancelled'}

export interface ComposeInEditorOptions {
  editor: EditorBackend | undefined
  editorConfig: Pick<EditorConfig, 'envs'>
  store: ConversationStore
  workspace: Workspace
  /** The conversation this query continues; undefined for a new one. */
  id: string | undefined
  /** Query text already given (arguments and stdin), seeding the document. */
  query: string
  /** The effective config; an edited block is merged into it in place, so the rest of the query sees it. */
  config: Config
  modelFlag?: string
  printer: {notice(line: string): void; flush?(): Promise<void>}
  /**
   * On a terminal the query is composed by `query.compose_in_editor` (inline
   * first by default); without one only the editor can compose it.
   */
  terminal?: {preferEditor: boolean}
  /** The inline prompt's keys, editor name and wider search. */
  inline?: InlinePromptSettings
}

export async function composeInEditor(opts: ComposeInEditorOptions): Promise<ComposeInEditorResult> {
  const noEditor = `${noEditorMessage(opts.editorConfig)}; or pass the query as arguments (with -E to never open the editor)`
  if (!opts.editor && !opts.terminal) throw new QueryError(noEditor)
  const draftPath = opts.store.draftPath(opts.id ?? null)
  const events = opts.id ? (await opts.store.load(opts.id)).events : undefined
  const modelId = queryModelId(opts.modelFlag, opts.config)
  const cwd = await editorCwd(opts.workspace.root)

  const result: Awaited<ReturnType<typeof composeQuery>> | {type: 'cancelled'; inline?: boolean} = await userFacing(async () => {
    if (opts.terminal) {
      const {composeOnTerminal} = await import('./surface.js')
      const {TerminalPromptBackend} = await import('../inquire/terminal-backend.js')
      return composeOnTerminal({
        backend: new TerminalPromptBackend({inline: opts.inline}),
        editor: opts.editor,
        noEditorReason: noEditorMessage(opts.editorConfig),
        editMode: opts.config.editor.inline.edit_mode,
        mode: opts.config.query.compose_in_editor,
        preferEditor: opts.terminal.preferEditor,
        draftPath,
        cwd,
        seed: opts.query,
        config: opts.config,
        modelId,
        events,
        history: events && userQueries(events),
        notice: async (line) => {
          opts.printer.notice(line)
          await opts.printer.flush?.()
        },
      })
    }
    return composeQuery({editor: opts.editor!, draftPath, cwd, seed: opts.query, config: opts.config, modelId, events})
  })

  if (result.type === 'empty') {
    opts.printer.notice(EMPTY_QUERY_NOTICE)
    return result
  }
  if (result.type === 'cancelled') {
    opts.printer.notice('inline' in result && result.inline ? INLINE_CANCELLED_NOTICE : CANCELLED_NOTICE)
    return result
  }

  let setsModel = false
  if (result.delta) {
    const {mergeConfig} = await import('../config/load.js')
    Object.assign(opts.config, mergeConfig(opts.config, result.delta))
    setsModel = result.delta.assistant?.model?.id !== undefined
  }
  let path = draftPath
  const draft: DraftHandle = {
    get path() {
      return path
    },
    delta: result.delta as Record<string, unknown> | undefined,
    async adopt(id) {
      const to = opts.store.draftPath(id)
      await adoptDraft(path, to)
      path = to
    },
    discard: () => discardDraft(path),
  }
  return {type: 'query', text: result.text, draft, setsModel}
}

// The default workspace's directory appears only with its first conversation;
// until then the editor runs where jp was started.
async function editorCwd(root: string): Promise<string> {
  const {stat} = await import('node:fs/promises')
  try {
    if ((await stat(root)).isDirectory()) return root
  } catch {
    // not created yet
  }
  return process.cwd()
}

export interface QueryTextOptions extends Omit<ComposeInEditorOptions, 'modelFlag'> {
  flags: {edit: boolean; noEdit: boolean; model?: string}
  /** Whether a terminal is there to run the editor on. */
  interactive: boolean
}

/** The text to send, with its draft and the `--model` still in force; `nothing` when the editor sent nothing. */
export type QueryText = {type: 'send'; text: string; draft?: DraftHandle; modelFlag?: string; composed?: boolean} | {type: 'nothing'}

/**
 * The compose step: the editor opens with `-e`, or on a terminal when no
 * query was given (not with `-E`). A model set in the edited config block
 * overrides `--model`. An empty query is a QueryError saying how to give one.
 */
export async function composeQueryText(opts: QueryTextOptions): Promise<QueryText> {
  let text = opts.query
  let draft: DraftHandle | undefined
  let modelFlag = opts.flags.model
  let composedHere = false
  if (opts.flags.edit || (text === '' && opts.interactive && !opts.flags.noEdit)) {
    const terminal = opts.interactive ? {preferEditor: opts.flags.edit} : undefined
    const composed = await composeInEditor({...opts, modelFlag, terminal})
    if (composed.type !== 'query') return {type: 'nothing'}
    text = composed.text
    draft = composed.draft
    composedHere = true
    if (composed.setsModel) modelFlag = undefined
  }
  if (text === '') {
    throw new QueryError(
      opts.interactive
        ? 'no query given: pass it as arguments or on stdin (without -E, jp opens your editor to compose it)'
        : 'no query given: pass it as arguments or pipe it on stdin (no terminal to compose it in an editor)',
    )
  }
  return {type: 'send', text, draft, modelFlag, composed: composedHere}
}
