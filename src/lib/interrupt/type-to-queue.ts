// Type to queue (SPEC §18): on a terminal, while jp waits for the model,
// streams an answer or runs a tool, a printable key opens the `Queue:`
// prompt at the bottom, seeded with that key (and whatever was typed after
// it: the key reader keeps those for the prompt), while the answer keeps
// printing above it through the terminal's one owner. Enter queues; Ctrl+C
// closes the prompt and goes back to the work. That Ctrl+C is still a press
// of the ladder: a second one soon after, with no menu answered, shuts
// down — but it opens no menu of its own (it is counted, not routed).
import type {Key} from '../inquire/keys.js'
import type {InterruptKeyReader} from './interrupt-key.js'
import type {QueueResult} from './queue-prompt.js'

export interface TypeToQueueDeps {
  keys: Pick<InterruptKeyReader, 'onKey'>
  /** Opens the prompt (InterruptHandler.handleTypedQueue); it must take the terminal before returning its promise. */
  openPrompt(): Promise<QueueResult | undefined>
  router: {handle(signal: 'SIGINT', options: {notify: false}): unknown}
}

/** A key that opens the `Queue:` prompt: unmodified printable text. */
export function opensQueue(key: Key): boolean {
  return key.name === 'char'
}

export class TypeToQueue {
  private open: Promise<void> | undefined

  constructor(private readonly deps: TypeToQueueDeps) {}

  /**
   * While a phase works (waiting, streaming, a tool running), a printable
   * key opens the prompt unless `canOpen()` says otherwise (a menu is on its
   * way). Returns the function that ends this.
   */
  arm(canOpen: () => boolean = () => true): () => void {
    return this.deps.keys.onKey((key) => {
      if (!opensQueue(key) || this.open || !canOpen()) return undefined
      return () => this.openPrompt()
    })
  }

  /** Whether the prompt is open now. */
  get isOpen(): boolean {
    return this.open !== undefined
  }

  /** Resolves once no `Queue:` prompt is open (a queued reply is never sent while one is). */
  async idle(): Promise<void> {
    while (this.open) await this.open
  }

  private openPrompt(): void {
    const done = this.deps
      .openPrompt()
      .then(
        (result) => {
          if (result?.type === 'unchanged' && result.reason === 'interrupted') this.deps.router.handle('SIGINT', {notify: false})
        },
        () => {},
      )
      .finally(() => {
        this.open = undefined
      })
    this.open = done
  }
}
