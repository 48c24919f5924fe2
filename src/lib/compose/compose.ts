// "Collect text on a surface, with a fallback": the one place that applies the
// `compose_in_editor` rules (SPEC §7). Inline-first modes (`false`, `"never"`)
// start in the inline widget; editor-first modes (`true`, `"always"`) open the
// editor first, and when it cannot open `true` falls back to the widget while
// `"always"` gives up. What an empty text means is the caller's (SPEC §8.4):
// this only reports what happened.
import type {ComposeInEditor} from '../config/types.js'
import type {CancelReason} from '../inquire/types.js'
import {errorMessage} from '../text/one-line.js'
import {type ComposeDeps, editInline, editorNotice, isNonBlank, NO_EDITOR_REASON, withoutFinalNewline} from './inline.js'
import {editorEscape, startsInEditor} from './modes.js'

export interface ComposeRequest {
  /** The inline widget's prompt line. */
  message: string
  /** Where to start and what to fall back to. */
  mode: ComposeInEditor
  /** The text either surface starts with (the editor's file, the widget's buffer). */
  seed?: string
  /** Whether the inline widget offers the conversation's history on Up/Down. */
  withHistory?: boolean
  /** The notice's tail when `"always"` cannot open the editor (what happens next). */
  onEditorGone?: string
}

export type ComposeOutcome =
  /** Non-blank text; `fromEditor`: it was never on screen, so the caller may echo it. */
  | {type: 'text'; text: string; fromEditor: boolean}
  /** The inline widget was submitted blank. */
  | {type: 'empty'}
  /**
   * Ctrl+C in the widget (`reason` 'interrupted'), a cancelled or empty
   * editor, or `"always"` without an editor.
   */
  | {type: 'cancelled'; reason?: CancelReason}

/** Collects text by the request's mode. Editor-first: a saved non-blank text, else `cancelled` (the user bailed). */
export async function composeText(deps: ComposeDeps, request: ComposeRequest): Promise<ComposeOutcome> {
  if (!startsInEditor(request.mode)) return inline(deps, request)

  if (deps.editor === undefined) return editorUnavailable(deps, request, deps.noEditorReason ?? NO_EDITOR_REASON)
  let edited
  try {
    edited = await deps.editor.editText(request.seed ?? '')
  } catch (error) {
    return editorUnavailable(deps, request, errorMessage(error))
  }

  if (edited.outcome === 'saved' && isNonBlank(edited.text)) {
    deps.typedDraft?.clear()
    return {type: 'text', text: withoutFinalNewline(edited.text), fromEditor: true}
  }
  return {type: 'cancelled'}
}

async function editorUnavailable(deps: ComposeDeps, request: ComposeRequest, reason: string): Promise<ComposeOutcome> {
  if (request.mode === 'always') {
    deps.notice(editorNotice(reason, request.onEditorGone ?? 'Returning to the menu.'))
    return {type: 'cancelled'}
  }

  deps.notice(editorNotice(reason, 'Continuing with the inline editor.'))
  return inline(deps, request)
}

async function inline(deps: ComposeDeps, request: ComposeRequest): Promise<ComposeOutcome> {
  const result = await editInline(deps, {
    message: request.message,
    initialText: request.seed,
    editorEscape: editorEscape(request.mode),
    withHistory: request.withHistory ?? true,
  })
  if (result.type === 'cancelled') return {type: 'cancelled', reason: result.reason}
  // Already on screen in the widget: the caller must not echo it again.
  return isNonBlank(result.text) ? {type: 'text', text: result.text, fromEditor: false} : {type: 'empty'}
}
