// The turn loop: request → stream → tools → repeat until the model stops
// (SPEC §7, §8, §12). It ties the provider stream, the printer, the signal
// router, the interrupt menus and the tool coordinator together, and records
// every event of the turn in the conversation as it goes, so an interrupted,
// failed or killed turn keeps what it had.
import type {ToolConfig} from '../config/types.js'
import {event, userQueries, type ConversationEvent, type QueuedDelivery} from '../conversation/events.js'
import {MenuGate} from '../interrupt/gate.js'
import type {InterruptHandler, StreamingInterruptAction, TurnInterruptAction} from '../interrupt/handler.js'
import type {SignalRouter} from '../interrupt/signals.js'
import {isAbortError, type ChatRequest, type Provider, type ReasoningSetting, type StreamEvent, type ToolCallEvent, type ToolDefinition} from '../llm/types.js'
import type {Printer} from '../printer/printer.js'
import {coordinateToolCalls, endingOf, INTERRUPTED_TOOL_CALL, type ToolRunFn, type TurnEnding} from '../tool/coordinator.js'
import {TurnToolDecisions} from '../tool/decisions.js'
import type {ToolPrompter} from '../tool/prompter.js'
import {eventsToMessages} from './messages.js'
import {AnswerRecorder} from './answer-recorder.js'
import type {StreamedChunk} from '../conversation/streamed-chunk.js'
import {finishNotice, ResponseParts} from './response.js'
import {errorMessage} from '../text/one-line.js'
import {unreachable} from '../text/unreachable.js'

/** Sent as the next user message when the user continues after the stream had ended (no assistant prefill). */
export const CONTINUE_MESSAGE = 'Please continue.'
export {INTERRUPTED_TOOL_CALL} from '../tool/coordinator.js'
/** A guard against a model that calls tools forever. */
const MAX_STEPS = 100

export interface TurnDeps {
  provider: Provider
  model: string
  system?: string
  reasoning?: ReasoningSetting
  maxTokens?: number
  temperature?: number
  tools: ToolDefinition[]
  toolConfigs: Record<string, ToolConfig>
  enabledTools: ReadonlySet<string>
  explicitTools: ReadonlySet<string>
  runTool: ToolRunFn
  /**
   * Tools that join each request once their source is ready (MCP servers):
   * asked for before every request, added to `tools`, `toolConfigs` and `enabledTools` for that step.
   */
  moreTools?: () => Promise<MoreTools>
  /** What is wrong with a call's arguments against its tool's schema, checked before any prompt (undefined: nothing). */
  checkArguments?: (name: string, args: Record<string, unknown>) => string | undefined
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
  printer: Printer
  router?: SignalRouter
  /** Present when a terminal can show prompts. */
  interactive?: {interrupts: InterruptHandler; prompter: ToolPrompter}
  /** Files sent with the query (`jp query -a`), stored as `attachment` events after it. */
  attachments?: ReadonlyArray<{path: string; content: string}>
  /** The queued reply, on a terminal (SPEC §18): its slot, type to queue and the countdown. */
  queue?: TurnQueue
  /** The files a reply typed on the terminal mentions (`@PATH`, SPEC §19), read as `-a` reads them; rejects with one line. */
  mentions?: (text: string) => Promise<ReadonlyArray<{path: string; content: string}>>
}

/** The tools `TurnDeps.moreTools` adds to one request. */
export interface MoreTools {
  definitions: ToolDefinition[]
  configs: Record<string, ToolConfig>
  enabled: ReadonlySet<string>
  /** Those `-t` named (consent to run them without a terminal). */
  explicit: ReadonlySet<string>
}

