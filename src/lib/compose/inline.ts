// The inline surface: the inline widget with its Ctrl+X escape to the editor.
// The widget owns the buffer; the editor only ever re-seeds it (or, for a
// caller's own document such as the query's QUERY_MESSAGE.md, ends the
// composition), so whatever happens in the editor the user comes back to
// their text.
import type {EditMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import {isPromptCancelled, type CancelReason, type PromptBackend} from '../inquire/types.js'
import {errorMessage} from '../text/one-line.js'

/** What composing text needs from the outside world. */
export interface ComposeDeps {
  backend: PromptBackend
  /** `undefined` when no editor is configured: Ctrl+X then does nothing. */
  editor: EditorBackend | undefined
  editMode: EditMode
  /** One line of chrome on stderr (notices about the editor); awaited, so it is on screen before the next prompt. */
  notice: (line: string) => void | Promise<void>
  /** Earlier texts of this conversation, oldest first (Up/Down history). */
  history?: string[] | (() => string[])
  /** Why there is no editor, for the notice; defaults to NO_EDITOR_REASON. */
  noEditorReason?: string
  /** Keeps what is typed on disk as it is typed (an unsent reply survives a crash). */
  typedDraft?: TypedDraftSink
}

/** Where the inline buffer is saved as it is typed (see compose/typed-draft.ts). */
export interface TypedDraftSink {
  update(text: string): void
  /** The prompt ended without sending: write what is pending now. */
  flush(): void
  /** The text was sent or deliberately emptied. */
  clear(): void
}

/** Editors end the file with a newline the user never typed: it is not part of the text. */
export function withoutFinalNewline(text: string): string {
  return text.replace(/(?:\r?\n)+$/, '')
}

export const NO_EDITOR_REASON = 'no editor is configured (set editor.cmd, $JP_EDITOR, $VISUAL or $EDITOR)'

/**
 * The inline widget's final answer once the editor escape has been handled.
 * A cancel says why (Ctrl+C is 'interrupted') and keeps the buffer.
 */
export type InlineEditResult = {type: 'submit'; text: string} | {type: 'cancelled'; reason: CancelReason; text: string}

export interface InlineEditRequest {
  /** The prompt line shown before the buffer. */
  message: string
  /** The buffer the widget starts with. */
  initialText?: string
  /** Whether Ctrl+X opens the editor (and the help line says so). */
  editorEscape: boolean
  /** Whether Up/Down walk {@link ComposeDeps.history}. */
  withHistory?: boolean
  /** Shown dim while the buffer is empty (never part of it). */
  placeholder?: string
  /** Ends the widget from outside (a cancel with reason 'terminated'). */
  signal?: AbortSignal
  /** The widget leaves nothing on the screen when it ends, and the backend's other prompts wait for it (type to queue). */
  overlay?: boolean
  /** The text goes to the model with its `@` mentions' files (a tool result, a skip reason): they are checked before it is sent. */
  attachesMentions?: boolean
}

export function isNonBlank(text: string): boolean {
  return text.trim() !== ''
}

export function editorNotice(reason: string, then: string): string {
  return `⚠ Couldn't open your editor: ${reason}. ${then}`
}

function historyOf(deps: ComposeDeps): string[] | undefined {
  return typeof deps.history === 'function' ? deps.history() : deps.history
}

/** What the editor made of the buffer after Ctrl+X: the buffer replaced, kept as it was, or (a caller's document) the composition's result. */
export type EscapeResult<R> = {type: 'reseed'; text: string} | {type: 'keep'} | {type: 'done'; value: R}

/** Ctrl+X's editor side; rejects when the editor cannot open (the buffer is then kept, with a notice). */
export type EditorEscape<R> = (buffer: string) => Promise<EscapeResult<R>>

/** The plain-text escape: the editor edits the buffer itself; saved re-seeds it (even empty), cancelled keeps it. */
export function textEscape(editor: EditorBackend): EditorEscape<never> {
  return async (buffer) => {
    const edited = await editor.editText(buffer)
    return edited.outcome === 'saved' ? {type: 'reseed', text: withoutFinalNewline(edited.text)} : {type: 'keep'}
  }
}

/**
 * Runs the inline widget until the user submits or cancels. Ctrl+X opens the
 * editor seeded with the buffer (`escape`, default {@link textEscape}) and
 * comes back to the widget: saved → the buffer becomes the editor's text
 * (even empty); cancelled → the buffer is kept; a spawn/I-O failure → a
 * notice and the buffer is kept; no editor → nothing happens. An escape may
 * instead end the composition (`done`). Ctrl+C (or a prompt rejected as
 * cancelled) is `cancelled`.
 */
export function editInline(deps: ComposeDeps, request: InlineEditRequest): Promise<InlineEditResult>
export function editInline<R>(deps: ComposeDeps, request: InlineEditRequest, escape: EditorEscape<R>): Promise<InlineEditResult | {type: 'done'; value: R}>
export async function editInline<R>(
  deps: ComposeDeps,
  request: InlineEditRequest,
  escape?: EditorEscape<R>,
): Promise<InlineEditResult | {type: 'done'; value: R}> {
  let buffer = request.initialText ?? ''
  for (;;) {
    let outcome
    try {
      outcome = await deps.backend.inlineReply({
        message: request.message,
        initialText: buffer,
        editMode: deps.editMode,
        // No editor: Ctrl+X is neither offered nor bound (the help line must not offer what does not work).
        editorEscape: request.editorEscape && deps.editor !== undefined,
        ...(request.withHistory ? {history: historyOf(deps)} : {}),
        // The conversation's own texts (a query, a reply) carry their mentions' files, and so do the tool prompts' texts the model reads.
        ...(request.withHistory || request.attachesMentions ? {attachesMentions: true} : {}),
        ...(request.placeholder !== undefined ? {placeholder: request.placeholder} : {}),
        ...(request.signal ? {signal: request.signal} : {}),
        ...(request.overlay ? {eraseOnDone: true, background: true} : {}),
        ...(deps.typedDraft ? {onChange: (text: string) => deps.typedDraft!.update(text)} : {}),
      })
    } catch (error) {
      deps.typedDraft?.flush()
      if (isPromptCancelled(error)) return {type: 'cancelled', reason: error.reason, text: buffer}
      throw error
    }

    if (outcome.type === 'submit') {
      deps.typedDraft?.clear()
      return {type: 'submit', text: outcome.text}
    }
    if (outcome.type === 'cancelled') {
      deps.typedDraft?.flush()
      return {type: 'cancelled', reason: outcome.reason ?? 'cancelled', text: outcome.text ?? buffer}
    }

    buffer = outcome.currentText
    // A widget that reports the escape although it was unwired is ignored:
    // the user asked for no editor.
    if (!request.editorEscape || deps.editor === undefined) continue
    // What was typed is on disk before the editor opens (it may crash, or be killed).
    deps.typedDraft?.update(buffer)
    deps.typedDraft?.flush()
    let step: EscapeResult<R>
    try {
      step = await (escape ?? textEscape(deps.editor))(buffer)
    } catch (error) {
      await deps.notice(editorNotice(errorMessage(error), 'Keeping your text.'))
      continue
    }
    if (step.type === 'done') {
      deps.typedDraft?.clear()
      return step
    }
    if (step.type === 'reseed') {
      buffer = step.text
      deps.typedDraft?.update(buffer)
    }
  }
}
