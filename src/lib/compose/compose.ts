// "Collect text on a surface, with a fallback": the one place that applies the
// `compose_in_editor` rules (SPEC §7, §17). Inline-first modes (`false`,
// `"never"`) start in the inline widget; editor-first modes (`true`,
// `"always"`) open the editor first, and when it cannot open `true` falls
// back to the widget while `"always"` gives up. What an empty text means is
// the caller's (SPEC §8.4): this only reports what happened.
//
// `composeText` collects plain text (the interrupt menus' reply). `compose`
// is the same loop over a caller's own editor side and results: the query
// (query/surface.ts) edits the QUERY_MESSAGE.md document instead of the text,
// and gives up with an error rather than a menu.
import type {ComposeInEditor} from '../config/types.js'
import type {CancelReason} from '../inquire/types.js'
import {errorMessage} from '../text/one-line.js'
import {type ComposeDeps, editInline, type EditorEscape, editorNotice, type InlineEditResult, isNonBlank, NO_EDITOR_REASON, textEscape, withoutFinalNewline} from './inline.js'
import {editorEscape, startsInEditor} from './editor-modes.js'

export interface ComposeRequest {
  /** The inline widget's prompt line. */
  message: string
  /** Where to start and what to fall back to. */
  mode: ComposeInEditor
  /** The text either surface starts with (the editor's file, the widget's buffer). */
  seed?: string
  /** What the inline widget starts with when it differs from `seed` (a draft typed earlier). */
  inlineSeed?: string
  /** Whether the inline widget offers the conversation's history on Up/Down. */
  withHistory?: boolean
  /** Whether the widget wires Ctrl+X (default: every mode but `"never"`). */
  editorEscape?: boolean
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

/** A composition's editor side and how its surfaces' ends become the caller's result `R`. */
export interface ComposeSurfaces<R> {
  /** Editor-first: the editor opened on `seed`; rejects when it cannot open. */
  editorFirst(seed: string): Promise<R>
  /** Ctrl+X from the widget (see EditorEscape). */
  escape: EditorEscape<R>
  /** The widget was submitted or cancelled. */
  inlineEnded(result: InlineEditResult): R | Promise<R>
  /** `"always"` and the editor cannot open: `reason` says why, `failed` whether it was tried and failed (else there is none). */
  editorGone(reason: string, failed: boolean): R | Promise<R>
}

/**
 * Collects text by the request's mode and reports how the surface ended,
 * blank or not: a saved editor is a submit of its text (emptied too), a
 * cancelled editor or `"always"` without one a cancel with the seed. For a
 * caller to whom an emptied text means something (the queued reply: withdraw it).
 */
export function composeSubmission(deps: ComposeDeps, request: ComposeRequest): Promise<InlineEditResult> {
  const seed = request.seed ?? ''
  return compose<InlineEditResult>(deps, request, {
    async editorFirst(text) {
      const edited = await deps.editor!.editText(text)
      return edited.outcome === 'saved' ? {type: 'submit', text: withoutFinalNewline(edited.text)} : {type: 'cancelled', reason: 'cancelled', text}
    },
    escape: (buffer) => textEscape(deps.editor!)(buffer),
    inlineEnded: (result) => result,
    async editorGone(reason) {
      await deps.notice(editorNotice(reason, request.onEditorGone ?? 'Returning to the menu.'))
      return {type: 'cancelled', reason: 'cancelled', text: seed}
    },
  })
}

/** Collects text by the request's mode. Editor-first: a saved non-blank text, else `cancelled` (the user bailed). */
export function composeText(deps: ComposeDeps, request: ComposeRequest): Promise<ComposeOutcome> {
  return compose<ComposeOutcome>(deps, request, {
    async editorFirst(seed) {
      const edited = await deps.editor!.editText(seed)
      if (edited.outcome === 'saved' && isNonBlank(edited.text)) {
        deps.typedDraft?.clear()
        return {type: 'text', text: withoutFinalNewline(edited.text), fromEditor: true}
      }
      return {type: 'cancelled'}
    },
    escape: (buffer) => textEscape(deps.editor!)(buffer),
    inlineEnded(result) {
      if (result.type === 'cancelled') return {type: 'cancelled', reason: result.reason}
      // Already on screen in the widget: the caller must not echo it again.
      return isNonBlank(result.text) ? {type: 'text', text: result.text, fromEditor: false} : {type: 'empty'}
    },
    async editorGone(reason) {
      await deps.notice(editorNotice(reason, request.onEditorGone ?? 'Returning to the menu.'))
      return {type: 'cancelled'}
    },
  })
}

/** The composition loop over `surfaces`: editor first or inline by the request's mode, with SPEC §7's fallbacks. */
export async function compose<R>(deps: ComposeDeps, request: ComposeRequest, surfaces: ComposeSurfaces<R>): Promise<R> {
  if (startsInEditor(request.mode)) {
    let reason: string
    let failed = false
    if (deps.editor === undefined) {
      reason = deps.noEditorReason ?? NO_EDITOR_REASON
    } else {
      try {
        return await surfaces.editorFirst(request.seed ?? '')
      } catch (error) {
        reason = errorMessage(error)
        failed = true
      }
    }
    if (request.mode === 'always') return surfaces.editorGone(reason, failed)
    await deps.notice(editorNotice(reason, 'Continuing with the inline editor.'))
  }

  const result = await editInline(
    deps,
    {
      message: request.message,
      initialText: request.inlineSeed ?? request.seed,
      editorEscape: request.editorEscape ?? editorEscape(request.mode),
      withHistory: request.withHistory ?? true,
    },
    surfaces.escape,
  )
  return result.type === 'done' ? result.value : surfaces.inlineEnded(result)
}
