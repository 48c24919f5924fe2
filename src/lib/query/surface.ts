// Where a query is composed on a terminal (SPEC §17 "Query composition", JP
// RFD 093): inline first by default, the full QUERY_MESSAGE.md document one
// Ctrl+X away, the editor first for `query.compose_in_editor = true |
// "always"` (or `-e`). The editor side is `composeQuery`; this is the policy
// around it. Like RFD 093 it keeps its own small loop instead of sharing the
// interrupt reply's: the fallback target differs (an error, not a menu) and
// the editor side edits a document, not a text.
import {dirname, join} from 'node:path'
import type {PartialConfig} from '../config/load.js'
import type {ComposeInEditor, EditMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import type {PromptBackend} from '../inquire/types.js'
import {editorNotice, isNonBlank} from '../compose/inline.js'
import {startsInEditor} from '../compose/modes.js'
import {INLINE_QUERY_FILE, TypedDraft} from '../compose/typed-draft.js'
import {errorMessage} from '../text/one-line.js'
import {composeQuery, configProblem, draftDelta, readQueryDraft, writeInlineQuery, type ComposeOptions, type ComposeResult} from './compose.js'

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

  if (startsInEditor(mode)) {
    const reason = opts.editor === undefined ? opts.noEditorReason : undefined
    if (reason === undefined) {
      try {
        return await inEditor(opts, opts.seed, false)
      } catch (error) {
        if (mode === 'always') throw new QueryDraftError(`couldn't open your editor: ${errorMessage(error)}`)
        await opts.notice(editorNotice(errorMessage(error), 'Continuing with the inline editor.'))
      }
    } else {
      if (mode === 'always') throw new QueryDraftError(`${reason}; or pass the query as arguments (with -E to never open the editor)`)
      await opts.notice(editorNotice(reason, 'Continuing with the inline editor.'))
    }
  }

  const seed = opts.seed.trim() !== '' ? opts.seed : (typed.read() ?? draft?.query ?? '')
  return inline(opts, seed, typed, mode !== 'never', draft?.configToml)
}

async function inline(opts: SurfaceOptions, seed: string, typed: TypedDraft, escape: boolean, configToml: string | undefined): Promise<SurfaceResult> {
  let buffer = seed
  for (;;) {
    const outcome = await opts.backend.inlineReply({
      message: QUERY_PROMPT,
      initialText: buffer,
      editMode: opts.editMode,
      editorEscape: escape && opts.editor !== undefined,
      history: opts.history ?? [],
      onChange: (text) => typed.update(text),
    })
    if (outcome.type === 'cancelled') {
      typed.flush()
      return {type: 'cancelled', inline: true}
    }
    if (outcome.type === 'submit') {
      typed.clear()
      if (!isNonBlank(outcome.text)) return {type: 'empty'}
      const text = outcome.text.trim()
      const delta = await draftDelta(opts, configToml)
      if (delta) await opts.notice(DRAFT_CONFIG_NOTICE)
      // Kept as the draft until the turn succeeds, as an editor-composed query is.
      await writeInlineQuery(opts, text)
      return {type: 'query', text, ...(delta ? {delta} : {})}
    }

    buffer = outcome.currentText
    typed.update(buffer)
    typed.flush()
    if (!escape || opts.editor === undefined) continue
    let result: ComposeResult
    try {
      result = await inEditor(opts, buffer, true)
    } catch (error) {
      await opts.notice(editorNotice(errorMessage(error), 'Keeping your text.'))
      continue
    }
    // A cancelled or emptied document returns to the prompt with the buffer as it was.
    if (result.type === 'query') {
      typed.clear()
      return result
    }
  }
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
