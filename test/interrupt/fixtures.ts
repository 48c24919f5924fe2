// Shared builders for the interrupt-handler tests: a handler wired to the
// scripted prompt and editor backends, with the notices it printed.
import {defaultConfig} from '../../src/lib/config/defaults.js'
import type {ComposeInEditor, InterruptSection, StreamingAction, ToolCallAction} from '../../src/lib/config/types.js'
import {MockEditorBackend, type MockEditResult} from '../../src/lib/editor/mock.js'
import {MockPromptBackend} from '../../src/lib/inquire/mock.js'
import {PromptCancelledError, type InlineReplyRequest, type ReplyOutcome} from '../../src/lib/inquire/types.js'
import {InterruptHandler} from '../../src/lib/interrupt/handler.js'
import type {ReplySlot} from '../../src/lib/interrupt/queue-prompt.js'

/** An in-memory queued-reply slot recording what the handler did to it. */
export class MemorySlot implements ReplySlot {
  readonly writes: Array<{set: string} | 'clear'> = []
  constructor(public text: string | undefined = undefined) {}
  async set(text: string): Promise<void> {
    this.writes.push({set: text})
    this.text = text
  }
  async clear(): Promise<void> {
    this.writes.push('clear')
    this.text = undefined
  }
}

export interface HandlerSetup {
  selects?: Array<string | PromptCancelledError>
  replies?: ReplyOutcome[]
  /** `null`: no editor configured. */
  editor?: MockEditResult[] | null
  streaming?: {action?: StreamingAction; compose?: ComposeInEditor}
  tool?: {action?: ToolCallAction; compose?: ComposeInEditor}
  history?: string[]
  /** The ladder's answer to a Ctrl+C at a configured reply prompt (true: a second press). */
  pressAgain?: () => boolean
  /** The queued reply's slot (default: an empty one); `null`: none, so no `q`. */
  queue?: MemorySlot | null
}

export function makeHandler(setup: HandlerSetup = {}) {
  const backend = new MockPromptBackend()
    .withSelectResponses(setup.selects ?? [])
    .withReplyOutcomes(setup.replies ?? [])
  const editor = setup.editor === null ? undefined : new MockEditorBackend(setup.editor ?? [])
  const base = defaultConfig({}).interrupt
  const config: InterruptSection = {
    ...base,
    streaming: {
      action: setup.streaming?.action ?? base.streaming.action,
      compose_in_editor: setup.streaming?.compose ?? base.streaming.compose_in_editor,
    },
    tool_call: {
      action: setup.tool?.action ?? base.tool_call.action,
      compose_in_editor: setup.tool?.compose ?? base.tool_call.compose_in_editor,
    },
  }
  const notices: string[] = []
  const ladder = {escalations: 0, answered: 0}
  const slot = setup.queue === null ? undefined : (setup.queue ?? new MemorySlot())
  const handler = new InterruptHandler({
    backend,
    editor,
    config,
    editMode: 'emacs',
    notice: (line) => notices.push(line),
    history: setup.history,
    onEscalate: () => ladder.escalations++,
    onMenuAnswered: () => ladder.answered++,
    pressAgain: setup.pressAgain,
    queue: slot,
  })
  return {handler, backend, editor, notices, ladder, slot}
}

export const ctrlC = () => new PromptCancelledError('interrupted')
export const esc = () => new PromptCancelledError('cancelled')

export function submit(text: string): ReplyOutcome {
  return {type: 'submit', text}
}

export function openEditor(currentText: string): ReplyOutcome {
  return {type: 'open-editor', currentText}
}

export const cancelled: ReplyOutcome = {type: 'cancelled'}
/** Ctrl+C in the inline widget (as the terminal widget reports it). */
export const ctrlCReply: ReplyOutcome = {type: 'cancelled', reason: 'interrupted', text: ''}
/** Ctrl+D on an empty buffer. */
export const ctrlDReply: ReplyOutcome = {type: 'cancelled', reason: 'cancelled', text: ''}

export function selectMessages(backend: MockPromptBackend): string[] {
  return backend.calls.flatMap((c) => (c.kind === 'select' ? [c.config.message] : []))
}

export function replyRequests(backend: MockPromptBackend): InlineReplyRequest[] {
  return backend.calls.flatMap((c) => (c.kind === 'reply' ? [c.request] : []))
}

/** The order of prompts shown: 'select' / 'reply' / ... */
export function promptKinds(backend: MockPromptBackend): string[] {
  return backend.calls.map((c) => c.kind)
}
