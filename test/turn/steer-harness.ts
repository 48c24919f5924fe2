// Shared by the steering tests: a queued-reply slot in memory with the same
// rules as the real one (query/reply-slot.ts) — `draft` mirrors what the
// conversation's draft file would hold — and turn deps around a provider.
import {PassThrough} from 'node:stream'
import type {QueuedDelivery} from '../../src/lib/conversation/events.js'
import type {Provider} from '../../src/lib/llm/types.js'
import {Printer} from '../../src/lib/printer/printer.js'
import type {ToolPrompter} from '../../src/lib/tool/prompter.js'
import type {TurnDeps, TurnQueue} from '../../src/lib/turn/turn-loop.js'

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

export function quietPrinter(format: 'text' | 'json' = 'text', out: PassThrough = new PassThrough()): Printer {
  const err = new PassThrough()
  err.resume()
  if (out.listenerCount('data') === 0) out.resume()
  return new Printer({stdout: out, stderr: err, stdoutIsTTY: false, stderrIsTTY: false, format})
}

/** Deps for a turn whose tool `t` runs unattended (through the prompter, which runs it). */
export function steerDeps(over: Partial<TurnDeps> & {provider: Provider}): TurnDeps {
  return {
    model: 'm',
    tools: [{name: 't', description: 'a tool', parameters: {type: 'object', properties: {}}}],
    toolConfigs: {t: {command: 't', run: 'unattended', result: 'unattended'}},
    enabledTools: new Set(['t']),
    explicitTools: new Set(),
    runTool: async () => ({content: 'ok', isError: false}),
    events: [],
    persist: async () => {},
    printer: quietPrinter(),
    interactive: {
      interrupts: {} as never,
      prompter: {
        promptPermission: async (_name: string, args: unknown) => ({type: 'run', args, remember: false}),
        reviewResult: async (_name: string, content: string) => ({deliver: true, content}),
      } as unknown as ToolPrompter,
    },
    ...over,
  }
}
