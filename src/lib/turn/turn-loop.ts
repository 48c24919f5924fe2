// The turn loop: request → stream → tools → repeat until the model stops
// (SPEC §7, §8, §12). It takes its world as four ports (turn/ports.ts: the
// request, the tools, the store, the screen), streams each response
// (stream-response.ts), runs its tool calls (tool-step.ts), turns every menu
// answer into its next move through one map (menu-effect.ts), and records
// every event of the turn in the conversation as it goes, so an interrupted,
// failed or killed turn keeps what it had.
import {event, userQueries, type ConversationEvent, type QueuedDelivery} from '../conversation/events.js'
import {MenuGate} from '../interrupt/gate.js'
import type {TurnInterruptAction} from '../interrupt/handler.js'
import {endingOf, INTERRUPTED_TOOL_CALL} from '../tool/coordinator.js'
import {TurnToolDecisions} from '../tool/decisions.js'
import {unreachable} from '../text/unreachable.js'
import {errorMessage} from '../text/one-line.js'
import {menuEffect, type GapAction, type MenuEffect, type TurnOutcome} from './menu-effect.js'
import {toolsForStep, type StorePort, type TurnDeps} from './ports.js'
import {streamResponse, type StreamResult} from './stream-response.js'
import {runTools} from './tool-step.js'

/** Sent as the next user message when the user continues after the stream had ended (no assistant prefill). */
export const CONTINUE_MESSAGE = 'Please continue.'
export {INTERRUPTED_TOOL_CALL} from '../tool/coordinator.js'
export type {TurnOutcome} from './menu-effect.js'
export type {MoreTools, RequestPort, ScreenPort, StorePort, ToolsPort, TurnDeps, TurnQueue} from './ports.js'
/** A guard against a model that calls tools forever. */
const MAX_STEPS = 100

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
    const queue = deps.screen.queue
    if (outcome.type !== 'done' || !queue) return {...outcome, query: text, turns}
    // The user may be typing the reply this very moment.
    await queue.idle()
    const next = queue.pending()
    if (next === undefined) return {...outcome, query: text, turns}
    // What is about to be sent, where the countdown can be read against it.
    deps.screen.printer.chrome(`> ${next.replace(/\n/g, '\n> ')}`)
    await deps.screen.printer.flush()
    const end = await queue.countdown()
    if (end === 'shutdown') return {type: 'shutdown', query: text, turns}
    if (end === 'keep') return {type: 'done', query: text, turns, kept: true}
    text = queue.take()
    deps.screen.printer.event({type: 'queued_reply', delivered: 'turn_end', text})
    // The queued reply's mentions go with it, as the query's attachments went with the query.
    const attachments = await mentionedFiles(deps, text)
    deps = {...deps, attachments}
  }
}

/** One turn; `queued`: its query is a queued reply sent after the last turn. */
export async function runTurn(query: string, deps: TurnDeps, queued?: QueuedDelivery): Promise<TurnOutcome> {
  // The turn scope: a Ctrl+C between phases (no stream, no tool running)
  // opens the turn menu; the loop waits for its answer at the next gap.
  const interactive = deps.screen.interactive
  const gate = interactive ? new MenuGate(() => interactive.interrupts.handleTurnInterrupt()) : undefined
  const pop = gate ? deps.screen.router?.push(() => gate.interrupt()) : undefined
  try {
    return await turnLoop(query, deps, gate, queued)
  } finally {
    pop?.()
  }
}

type Gate = MenuGate<TurnInterruptAction> | undefined

/** The turn menu's answer at a gap, if it does something (`continue` there is no answer: the turn goes on). */
async function gapAction(gate: Gate): Promise<GapAction | undefined> {
  const action = await gate?.checkpoint()
  return action === undefined || action.type === 'continue' ? undefined : action
}

/** The turn menu's answer at a gap as the turn's next move. */
async function atGap(gate: Gate): Promise<MenuEffect> {
  return menuEffect(await gapAction(gate))
}

