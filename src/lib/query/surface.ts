// Where a query is composed on a terminal (SPEC §17 "Query composition", JP
// RFD 093): inline first by default, the full QUERY_MESSAGE.md document one
// Ctrl+X away, the editor first for `query.compose_in_editor = true |
// "always"` (or `-e`). The editor side is `composeQuery` (the document, not
// the text) and `"always"` without an editor is an error, not a menu; the
// loop itself is compose/compose.ts's, the interrupt reply's too.
import {dirname, join} from 'node:path'
import type {PartialConfig} from '../config/load.js'
import type {ComposeInEditor, EditMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import type {PromptBackend} from '../inquire/types.js'
import {compose} from '../compose/compose.js'
import {type ComposeDeps, isNonBlank} from '../compose/inline.js'
import {INLINE_QUERY_FILE, TypedDraft} from '../compose/typed-draft.js'
import {errorMessage} from '../text/one-line.js'
import {composeQuery, configProblem, draftDelta, readQueryDraft, writeInlineQuery, type ComposeOptions, type ComposeResult} from './draft.js'

export const QUERY_PROMPT = 'Query:'
export const DRAFT_CONFIG_NOTICE = 'Applying config from the query draft.'

/** The query document's options (draft, seed, config, model, events), plus the surfaces. */
export interface SurfaceOptions extends Omit<ComposeOptions, 'editor' | 'bufferWins'> {
  backend: PromptBackend
  editor: EditorBackend | undefined
  /** Why there is no editor (for the notices and errors). */
  noEditorReason: string
  editMode: EditMode
  /** `query.compose_in_editor` as configured. */
  mode: ComposeInEditor
  /** `-e`: prefer the editor for this invocation. */
  preferEditor: boolean
  /** Earlier queries of the conversation, oldest first (Up/Down). */
  history?: string[]
  /** One line of chrome, on screen before the promise resolves (so a prompt opened next is drawn below it). */
  notice(line: string): Promise<void>
}

export type SurfaceResult =
  | {type: 'query'; text: string; delta?: PartialConfig}
  | {type: 'empty'}
  /** `inline`: Ctrl+C at the inline prompt (not a cancelled editor). */
  | {type: 'cancelled'; inline?: boolean}

/** A composition that cannot go on; the message says how to recover. */
export class QueryDraftError extends Error {
  override readonly name = 'QueryDraftError'
}

/** `-e` turns an inline-first mode into editor-first; it never re-enables the inline fallback `"always"` refuses. */
export function effectiveMode(mode: ComposeInEditor, preferEditor: boolean): ComposeInEditor {
  if (!preferEditor) return mode
  return mode === false || mode === 'never' ? true : mode
}

export async function composeOnTerminal(opts: SurfaceOptions): Promise<SurfaceResult> {
  const mode = effectiveMode(opts.mode, opts.preferEditor)
  const typed = new TypedDraft(join(dirname(opts.draftPath), INLINE_QUERY_FILE))
  const draft = await readQueryDraft(opts.draftPath)

  // A draft that does not parse is never rebuilt behind the user's back: it
  // goes to the editor with its error, or jp stops and keeps it.
  const problem = draft?.configToml === undefined ? undefined : await configProblem(draft.configToml, `${opts.draftPath} (Active Configuration)`)
  if (problem !== undefined) {
    if (mode === 'never' || opts.editor === undefined) throw brokenDraft(opts, problem, opts.editor === undefined ? opts.noEditorReason : undefined)
    try {
      return await inEditor(opts, opts.seed, false)
    } catch (error) {
      throw brokenDraft(opts, problem, errorMessage(error))
    }
  }

  // The one compose loop (compose/compose.ts), over the query document.
  const deps: ComposeDeps = {
    backend: opts.backend,
    editor: opts.editor,
    editMode: opts.editMode,
    notice: opts.notice,
    history: opts.history ?? [],
    noEditorReason: opts.noEditorReason,
    typedDraft: typed,
  }
  return compose<SurfaceResult>(
    deps,
    {
      message: QUERY_PROMPT,
      mode,
      seed: opts.seed,
      inlineSeed: opts.seed.trim() !== '' ? opts.seed : (typed.read() ?? draft?.query ?? ''),
      editorEscape: mode !== 'never' && opts.editor !== undefined,
    },
    {
      editorFirst: (seed) => inEditor(opts, seed, false),
      // The document gets the buffer; a cancelled or emptied document returns to the prompt with the buffer as it was.
      async escape(buffer) {
        const result = await inEditor(opts, buffer, true)
        return result.type === 'query' ? {type: 'done', value: result} : {type: 'keep'}
      },
      async inlineEnded(result) {
        if (result.type === 'cancelled') return {type: 'cancelled', inline: true}
        if (!isNonBlank(result.text)) return {type: 'empty'}
        const text = result.text.trim()
        const delta = await draftDelta(opts, draft?.configToml)
        if (delta) await opts.notice(DRAFT_CONFIG_NOTICE)
        // Kept as the draft until the turn succeeds, as an editor-composed query is.
        await writeInlineQuery(opts, text)
        return {type: 'query', text, ...(delta ? {delta} : {})}
      },
      editorGone(reason, failed) {
        throw new QueryDraftError(failed ? `couldn't open your editor: ${reason}` : `${reason}; or pass the query as arguments (with -E to never open the editor)`)
      },
    },
  )
}

function inEditor(opts: SurfaceOptions, seed: string, bufferWins: boolean): Promise<ComposeResult> {
  return composeQuery({
    editor: opts.editor!,
    draftPath: opts.draftPath,
    cwd: opts.cwd,
    seed,
    config: opts.config,
    modelId: opts.modelId,
    events: opts.events,
    bufferWins,
  })
}

function brokenDraft(opts: SurfaceOptions, problem: string, whyNoEditor: string | undefined): QueryDraftError {
  const why = whyNoEditor === undefined ? '' : ` (${whyNoEditor})`
  return new QueryDraftError(
    `the query draft ${opts.draftPath} does not parse: ${problem}. It is kept as it is${why}: set editor.cmd (or $EDITOR) and run 'jp query -e' to fix it, or edit or delete the file`,
  )
}
