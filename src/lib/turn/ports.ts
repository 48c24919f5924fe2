// The ports of a turn: what the turn loop (turn-loop.ts) needs from the
// world, in four named parts instead of one flat bag — the request (who is
// asked, and how), the tools (what the model may call, and how they run), the
// store (the conversation's events and how they reach the disk) and the
// screen (what is shown, the keys and signals that interrupt, the prompts and
// the queued reply). Each has a test double in test/helpers/turn-ports.ts.
import type {ToolConfig} from '../config/types.js'
import type {ConversationEvent, QueuedDelivery} from '../conversation/events.js'
import type {StreamedChunk} from '../conversation/streamed-chunk.js'
import type {InterruptHandler} from '../interrupt/handler.js'
import type {SignalRouter} from '../interrupt/signals.js'
import type {Provider, ReasoningSetting, ToolDefinition} from '../llm/types.js'
import type {Printer} from '../printer/printer.js'
import type {ToolRunFn} from '../tool/coordinator.js'
import type {ToolPrompter} from '../tool/prompter.js'

/** Who is asked and how: the provider, the model and the request's settings. */
export interface RequestPort {
  provider: Provider
  model: string
  system?: string
  reasoning?: ReasoningSetting
  maxTokens?: number
  temperature?: number
}

/** What the model may call and how a call runs. */
export interface ToolsPort {
  /** Offered to the model with each request. */
  definitions: ToolDefinition[]
  /** `conversation.tools` of the merged config, `'*'` included. */
  configs: Record<string, ToolConfig>
  enabled: ReadonlySet<string>
  /** Those `-t` named (consent to run them without a terminal). */
  explicit: ReadonlySet<string>
  run: ToolRunFn
  /**
   * Tools that join each request once their source is ready (MCP servers):
   * asked for before every request, added to the others for that step.
   */
  more?: () => Promise<MoreTools>
  /** What is wrong with a call's arguments against its tool's schema, checked before any prompt (undefined: nothing). */
  checkArguments?: (name: string, args: Record<string, unknown>) => string | undefined
}

/** The tools `ToolsPort.more` adds to one request. */
export interface MoreTools {
  definitions: ToolDefinition[]
  configs: Record<string, ToolConfig>
  enabled: ReadonlySet<string>
  /** Those `-t` named (consent to run them without a terminal). */
  explicit: ReadonlySet<string>
}

/** The conversation's events and how they reach the disk. */
export interface StorePort {
  /** The conversation's events; the loop appends to it in place. */
  events: ConversationEvent[]
  /** Writes what changed in `events` to disk. */
  persist: () => Promise<void>
  /**
   * Appends streamed text to `events[index][key]` in memory and writes only
   * that text (without it: changed in place, then `persist`).
   */
  appendText?: (index: number, key: 'message', chunk: StreamedChunk) => Promise<void>
  /** How often the answer is written while it streams (default 1000 ms): a crash loses at most this much. */
  recordEveryMs?: number
  /** Makes `events` whole before a request is built from them (a very large answer is kept on disk only). */
  completeEvents?: () => Promise<void>
}

/** The user's side: what is shown, the keys and signals that interrupt, the prompts and the queued reply. */
export interface ScreenPort {
  printer: Printer
  router?: SignalRouter
  /** Present when a terminal can show prompts. */
  interactive?: {interrupts: InterruptHandler; prompter: ToolPrompter}
  /** The queued reply, on a terminal (SPEC §18): its slot, type to queue and the countdown. */
  queue?: TurnQueue
  /** The files a reply typed on the terminal mentions (`@PATH`, SPEC §19), read as `-a` reads them; rejects with one line. */
  mentions?: (text: string) => Promise<ReadonlyArray<{path: string; content: string}>>
}

/** A turn's ports, and the files sent with its query. */
export interface TurnDeps {
  request: RequestPort
  tools: ToolsPort
  store: StorePort
  screen: ScreenPort
  /** Files sent with the query (`jp query -a`), stored as `attachment` events after it. */
  attachments?: ReadonlyArray<{path: string; content: string}>
}

/** What the turn loop needs of the queued reply. */
export interface TurnQueue {
  /** What is queued now (undefined: nothing). */
  pending(): string | undefined
  /** The queued reply goes out as the next turn: the slot is empty again. */
  take(): string
  /**
   * While a phase works (waiting, streaming, a tool running) a typed key
   * opens the `Queue:` prompt, unless `canOpen()` is false; returns the end of it.
   */
  armTyping(canOpen?: () => boolean): () => void
  /** Resolves once no `Queue:` prompt is open. */
  idle(): Promise<void>
  /** The countdown before sending: `send` (run out, Enter), `keep` (Ctrl+C) or `shutdown`. */
  countdown(): Promise<'send' | 'keep' | 'shutdown'>
  /** Whether a `Queue:` prompt is open now (the slot is being edited: not taken from under it). */
  composing?(): boolean
  /** `interrupt.queue_delivery` (SPEC §19); undefined: `turn_end`. */
  delivery?: QueuedDelivery
  /**
   * Next-step delivery: what is queued leaves the slot now (undefined:
   * nothing); the draft keeps it until `delivered` (the message is stored
   * by then), so a crash in between loses nothing.
   */
  takeForStep?(): string | undefined
  /** The reply taken by `takeForStep` is in the stored conversation: the draft lets go of it. */
  delivered?(): Promise<void>
  /** A delivered reply whose turn was discarded (`a`): the draft holds it again. */
  restore?(text: string): Promise<void>
}

/** The tools ready now: `tools` with those `more` adds for this step (the request and its calls see the same list). */
export async function toolsForStep(tools: ToolsPort): Promise<ToolsPort> {
  if (!tools.more) return tools
  const more = await tools.more()
  if (more.definitions.length === 0) return tools
  const definitions = [...tools.definitions, ...more.definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {
    ...tools,
    definitions,
    configs: {...tools.configs, ...more.configs},
    enabled: new Set([...tools.enabled, ...more.enabled]),
    explicit: new Set([...tools.explicit, ...more.explicit]),
  }
}
