import {PromptCancelledError, type InlineReplyRequest, type InlineSelectConfig, type PromptBackend, type ReplyOutcome} from './types.js'

/**
 * Scripted `PromptBackend`: FIFO queues per prompt kind. An exhausted queue
 * rejects as a cancelled prompt (and an inline reply resolves `cancelled`),
 * so a test that under-scripts sees the "user bailed" path, never a hang.
 */
export class MockPromptBackend implements PromptBackend {
  /** Every prompt shown, in order, for assertions. */
  readonly calls: Array<
    | {kind: 'select'; config: InlineSelectConfig}
    | {kind: 'reply'; request: InlineReplyRequest}
    | {kind: 'confirm'; message: string; defaultValue: boolean}
    | {kind: 'text'; message: string; defaultValue?: string}
  > = []

  private readonly selects: Array<string | PromptCancelledError> = []
  private readonly replies: ReplyOutcome[] = []
  private readonly confirms: Array<boolean | PromptCancelledError> = []
  private readonly texts: Array<string | PromptCancelledError> = []

  /** A string answers with that key; an error (e.g. `new PromptCancelledError('interrupted')`) rejects. */
  withSelectResponses(responses: Iterable<string | PromptCancelledError>): this {
    this.selects.push(...responses)
    return this
  }

  withReplyOutcomes(outcomes: Iterable<ReplyOutcome>): this {
    this.replies.push(...outcomes)
    return this
  }

  withConfirmResponses(responses: Iterable<boolean | PromptCancelledError>): this {
    this.confirms.push(...responses)
    return this
  }

  withTextResponses(responses: Iterable<string | PromptCancelledError>): this {
    this.texts.push(...responses)
    return this
  }

  async inlineSelect(config: InlineSelectConfig): Promise<string> {
    this.calls.push({kind: 'select', config})
    return answer(this.selects.shift())
  }

  async inlineReply(request: InlineReplyRequest): Promise<ReplyOutcome> {
    this.calls.push({kind: 'reply', request: {...request}})
    return this.replies.shift() ?? {type: 'cancelled'}
  }

  async confirm(message: string, defaultValue: boolean): Promise<boolean> {
    this.calls.push({kind: 'confirm', message, defaultValue})
    return answer(this.confirms.shift())
  }

  async text(message: string, defaultValue?: string): Promise<string> {
    this.calls.push({kind: 'text', message, defaultValue})
    return answer(this.texts.shift())
  }
}

function answer<T>(next: T | PromptCancelledError | undefined): T {
  if (next === undefined) throw new PromptCancelledError('cancelled', 'MockPromptBackend: queue exhausted')
  if (next instanceof PromptCancelledError) throw next
  return next
}