/** Carries out a move: the turn's outcome, or undefined when the turn goes on with another request. */
async function apply(deps: TurnDeps, effect: MenuEffect): Promise<TurnOutcome | undefined> {
  switch (effect.type) {
    case 'end': {
      return effect.outcome
    }

    case 'reply': {
      await addReply(deps, effect.text, effect.fromEditor)
      return undefined
    }

    case 'continue': {
      deps.store.events.push(event.chatRequest(CONTINUE_MESSAGE))
      await deps.store.persist()
      return undefined
    }

    case 'go-on': {
      return undefined
    }

    default: {
      return unreachable(effect, 'menu effect')
    }
  }
}

/** The user's reply becomes the next user message (one from the editor was never on screen: echoed), with the files it mentions. */
async function addReply(deps: TurnDeps, text: string, fromEditor: boolean): Promise<void> {
  if (fromEditor) deps.screen.printer.chrome(`> ${text.replace(/\n/g, '\n> ')}`)
  const attachments = fromEditor ? [] : await mentionedFiles(deps, text)
  deps.store.events.push(event.chatRequest(text), ...attachments.map((a) => event.attachment(a.path, a.content)))
  await deps.store.persist()
}

/**
 * A reply's mentioned files. The prompt checked them before it let the reply
 * go; one that changed since (removed, grown) is a warning, and the reply
 * goes without it rather than be lost.
 */
async function mentionedFiles(deps: TurnDeps, text: string): Promise<ReadonlyArray<{path: string; content: string}>> {
  if (!deps.screen.mentions) return []
  try {
    return await deps.screen.mentions(text)
  } catch (error) {
    deps.screen.printer.warn(`not attached: ${errorMessage(error)}`)
    return []
  }
}

async function turnLoop(query: string, deps: TurnDeps, gate: Gate, queued?: QueuedDelivery): Promise<TurnOutcome> {
  const {store, screen} = deps
  const turnStart = store.events.length
  store.events.push(event.turnStart(), event.chatRequest(query, queued), ...(deps.attachments ?? []).map((a) => event.attachment(a.path, a.content)))
  await store.persist()
  const decisions = new TurnToolDecisions()
  // The last step's tool calls were answered: the next request carries their results.
  let afterTools = false

  for (let step = 0; step < MAX_STEPS; step++) {
    const gap = await apply(deps, await atGap(gate))
    if (gap) return gap
    // A graceful shutdown (SIGTERM, SIGHUP, a second Ctrl+C) that began
    // during the last phase sends nothing more to the model.
    if (screen.router?.shutdownSignal.aborted) return {type: 'shutdown'}
    if (afterTools) await deliverAtStep(deps)
    const next = await requestStep(deps, {turnStart, gate, decisions})
    if (next.type === 'end') return next.outcome
    afterTools = next.afterTools
  }

  screen.printer.warn(`Stopped after ${MAX_STEPS} model requests in one turn.`)
  return {type: 'stopped'}
}

/** After one request: another request (`afterTools`: it carries tool results), or the turn's end. */
type StepEnd = {type: 'again'; afterTools: boolean} | {type: 'end'; outcome: TurnOutcome}

/** Carries out `effect`: another request follows, unless it ends the turn. */
async function again(deps: TurnDeps, effect: MenuEffect, afterTools = false): Promise<StepEnd> {
  const outcome = await apply(deps, effect)
  return outcome ? {type: 'end', outcome} : {type: 'again', afterTools}
}