/** The deps of one step: `deps` with the tools ready now (the request and its calls see the same list). */
async function withMoreTools(deps: TurnDeps): Promise<TurnDeps> {
  if (!deps.moreTools) return deps
  const more = await deps.moreTools()
  if (more.definitions.length === 0) return deps
  const tools = [...deps.tools, ...more.definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const enabledTools = new Set([...deps.enabledTools, ...more.enabled])
  return {...deps, tools, toolConfigs: {...deps.toolConfigs, ...more.configs}, enabledTools, explicitTools: new Set([...deps.explicitTools, ...more.explicit])}
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

/** A run's outcome: its last turn's, with that turn's query and how many turns ran. `kept`: Ctrl+C at the countdown. */
export type RunOutcome = TurnOutcome & {query: string; turns: number; kept?: boolean}

/**
 * The turns of one invocation (JP D46 "the turn loop"): the query's turn,
 * then, while a turn ends on its own with a reply queued, that reply as the
 * next turn after the countdown. A queued reply is never sent while a
 * prompt is open, nor after a stop, an abort, a failure or a shutdown: it
 * stays the conversation's draft.
 */
export async function runTurns(query: string, deps: TurnDeps): Promise<RunOutcome> {
  let text = query
  for (let turns = 1; ; turns++) {
    // The query's attachments go with the query only.
    const outcome = await runTurn(text, deps, turns === 1 ? undefined : 'turn_end')
    deps = {...deps, attachments: undefined}
    const queue = deps.queue
    if (outcome.type !== 'done' || !queue) return {...outcome, query: text, turns}
    // The user may be typing the reply this very moment.
    await queue.idle()
    const next = queue.pending()
    if (next === undefined) return {...outcome, query: text, turns}
    // What is about to be sent, where the countdown can be read against it.
    deps.printer.chrome(`> ${next.replace(/\n/g, '\n> ')}`)
    await deps.printer.flush()
    const end = await queue.countdown()
    if (end === 'shutdown') return {type: 'shutdown', query: text, turns}
    if (end === 'keep') return {type: 'done', query: text, turns, kept: true}
    text = queue.take()
    deps.printer.event({type: 'queued_reply', delivered: 'turn_end', text})
    // The queued reply's mentions go with it, as the query's attachments went with the query.
    const attachments = await mentionedFiles(deps, text)
    deps = {...deps, attachments}
  }
}

export type TurnOutcome =
  /** The model finished. */
  | {type: 'done'}
  /** The user stopped the turn (`s`, or Stop at the tool menu): exit 0. */
  | {type: 'stopped'}
  /** The user discarded the partial turn (`a`). */
  | {type: 'aborted'}
  /** Graceful shutdown (escalation, SIGTERM, SIGHUP): state is saved; the router exits. */
  | {type: 'shutdown'}
  /**
   * The provider failed; everything received is stored. `saved` says what:
   * the failed response's partial answer, only earlier steps of the turn, or
   * nothing — then the turn is removed from the conversation (a retry must not
   * send the query twice) and `unsent` holds its text for the draft.
   */
  | {type: 'failed'; error: unknown; saved: 'partial' | 'turn' | 'nothing'; unsent?: string}

interface StreamResult {
  partial: ResponseParts
  /** The answer's text, recorded as it streamed. */
  recorder: AnswerRecorder
  /** The interrupt decision, when the user opened the menu. */
  decision?: StreamingInterruptAction
  /** Set when the stream failed (not by our own abort). */
  error?: unknown
  /** The stream ended because graceful shutdown started. */
  shutdown: boolean
}

/** One turn; `queued`: its query is a queued reply sent after the last turn. */
export async function runTurn(query: string, deps: TurnDeps, queued?: QueuedDelivery): Promise<TurnOutcome> {
  // The turn scope: a Ctrl+C between phases (no stream, no tool running)
  // opens the turn menu; the loop waits for its answer at the next gap.
  const gate = deps.interactive ? new MenuGate(() => deps.interactive!.interrupts.handleTurnInterrupt()) : undefined
  const pop = gate ? deps.router?.push(() => gate.interrupt()) : undefined
  try {
    return await turnLoop(query, deps, gate, queued)
  } finally {
    pop?.()
  }
}

/** The turn menu's answer at a gap: undefined to go on, else a reply to send or how the turn ends. */
async function atGap(gate: MenuGate<TurnInterruptAction> | undefined): Promise<Exclude<TurnInterruptAction, {type: 'continue'}> | undefined> {
  const action = await gate?.checkpoint()
  return action === undefined || action.type === 'continue' ? undefined : action
}

/** How the turn menu's answer at a gap ends the turn, or the reply it sends (a reply goes on; escalation already started the shutdown). */
function atGapEnds(action: Exclude<TurnInterruptAction, {type: 'continue'}>): TurnOutcome | {type: 'reply'; text: string; fromEditor: boolean} {
  switch (action.type) {
    case 'reply': {
      return action
    }

    case 'stop': {
      return {type: 'stopped'}
    }

    case 'escalate': {
      return {type: 'shutdown'}
    }

    default: {
      return unreachable(action, 'turn menu action')
    }
  }
}

/** The user's reply becomes the next user message (one from the editor was never on screen: echoed), with the files it mentions. */
async function addReply(deps: TurnDeps, text: string, fromEditor: boolean): Promise<void> {
  if (fromEditor) deps.printer.chrome(`> ${text.replace(/\n/g, '\n> ')}`)
  const attachments = fromEditor ? [] : await mentionedFiles(deps, text)
  deps.events.push(event.chatRequest(text), ...attachments.map((a) => event.attachment(a.path, a.content)))
  await deps.persist()
}

/**
 * A reply's mentioned files. The prompt checked them before it let the reply
 * go; one that changed since (removed, grown) is a warning, and the reply
 * goes without it rather than be lost.
 */
async function mentionedFiles(deps: TurnDeps, text: string): Promise<ReadonlyArray<{path: string; content: string}>> {
  if (!deps.mentions) return []
  try {
    return await deps.mentions(text)
  } catch (error) {
    deps.printer.warn(`not attached: ${errorMessage(error)}`)
    return []
  }
}

async function turnLoop(query: string, deps: TurnDeps, gate: MenuGate<TurnInterruptAction> | undefined, queued?: QueuedDelivery): Promise<TurnOutcome> {
  const turnStart = deps.events.length
  deps.events.push(event.turnStart(), event.chatRequest(query, queued), ...(deps.attachments ?? []).map((a) => event.attachment(a.path, a.content)))
  await deps.persist()
  const decisions = new TurnToolDecisions()
  // The last step's tool calls were answered: the next request carries their results.
  let afterTools = false

  for (let step = 0; step < MAX_STEPS; step++) {
    const gap = await atGap(gate)
    if (gap) {
      const then = atGapEnds(gap)
      if (then.type !== 'reply') return then
      await addReply(deps, then.text, then.fromEditor)
    }
    // A graceful shutdown (SIGTERM, SIGHUP, a second Ctrl+C) that began
    // during the last phase sends nothing more to the model.
    if (deps.router?.shutdownSignal.aborted) return {type: 'shutdown'}
    if (afterTools) await deliverAtStep(deps)
    afterTools = false
    await deps.completeEvents?.()
    const step = await withMoreTools(deps)
    const result = await streamResponse(step)
    // Whatever text was still waiting is written now (a failed write ends the turn here).
    await result.recorder.close()
    const decision = result.decision

    if (decision?.type === 'abort') {
      const discarded = deps.events.splice(turnStart)
      await deps.persist()
      await restoreSteered(deps, discarded)
      deps.printer.notice('Aborted: the turn was discarded.')
      return {type: 'aborted'}
    }

    // The stream is over: what arrived is committed before anything else.
    const interrupted = decision !== undefined && decision.type !== 'resume'
    commitPartial(deps, result, interrupted || result.shutdown || result.error !== undefined)
    await deps.persist()

    if (result.shutdown || decision?.type === 'escalate') {
      return {type: 'shutdown'}
    }

    if (result.error !== undefined && decision === undefined) return failed(deps, turnStart, result)

    // Every answer of the streaming menu (abort and escalate were handled above).
    switch (decision?.type) {
      case 'stop': {
        return {type: 'stopped'}
      }

      case 'reply': {
        await addReply(deps, decision.text, decision.fromEditor)
        continue
      }

      case 'continue': {
        deps.events.push(event.chatRequest(CONTINUE_MESSAGE))
        await deps.persist()
        continue
      }

      // The stream ran to its end (resumed, or never interrupted): on to its tool calls.
      case 'resume':
      case undefined: {
        break
      }

      default: {
        return unreachable(decision, 'streaming action')
      }
    }

    const calls = result.partial.toolCalls
    if (calls.length === 0) {
      // The answer is complete; a press just now may still want to reply.
      const last = await atGap(gate)
      if (last === undefined) return {type: 'done'}
      const then = atGapEnds(last)
      if (then.type !== 'reply') return then
      await addReply(deps, then.text, then.fromEditor)
      continue
    }

    const outcome = await runTools(step, calls, decisions, async () => {
      const a = await atGap(gate)
      return a === undefined ? undefined : endingOf(a)
    })
    if (outcome === 'shutdown' || deps.router?.shutdownSignal.aborted) return {type: 'shutdown'}
    if (outcome === 'stop') return {type: 'stopped'}
    if (typeof outcome === 'object') await addReply(deps, outcome.reply, outcome.fromEditor)
    afterTools = true
  }

  deps.printer.warn(`Stopped after ${MAX_STEPS} model requests in one turn.`)
  return {type: 'stopped'}
}

/**
 * Next-step delivery (SPEC §19): a reply queued while the model worked goes
 * with the request that carries the tool results, after them. Only here, at
 * the gap before a request: no tool prompt is open (the tools are answered).
 * A `Queue:` prompt still open is not waited for (the loop goes on while the
 * user writes): what it edits stays in the slot for a later step or the
 * turn's end, never taken from under it — which would send it twice. Stored
 * before the draft lets go of it: exactly once, never lost.
 */
async function deliverAtStep(deps: TurnDeps): Promise<void> {
  const queue = deps.queue
  if (queue?.delivery !== 'next_step' || !queue.takeForStep || queue.composing?.()) return
  const text = queue.takeForStep()
  if (text === undefined) return
  // Its mentioned files go with it, as with any reply; read before the store, which comes before the draft lets go.
  const attachments = await mentionedFiles(deps, text)
  deps.events.push(event.chatRequest(text, 'next_step'), ...attachments.map((a) => event.attachment(a.path, a.content)))
  await deps.persist()
  await queue.delivered?.()
  deps.printer.chrome(`> ${text.replace(/\n/g, '\n> ')}`)
  deps.printer.event({type: 'queued_reply', delivered: 'next_step', text})
}

/** The turn was discarded (`a`): the queued replies delivered in it (at a step, or as its query at a turn's end) are queued text again, kept as the draft. */
async function restoreSteered(deps: TurnDeps, discarded: readonly ConversationEvent[]): Promise<void> {
  for (const e of discarded) {
    if (e.type === 'chat_request' && e.queued !== undefined) await deps.queue?.restore?.(String(e.content))
  }
}

/** The outcome of a failed response; a turn the model never answered at all is taken back. */
async function failed(deps: TurnDeps, turnStart: number, result: StreamResult): Promise<TurnOutcome> {
  const turn = deps.events.slice(turnStart)
  const answered = turn.some((e) => e.type === 'chat_response' || e.type === 'tool_call_request')
  if (answered) return {type: 'failed', error: result.error, saved: result.partial.empty ? 'turn' : 'partial'}
  const unsent = userQueries(turn).join('\n\n')
  deps.events.splice(turnStart)
  await deps.persist()
  return {type: 'failed', error: result.error, saved: 'nothing', unsent}
}

function request(deps: TurnDeps): ChatRequest {
  return {
    model: deps.model,
    system: deps.system,
    messages: eventsToMessages(deps.events),
    tools: deps.tools,
    maxTokens: deps.maxTokens,
    temperature: deps.temperature,
    reasoning: deps.reasoning,
  }
}

/**
 * Streams one model response to the printer. A Ctrl+C opens the interrupt
 * menu while the stream keeps arriving in the background; its output is held
 * back until the user chooses, then shown (continue) or dropped with the
 * stream (reply, stop, abort).
 */
/** The streaming menu's state, shared by the stream loop and the Ctrl+C handler. */
interface MenuState {
  /** Rendering held while the menu is open (undefined: show at once). */
  held?: Array<() => void>
  menu?: Promise<StreamingInterruptAction>
  decision?: StreamingInterruptAction
  /** The stream has ended (the menu then offers no resume). */
  ended: boolean
  /**
   * Whether what was shown so far ends a line: the menu must start on its
   * own. `printer`: as the printer says when asked (assistant text, whose
   * rendering may still be under way on another thread).
   */
  atLineStart: boolean | 'printer'
}

async function streamResponse(deps: TurnDeps): Promise<StreamResult> {
  const {printer, router} = deps
  const controller = new AbortController()
  const recorder: AnswerRecorder = new AnswerRecorder({
    events: deps.events,
    persist: deps.persist,
    appendText: deps.appendText,
    takeClosedReasoning: () => partial.takeClosedReasoning(),
    everyMs: deps.recordEveryMs ?? 1000,
    onFailure: () => controller.abort(),
  })
  const partial = new ResponseParts((piece) => recorder.add(piece))
  // Shutdown is answered at once: from here the answer's renderer is not waited for.
  const onShutdown = () => (printer.hurry('exit'), controller.abort())
  router?.shutdownSignal.addEventListener('abort', onShutdown)

  const state: MenuState = {ended: false, atLineStart: true}
  const show = (fn: () => void) => (state.held ? state.held.push(fn) : fn())
  const pop = router?.push(() => openStreamingMenu(deps, state, controller))
  // Typing while the answer comes opens `Queue:` below it (not while a menu is on its way).
  const disarm = deps.queue?.armTyping(() => state.menu === undefined)

  let error: unknown
  // Until the first rendered text (pings and empty deltas render nothing).
  const stopWaiting = printer.startStatus('Waiting')
  try {
    for await (const ev of deps.provider.stream(request(deps), controller.signal)) {
      // Recorded when shown, not when received: what arrives while the menu
      // is open is held, and a reply, stop or shutdown drops it unseen, so
      // what is saved is what the user saw (docs/decisions.md).
      show(() => partial.add(ev))
      const render = renderEvent(printer, ev, state)
      if (render) show(render)
      await printer.writable()
      await recorder.writable()
    }
  } catch (e) {
    if (!(isAbortError(e) && controller.signal.aborted)) error = e
  } finally {
    stopWaiting()
    state.ended = true
  }

  await waitForMenu(state, router)
  disarm?.()
  pop?.()
  router?.shutdownSignal.removeEventListener('abort', onShutdown)
  const shutdown = router?.shutdownSignal.aborted ?? false
  // A shutdown that cut the answer with no menu open (SIGTERM, SIGHUP, a
  // second press before the menu was drawn) still ends its line: the shell's
  // prompt must not land after half a sentence. An open menu began a line of its own.
  const cutMidLine = shutdown && state.held === undefined
  if (state.held) {
    // Resumed after the end: show what was held (nothing to show if aborted).
    if (!controller.signal.aborted) for (const fn of state.held) fn()
    state.held = undefined
  }

  // The menu's answer ended the cut answer (r, s, a, a second Ctrl+C): what a render worker still had of it
  // is shown now (its held-back word was shown before the menu opened).
  if (controller.signal.aborted && !cutMidLine && state.decision !== undefined) printer.endCutAssistant()
  if (cutMidLine) printer.endReasoning()
  if ((!shutdown && !controller.signal.aborted) || cutMidLine) printer.endAssistant()
  if (!shutdown) printer.hurry(false)
  if (error !== undefined && state.decision === undefined) {
    printer.endAssistant()
  }

  return {partial, recorder, decision: state.decision, error, shutdown}
}

/** Ctrl+C while the answer streams: hold the output and open the menu (once). */
function openStreamingMenu(deps: TurnDeps, state: MenuState, controller: AbortController): void {
  const {printer, router} = deps
  if (state.menu || !deps.interactive) return
  state.held = []
  const handler = deps.interactive.interrupts
  // The menu opens now, whatever a render worker still has to draw (it lands above the menu), below all
  // the text the partial answer would store: what the renderer held back (a partial word, a line it had not
  // placed) is shown first, so the stored answer is what was shown and the next output starts on its own line.
  printer.hurry('menu')
  printer.cutAssistant()
  const menu = (async () => {
    await printer.flush()
    if (!(state.atLineStart === 'printer' ? printer.atLineStart() : state.atLineStart)) {
      printer.ttyLine('')
      printer.lineBroken()
    }
    return handler.handleStreamingInterrupt(!state.ended)
  })()
  state.menu = menu
  void menu.then(
    (d) => {
      // Shutdown closed the menu's prompt: its answer means nothing now.
      if (router?.shutdownSignal.aborted) return
      state.decision = d
      switch (d.type) {
        // The stream goes on (or, ended, is continued after it): release what was held.
        case 'resume':
        case 'continue': {
          // As if the answer had not been cut: a word shown in part goes on whole below the menu.
          printer.goOnAssistant()
          printer.hurry(false)
          const h = state.held ?? []
          state.held = undefined
          state.menu = undefined
          if (d.type === 'resume') state.decision = undefined
          for (const fn of h) fn()
          break
        }

        // Every other answer ends this stream.
        case 'reply':
        case 'stop':
        case 'abort':
        case 'escalate': {
          controller.abort()
          break
        }

        default: {
          unreachable(d, 'streaming action')
        }
      }
    },
    (error: unknown) => {
      printer.warn(`The interrupt menu failed: ${errorMessage(error)}`)
      state.decision = {type: 'stop'}
      controller.abort()
    },
  )
}

/** What showing one stream event does on the printer (undefined: nothing to show). */
function renderEvent(printer: Printer, ev: StreamEvent, state: MenuState): (() => void) | undefined {
  switch (ev.type) {
    case 'text':
      return () => {
        printer.assistant(ev)
        // What the terminal shows (rendered markdown holds a partial word back), asked when the menu opens.
        state.atLineStart = 'printer'
      }
    case 'reasoning':
      return () => {
        printer.reasoning(ev.text)
        if (ev.text !== '') state.atLineStart = ev.text.endsWith('\n')
      }
    case 'usage':
      return () => printer.event({type: 'usage', input_tokens: ev.inputTokens, output_tokens: ev.outputTokens, cached_tokens: ev.cachedTokens})
    case 'finish': {
      // How the answer ended: always an event in json, and a notice
      // whenever it is not a normal end or a tool call.
      const notice = finishNotice(ev.reason, ev.raw)
      return () => {
        printer.event({type: 'finish', reason: ev.reason, raw: ev.raw ?? null})
        if (notice) printer.warn(notice)
      }
    }
    default:
      return undefined
  }
}

/**
 * The stream may end (or fail) while the menu is still open: the user's
 * choice decides what happens to what arrived — unless graceful shutdown
 * (SIGTERM, SIGHUP) starts meanwhile: then nobody is left to answer, and
 * waiting would keep the process alive with a prompt on the screen.
 */
async function waitForMenu(state: MenuState, router: SignalRouter | undefined): Promise<void> {
  // Every response passes here: the listener goes when the wait does (one
  // left per request was Node's MaxListenersExceededWarning on the terminal
  // from the eleventh step of a tool loop on; found by the pty fuzzer).
  const done = new AbortController()
  const shutdownStarted = router && state.menu ? abortPromise(router.shutdownSignal, done.signal) : undefined
  try {
    while (state.menu) {
      const open: Promise<StreamingInterruptAction> = state.menu
      await (shutdownStarted ? Promise.race([open.catch(() => {}), shutdownStarted]) : open.catch(() => {}))
      if (router?.shutdownSignal.aborted) {
        state.menu = undefined
        break
      }
      if (state.menu === open) state.menu = undefined
    }
  } finally {
    done.abort()
  }
}

/** Resolves when `signal` aborts; its listener is removed when `until` aborts. */
function abortPromise(signal: AbortSignal, until: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), {once: true, signal: until}))
}

