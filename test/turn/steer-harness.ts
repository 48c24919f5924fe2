// Shared by the steering tests: a queued-reply slot in memory with the same
// rules as the real one (query/reply-slot.ts) — `draft` mirrors what the
// conversation's draft file would hold — and turn deps around a provider.
import type {QueuedDelivery} from '../../src/lib/conversation/events.js'
import type {Provider} from '../../src/lib/llm/types.js'
import type {ToolRunFn} from '../../src/lib/tool/coordinator.js'
import type {TurnDeps, TurnQueue} from '../../src/lib/turn/ports.js'
import {turnPorts} from '../helpers/turn-ports.js'

export class MemoryQueue implements TurnQueue {
  queued: string | undefined
  /** What the draft file holds: queued text until it is stored as delivered. */
  draft: string[] = []
  private taken: string | undefined
  constructor(readonly delivery: QueuedDelivery = 'next_step') {}

  /** The user queues (or replaces) the reply. */
  set(text: string): void {
    if (this.queued !== undefined) this.draft = this.draft.filter((t) => t !== this.queued)
    this.queued = text
    this.draft.push(text)
  }

  pending = (): string | undefined => this.queued
  take = (): string => {
    const t = this.queued!
    this.queued = undefined
    this.draft = this.draft.filter((d) => d !== t)
    return t
  }
  armTyping = () => () => {}
  idle = async () => {}
  countdown = async () => 'send' as const
  takeForStep = (): string | undefined => {
    this.taken = this.queued
    this.queued = undefined
    return this.taken
  }
  delivered = async (): Promise<void> => {
    this.draft = this.draft.filter((d) => d !== this.taken)
    this.taken = undefined
  }
  restore = async (text: string): Promise<void> => {
    this.draft.push(text)
  }
}

export {quietPrinter} from '../helpers/turn-ports.js'

/** Deps for a turn whose tool `t` runs unattended (through the prompter, which runs it). */
export function steerDeps(over: {provider: Provider; queue?: TurnQueue; runTool?: ToolRunFn}): TurnDeps {
  return turnPorts(over.provider, {tools: over.runTool ? {run: over.runTool} : {}, screen: {queue: over.queue}})
}