/** One request: its response streamed and recorded, the menu's answer carried out, its tool calls run. */
async function requestStep(deps: TurnDeps, turn: {turnStart: number; gate: Gate; decisions: TurnToolDecisions}): Promise<StepEnd> {
  const {store, screen} = deps
  await store.completeEvents?.()
  const tools = await toolsForStep(deps.tools)
  const result = await streamResponse(deps.request, tools, store, screen)
  // Whatever text was still waiting is written now (a failed write ends the turn here).
  await result.recorder.close()
  const decision = result.decision
  if (decision?.type === 'abort') return {type: 'end', outcome: await discardTurn(deps, turn.turnStart)}

  // The stream is over: what arrived is committed before anything else.
  const interrupted = decision !== undefined && decision.type !== 'resume'
  commitPartial(store, result, interrupted || result.shutdown || result.error !== undefined)
  await store.persist()
  if (result.shutdown || decision?.type === 'escalate') return {type: 'end', outcome: {type: 'shutdown'}}
  if (result.error !== undefined && decision === undefined) return {type: 'end', outcome: await failed(deps, turn.turnStart, result)}

  // The streaming menu's answer; `go-on`: the stream ran to its end (resumed, or never interrupted), on to its tool calls.
  const effect = menuEffect(decision)
  if (effect.type !== 'go-on') return again(deps, effect)
  const calls = result.partial.toolCalls
  if (calls.length === 0) {
    // The answer is complete; a press just now may still want to reply.
    const last = await atGap(turn.gate)
    return last.type === 'go-on' ? {type: 'end', outcome: {type: 'done'}} : again(deps, last)
  }

  const toolEffect = await runTools({tools, store, screen}, calls, turn.decisions, async () => {
    const a = await gapAction(turn.gate)
    return a === undefined ? undefined : endingOf(a)
  })
  if (screen.router?.shutdownSignal.aborted) return {type: 'end', outcome: {type: 'shutdown'}}
  return again(deps, toolEffect, true)
}

/** `a`: the partial turn is discarded (replies steered into it are queued text again). */
async function discardTurn(deps: TurnDeps, turnStart: number): Promise<TurnOutcome> {
  const discarded = deps.store.events.splice(turnStart)
  await deps.store.persist()
  await restoreSteered(deps, discarded)
  deps.screen.printer.notice('Aborted: the turn was discarded.')
  return {type: 'aborted'}
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
  const queue = deps.screen.queue
  if (queue?.delivery !== 'next_step' || !queue.takeForStep || queue.composing?.()) return
  const text = queue.takeForStep()
  if (text === undefined) return
  // Its mentioned files go with it, as with any reply; read before the store, which comes before the draft lets go.
  const attachments = await mentionedFiles(deps, text)
  deps.store.events.push(event.chatRequest(text, 'next_step'), ...attachments.map((a) => event.attachment(a.path, a.content)))
  await deps.store.persist()
  await queue.delivered?.()
  deps.screen.printer.chrome(`> ${text.replace(/\n/g, '\n> ')}`)
  deps.screen.printer.event({type: 'queued_reply', delivered: 'next_step', text})
}

/** The turn was discarded (`a`): the queued replies delivered in it (at a step, or as its query at a turn's end) are queued text again, kept as the draft. */
async function restoreSteered(deps: TurnDeps, discarded: readonly ConversationEvent[]): Promise<void> {
  for (const e of discarded) {
    if (e.type === 'chat_request' && e.queued !== undefined) await deps.screen.queue?.restore?.(String(e.content))
  }
}

/** The outcome of a failed response; a turn the model never answered at all is taken back. */
async function failed(deps: TurnDeps, turnStart: number, result: StreamResult): Promise<TurnOutcome> {
  const turn = deps.store.events.slice(turnStart)
  const answered = turn.some((e) => e.type === 'chat_response' || e.type === 'tool_call_request')
  if (answered) return {type: 'failed', error: result.error, saved: result.partial.empty ? 'turn' : 'partial'}
  const unsent = userQueries(turn).join('\n\n')
  deps.store.events.splice(turnStart)
  await deps.store.persist()
  return {type: 'failed', error: result.error, saved: 'nothing', unsent}
}

/**
 * Records what arrived of one response. Partial reasoning stays reasoning.
 * Tool calls of an interrupted response are answered with a notice so the
 * next request stays valid for every provider.
 */
function commitPartial(store: StorePort, result: StreamResult, interrupted: boolean): void {
  const partial = result.partial
  // The text is in the store's events already (recorded as it streamed); the rest
  // follows it, except thinking that was still open when the text began:
  // that goes before it, where the API wants it.
  const rest = partial.toEvents()
  const at = result.recorder.messageAt
  const thinking = rest.filter((e) => e.type === 'chat_response')
  if (at !== undefined && thinking.length > 0) store.events.splice(at, 0, ...thinking)
  store.events.push(...rest.filter((e) => at === undefined || e.type !== 'chat_response'))
  if (interrupted) {
    for (const call of partial.toolCalls) store.events.push(event.toolCallResponse(call.id, INTERRUPTED_TOOL_CALL, true))
    partial.toolCalls = []
  }
}

