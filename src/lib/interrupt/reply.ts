// Collecting free text from the user: the inline widget with its Ctrl+X escape
// to the editor (editInline), and the interrupt menus' reply flow over the four
// `compose_in_editor` modes (collectReply). The meaning of an empty submit is
// left to the caller (SPEC §8.4); these functions only report what happened.
import {editorEscape, startsInEditor} from '../config/compose.js'
import type {ComposeInEditor, EditMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import {isPromptCancelled, type PromptBackend} from '../inquire/types.js'

/** What the reply flows need from the outside world. */
export interface ReplyDeps {
  backend: PromptBackend
  /** `undefined` when no editor is configured: Ctrl+X then does nothing. */
  editor: EditorBackend | undefined
  editMode: EditMode
  /** One line of chrome on stderr (notices about the editor). */
  notice: (line: string) => void
  /** Earlier replies of this conversation, oldest first (Up/Down history). */
  history?: string[] | (() => string[])
  /** Why there is no editor, for the notice; defaults to NO_EDITOR_REASON. */
  noEditorReason?: string
}

export const NO_EDITOR_REASON = 'no editor is configured (set editor.cmd, $JP_EDITOR, $VISUAL or $EDITOR)'

export type ReplyResult =
  | {type: 'reply'; text: string; fromEditor: boolean}
  | {type: 'empty'}
  | {type: 'cancelled'}

/** The inline widget's final answer once the editor escape has been handled. */
export type InlineEditResult = {type: 'submit'; text: string} | {type: 'cancelled'}

export function isNonBlank(text: string): boolean {
  return text.trim() !== ''
}

export function editorNotice(reason: string, then: string): string {
  return `⚠ Couldn't open your editor: ${reason}. ${then}`
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function historyOf(deps: ReplyDeps): string[] | undefined {
  return typeof deps.history === 'function' ? deps.history() : deps.history
}

/**
 * Runs the inline widget until the user submits or cancels. Ctrl+X opens the
 * editor seeded with the buffer and always comes back to the widget: saved →
 * the buffer becomes the editor's text (even empty); cancelled → the buffer is
 * kept; a spawn/I-O failure → a notice and the buffer is kept; no editor →
 * nothing happens. Ctrl+C (or a prompt rejected as cancelled) is `cancelled`.
 */
export async function editInline(
  deps: ReplyDeps,
  request: {message: string; initialText?: string; editorEscape: boolean; withHistory?: boolean},
): Promise<InlineEditResult> {
  let buffer = request.initialText ?? ''
  for (;;) {
    let outcome
    try {
      outcome = await deps.backend.inlineReply({
        message: request.message,
        initialText: buffer,
        editMode: deps.editMode,
        editorEscape: request.editorEscape,
        ...(request.withHistory ? {history: historyOf(deps)} : {}),
      })
    } catch (error) {
      if (isPromptCancelled(error)) return {type: 'cancelled'}
      throw error
    }

    if (outcome.type === 'submit') return {type: 'submit', text: outcome.text}
    if (outcome.type === 'cancelled') return {type: 'cancelled'}

    buffer = outcome.currentText
    // A widget that reports the escape although it was unwired is ignored:
    // the user asked for no editor.
    if (!request.editorEscape || deps.editor === undefined) continue
    try {
      const edited = await deps.editor.editText(buffer)
      if (edited.outcome === 'saved') buffer = edited.text
    } catch (error) {
      deps.notice(editorNotice(errorText(error), 'Keeping your text.'))
    }
  }
}

/**
 * The interrupt menus' reply (SPEC §7). Inline-first modes (`false`,
 * `"never"`) start in the widget; editor-first modes (`true`, `"always"`) open
 * the editor seeded empty, where a saved non-blank text is the reply and an
 * empty or cancelled editor is `cancelled` (the user bailed: back to the menu).
 * When the editor cannot open, `true` continues in the inline widget and
 * `"always"` returns to the menu, each with a notice.
 */
export async function collectReply(deps: ReplyDeps, message: string, compose: ComposeInEditor): Promise<ReplyResult> {
  if (!startsInEditor(compose)) return inlineReply(deps, message, editorEscape(compose))

  if (deps.editor === undefined) return editorUnavailable(deps, message, compose, deps.noEditorReason ?? NO_EDITOR_REASON)
  let edited
  try {
    edited = await deps.editor.editText('')
  } catch (error) {
    return editorUnavailable(deps, message, compose, errorText(error))
  }

  if (edited.outcome === 'saved' && isNonBlank(edited.text)) return {type: 'reply', text: edited.text, fromEditor: true}
  return {type: 'cancelled'}
}

async function editorUnavailable(
  deps: ReplyDeps,
  message: string,
  compose: ComposeInEditor,
  reason: string,
): Promise<ReplyResult> {
  if (compose === 'always') {
    deps.notice(editorNotice(reason, 'Returning to the menu.'))
    return {type: 'cancelled'}
  }

  deps.notice(editorNotice(reason, 'Continuing with the inline editor.'))
  return inlineReply(deps, message, editorEscape(compose))
}

async function inlineReply(deps: ReplyDeps, message: string, escape: boolean): Promise<ReplyResult> {
  const result = await editInline(deps, {message, editorEscape: escape, withHistory: true})
  if (result.type === 'cancelled') return result
  // Already on screen in the widget: the caller must not echo it again.
  return isNonBlank(result.text) ? {type: 'reply', text: result.text, fromEditor: false} : {type: 'empty'}
}