/**
 * Records what arrived of one response. Partial reasoning stays reasoning.
 * Tool calls of an interrupted response are answered with a notice so the
 * next request stays valid for every provider.
 */
function commitPartial(deps: TurnDeps, result: StreamResult, interrupted: boolean): void {
  const partial = result.partial
  // The text is in deps.events already (recorded as it streamed); the rest
  // follows it, except thinking that was still open when the text began:
  // that goes before it, where the API wants it.
  const rest = partial.toEvents()
  const at = result.recorder.messageAt
  const thinking = rest.filter((e) => e.type === 'chat_response')
  if (at !== undefined && thinking.length > 0) deps.events.splice(at, 0, ...thinking)
  deps.events.push(...rest.filter((e) => at === undefined || e.type !== 'chat_response'))
  if (interrupted) {
    for (const call of partial.toolCalls) deps.events.push(event.toolCallResponse(call.id, INTERRUPTED_TOOL_CALL, true))
    partial.toolCalls = []
  }
}

async function runTools(
  deps: TurnDeps,
  calls: ToolCallEvent[],
  decisions: TurnToolDecisions,
  beforeCall: () => Promise<TurnEnding | undefined>,
): Promise<'next' | 'stop' | 'shutdown' | {reply: string; fromEditor: boolean}> {
  const {printer, router} = deps
  const byId = new Map(calls.map((c) => [c.id, c]))
  const outcome = await coordinateToolCalls(
    calls.map((c) => ({
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      argumentsError: c.invalidArguments ? c.argumentsProblem ?? 'the model sent arguments that are not a JSON object' : undefined,
    })),
    {
      tools: deps.toolConfigs,
      enabledTools: deps.enabledTools,
      canPrompt: deps.interactive !== undefined,
      explicitTools: deps.explicitTools,
      checkArguments: deps.checkArguments,
      prompter: deps.interactive?.prompter,
      interrupts: deps.interactive?.interrupts,
      // A timer on the terminal while the tool runs (ended by any output).
      run: async (call, args, signal, config) => {
        const stop = printer.startStatus(`Running ${call.name}`)
        const disarm = deps.queue?.armTyping()
        try {
          return await deps.runTool(call, args, signal, config)
        } finally {
          disarm?.()
          stop()
        }
      },
      pushInterrupt: (handler) => router?.push(() => handler()) ?? (() => {}),
      decisions,
      beforeCall,
      // Each call's header right before its prompts and its result line right
      // after: with several calls the user sees which one is being asked about.
      onCallStart: async (request, {prompted}) => {
        const call = byId.get(request.id)!
        // A prompted call's header is the prompt's first line on the terminal;
        // stderr keeps its own copy unless it is that terminal.
        if (!prompted || !printer.stderrIsTTY) printer.chrome(`⚙ ${call.name} ${JSON.stringify(call.arguments)}`)
        printer.event({type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments})
        await printer.flush()
      },
      onCallAnswered: (request, response) => {
        printer.event({type: 'tool_result', id: response.id, content: response.content, is_error: response.isError})
        printer.chrome(`${resultMark(response)} ${request.name}: ${response.skipped && !response.isError ? 'skipped: ' : ''}${summarize(response.content)}`)
      },
    },
  )

  for (const response of outcome.responses) {
    if (response.arguments) recordEditedArguments(deps.events, response.id, response.arguments)
    deps.events.push(event.toolCallResponse(response.id, response.content, response.isError))
  }

  await deps.persist()
  if (outcome.escalate) {
    // Not awaited: the shutdown's own first step waits for this turn to end.
    if (router) void router.shutdown()
    return 'shutdown'
  }

  if (outcome.reply) return {reply: outcome.reply.text, fromEditor: outcome.reply.fromEditor}
  return outcome.stop ? 'stop' : 'next'
}

/** ✓ only for a tool that ran and whose result was delivered; ✗ failed or refused; ⊘ skipped or cancelled. */
function resultMark(response: {isError: boolean; skipped?: boolean}): string {
  if (response.isError) return '✗'
  return response.skipped ? '⊘' : '✓'
}

/**
 * The user edited a call's arguments before it ran: the stored call takes the
 * arguments that ran (the next request must match the result the model gets),
 * and keeps the model's own as `model_arguments`.
 */
function recordEditedArguments(events: ConversationEvent[], id: string, args: Record<string, unknown>): void {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e.type === 'tool_call_request' && e.id === id) {
      events[i] = {...e, model_arguments: e.arguments, arguments: args} as ConversationEvent
      return
    }
  }
}

function summarize(content: string): string {
  const first = content.trim().split('\n')[0] ?? ''
  const lines = content.trim().split('\n').length
  const head = first.length > 80 ? `${first.slice(0, 79)}…` : first
  return lines > 1 ? `${head} (+${lines - 1} lines)` : head
}
