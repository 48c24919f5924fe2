// The queued reply (SPEC §18 "Queued replies", JP D46): what the user wants
// to say next, written while the answer goes on and sent when the turn ends.
// There is one slot. `q` in a menu, or a key typed while jp works, opens the
// `Queue:` prompt seeded with what is queued; the prompt's end decides the
// slot:
//
// | the prompt ends with         | the slot                                 |
// |------------------------------|------------------------------------------|
// | submit, text unchanged       | kept                                     |
// | submit, text edited          | replaced                                 |
// | submit, blank                | cleared (the draft removed)              |
// | Ctrl+C (or an editor bailed) | unchanged                                |
//
// Ctrl+C never withdraws: it would be the only place where Ctrl+C destroys
// text the user typed. The slot itself (its text kept on disk as the
// conversation's draft) is the caller's: this is the decision only.
import type {ComposeInEditor} from '../config/types.js'
import {composeSubmission} from '../compose/compose.js'
import {type ComposeDeps, editInline, type InlineEditResult, isNonBlank} from '../compose/inline.js'
import type {CancelReason, SelectOption} from '../inquire/types.js'

export const QUEUE_PROMPT = 'Queue:'

/** The menus' `q` (SPEC §18 pins its help text). */
export const QUEUE_OPTION: SelectOption = {key: 'q', description: 'queue a reply (finish, then send it)'}

/** The one queued reply: a cache over the conversation's draft, which is written before `set` resolves. */
export interface ReplySlot {
  /** What is queued now; undefined: nothing. */
  readonly text: string | undefined
  /** Queues `text` in place of what was queued. */
  set(text: string): Promise<void>
  /** Withdraws what was queued (the user emptied it). */
  clear(): Promise<void>
}

export type QueueResult =
  /** Something is queued (new, edited or kept as it was): back to what was happening. */
  | {type: 'queued'; text: string}
  /** Submitted blank: nothing is queued now. */
  | {type: 'cleared'}
  /** Backed out of (Ctrl+C: `reason` 'interrupted'; a cancelled editor): the slot is as it was. */
  | {type: 'unchanged'; reason?: CancelReason}

export interface QueueRequest {
  /** Where a menu's `q` composes (that menu's `compose_in_editor`). */
  mode: ComposeInEditor
  /**
   * Typed while jp works: the inline prompt at the bottom, its first keys
   * already typed (read as typeahead), the answer printing above it. What
   * is queued comes first, on a line of its own, so the keys add to it.
   * No editor escape: the answer would have to stop for an editor.
   */
  typed?: boolean
}

/** Opens the `Queue:` prompt seeded with the slot and applies the slot rules to how it ends. */
export async function queueReply(deps: ComposeDeps, slot: ReplySlot, request: QueueRequest): Promise<QueueResult> {
  const before = slot.text
  const ended = request.typed ? await typedPrompt(deps, before) : await menuPrompt(deps, before ?? '', request.mode)
  if (ended.type === 'cancelled') return {type: 'unchanged', reason: ended.reason}
  if (!isNonBlank(ended.text)) {
    if (before !== undefined) await slot.clear()
    return {type: 'cleared'}
  }
  if (ended.text !== before) await slot.set(ended.text)
  return {type: 'queued', text: ended.text}
}

function typedPrompt(deps: ComposeDeps, before: string | undefined): Promise<InlineEditResult> {
  return editInline(deps, {
    message: QUEUE_PROMPT,
    initialText: before === undefined ? '' : `${before}\n`,
    editorEscape: false,
    withHistory: true,
    overlay: true,
  })
}

/** A menu's `q`: the context's surface (inline or editor first), with compose_in_editor's fallbacks. */
function menuPrompt(deps: ComposeDeps, seed: string, mode: ComposeInEditor): Promise<InlineEditResult> {
  // An emptied, saved editor withdraws the reply, as an emptied submit does.
  return composeSubmission(deps, {message: QUEUE_PROMPT, mode, seed, withHistory: true})
}
