// The tool coordinator (SPEC §8): takes the tool calls of one assistant
// message through permission, execution (with the tool interrupt menu) and
// result review, and answers every call exactly once — result, skip notice,
// cancellation or error — so the next request is always valid. The runner,
// the signal router and the prompts are injected.
import type {ToolConfig} from '../config/types.js'
import type {RememberedDecision, TurnToolDecisions} from './decisions.js'
import {parseArguments, type PermissionResult, type ResultReview, type ToolArguments, type ToolPromptExit} from './prompter.js'
import {defaultCancellationResponse, resolveToolConfig, type ResolvedToolConfig} from './resolve.js'
import {errorMessage} from '../text/one-line.js'
import {unreachable} from '../text/unreachable.js'

export interface ToolCallRequest {
  id: string
  name: string
  /** The parsed arguments; a string is taken as the raw JSON text and parsed here. */
  arguments: unknown
  /** Set by the model layer when the model's arguments could not be parsed. */
  argumentsError?: string
}

export interface ToolResponse {
  id: string
  content: string
  isError: boolean
  /** The tool did not run, or its result was not delivered (not an error): never marked as done. */
  skipped?: boolean
  /** The arguments the tool ran with, present when the user edited the model's. */
  arguments?: ToolArguments
}

export interface ToolRunOutput {
  content: string
  isError: boolean
}

/**
 * Runs one tool. `signal` aborts it (the runner kills the process group);
 * after an abort its result or rejection is ignored.
 */
export type ToolRunFn = (
  call: {id: string; name: string},
  args: ToolArguments,
  signal: AbortSignal,
  /** The tool's effective settings (`command`, ...), `'*'` applied. */
  config: ResolvedToolConfig,
) => Promise<ToolRunOutput>

/** Pushes a Ctrl+C handler on the signal router; the returned function pops it. */
export type PushInterrupt = (handler: () => void) => () => void

export interface ToolPermissionPrompter {
  promptPermission(name: string, args: ToolArguments, mode: ResolvedToolConfig['run'], source?: string): Promise<PermissionResult>
  reviewResult(name: string, content: string, mode: ResolvedToolConfig['result']): Promise<ResultReview>
}

/** What a Ctrl+C while a tool runs turns into (answered by the interrupt handler's tool menu). */
export type ToolInterruptAction =
  /** Keep waiting for the tool. */
  | {type: 'continue'}
  /** Kill the tool and run it again. */
  | {type: 'restart'}
  /** Kill the tool, record the cancellation response, end the turn. */
  | {type: 'stop'}
  /** Kill the tool and record `content` as its response. */
  | {type: 'respond'; content: string}
  /** Ctrl+C at the menu: graceful shutdown. */
  | {type: 'escalate'}

export interface ToolInterruptPrompter {
  handleToolInterrupt(cancellationResponse: string): Promise<ToolInterruptAction>
}

export interface ToolCoordinatorDeps {
  /** `conversation.tools` of the merged config, `'*'` included. */
  tools: Record<string, ToolConfig>
  /** Tools offered to the model in this query; a call to any other is refused. Omitted: every configured tool. */
  enabledTools?: ReadonlySet<string>
  /** A terminal exists to ask on. */
  canPrompt: boolean
  /** Tools this query enabled with `--tool NAME` (consent to run without a terminal). */
  explicitTools: ReadonlySet<string>
  /** What is wrong with a call's arguments against its tool's schema (an MCP tool's input schema); undefined: nothing. */
  checkArguments?: (name: string, args: ToolArguments) => string | undefined
  /** Used only when `canPrompt`. */
  prompter?: ToolPermissionPrompter
  /** Used only when `canPrompt`. */
  interrupts?: ToolInterruptPrompter
  run: ToolRunFn
  pushInterrupt: PushInterrupt
  /** "Remember for this turn" answers; one per turn. */
  decisions: TurnToolDecisions
  /**
   * Announces a call just before it is handled (its prompts, its run). With
   * several calls in one message, announcing them all up front would leave
   * identical `Run local tool NAME?` prompts the user cannot tell apart.
   */
  onCallStart?: (call: ToolCallRequest, info: CallStartInfo) => void | Promise<void>
  /**
   * Between two calls: where a Ctrl+C in the gap is answered (the turn
   * menu). `stop` answers the remaining calls without running them;
   * `escalate` does too and reports the escalation; a reply answers them as
   * interrupted and is handed back as the outcome's `reply`.
   */
  beforeCall?: () => Promise<TurnEnding | undefined>
  /** Reports a call's recorded response as soon as it is known. */
  onCallAnswered?: (call: ToolCallRequest, response: ToolResponse) => void | Promise<void>
}

/** How the user ended the message's tool calls early. */
export type TurnEnding = 'stop' | 'escalate' | {reply: string; fromEditor: boolean}

export interface CallStartInfo {
  /**
   * The call's permission prompt (or argument editor) is about to be shown,
   * and it carries the call's header on the terminal itself.
   */
  prompted: boolean
}

export interface CoordinatorOutcome {
  /** One per call, in the calls' order. */
  responses: ToolResponse[]
  /** The user chose Stop (or escalated, or replied): end the turn after recording these (unless `reply`). */
  stop: boolean
  /** Ctrl+C at the tool menu: start the graceful shutdown. */
  escalate: boolean
  /** Stop and reply (a tool prompt's menu, the turn menu): send this as the next user message. */
  reply?: {text: string; fromEditor: boolean}
}

/** Answers a tool call the user interrupted before it could run (a cut answer, a reply from a menu). */
export const INTERRUPTED_TOOL_CALL = 'Tool call not run: the user interrupted the response.'

export function noTerminalResponse(name: string): string {
  return `Tool not run: no terminal to ask for permission (enable it with --tool ${name} or set run = "unattended").`
}

export const RUN_SKIPPED_BY_CONFIG = 'Tool run skipped by configuration.'
export const RESULT_SKIPPED_BY_USER = 'Result delivery skipped by user.'
export const RESULT_SKIPPED_BY_CONFIG = 'Result delivery skipped by configuration.'

export function skipReasonResponse(reason: string): string {
  return `Tool run skipped by user with a message:\n\n${reason}`
}

type CallOutcome = {response: ToolResponse; ending?: TurnEnding}

export async function coordinateToolCalls(
  calls: readonly ToolCallRequest[],
  deps: ToolCoordinatorDeps,
): Promise<CoordinatorOutcome> {
  const responses: ToolResponse[] = []
  let ending: TurnEnding | undefined
  for (const call of calls) {
    ending ??= await deps.beforeCall?.()
    let response: ToolResponse
    if (ending !== undefined) {
      // The user ended the turn (or replied): the remaining calls are answered, not run.
      await deps.onCallStart?.(call, {prompted: false})
      response = endedResponse(call, ending, deps)
    } else {
      const outcome = await answerCall(call, deps)
      response = outcome.response
      ending = outcome.ending
    }

    responses.push(response)
    await deps.onCallAnswered?.(call, response)
  }

  const reply = typeof ending === 'object' ? {text: ending.reply, fromEditor: ending.fromEditor} : undefined
  return {responses, stop: ending !== undefined, escalate: ending === 'escalate', ...(reply ? {reply} : {})}
}

/** A call the user never got to: a reply leaves it interrupted, a stop or a shutdown skipped. */
function endedResponse(call: ToolCallRequest, ending: TurnEnding, deps: ToolCoordinatorDeps): ToolResponse {
  if (typeof ending === 'object') return {id: call.id, content: INTERRUPTED_TOOL_CALL, isError: true}
  const config = resolveToolConfig(deps.tools, call.name)
  return {id: call.id, content: config?.cancellation_response ?? defaultCancellationResponse(deps.tools), isError: false, skipped: true}
}

/** The Ctrl+C menu of a tool prompt ended the calls: the ending and what this call is told. */
function exitOutcome(call: ToolCallRequest, exit: ToolPromptExit, deps: ToolCoordinatorDeps, ran: boolean): CallOutcome {
  const ending = endingOf(exit)
  // A tool that ran but whose result was not confirmed: its result is withheld, as with `n`.
  if (ran) return {response: {id: call.id, content: RESULT_SKIPPED_BY_USER, isError: false, skipped: true}, ending}
  return {response: endedResponse(call, ending, deps), ending}
}

/** How leaving a tool prompt through its menu, or the turn menu at a gap, ends the remaining calls. */
export function endingOf(exit: ToolPromptExit): TurnEnding {
  switch (exit.type) {
    case 'reply': {
      return {reply: exit.text, fromEditor: exit.fromEditor}
    }

    case 'stop':
    case 'escalate': {
      return exit.type
    }

    default: {
      return unreachable(exit, 'tool prompt exit')
    }
  }
}

function errorResponse(call: ToolCallRequest, content: string): CallOutcome {
  return {response: {id: call.id, content, isError: true}}
}

function callArguments(call: ToolCallRequest): {ok: true; args: ToolArguments} | {ok: false; message: string} {
  if (call.argumentsError !== undefined) return {ok: false, message: call.argumentsError}
  if (typeof call.arguments === 'string') {
    return call.arguments.trim() === '' ? {ok: true, args: {}} : parseArguments(call.arguments)
  }

  if (call.arguments === undefined || call.arguments === null) return {ok: true, args: {}}
  if (typeof call.arguments !== 'object' || Array.isArray(call.arguments)) {
    return {ok: false, message: 'the arguments must be a JSON object'}
  }

  return {ok: true, args: call.arguments as ToolArguments}
}

/** The call's arguments, parsed and checked against the tool's schema: a mismatch is answered before any prompt. */
function checkedArguments(call: ToolCallRequest, deps: ToolCoordinatorDeps): ReturnType<typeof callArguments> {
  const parsed = callArguments(call)
  const problem = parsed.ok ? deps.checkArguments?.(call.name, parsed.args) : undefined
  return problem === undefined ? parsed : {ok: false, message: problem}
}

async function answerCall(call: ToolCallRequest, deps: ToolCoordinatorDeps): Promise<CallOutcome> {
  const config = resolveToolConfig(deps.tools, call.name)
  const parsed = checkedArguments(call, deps)
  const interactive = deps.canPrompt && deps.prompter !== undefined
  const runnable = config !== undefined && (deps.enabledTools?.has(call.name) ?? true) && parsed.ok && config.run !== 'skip'
  const remembered = config?.run === 'ask' ? deps.decisions.get(call.name) : undefined
  await deps.onCallStart?.(call, {prompted: runnable && interactive && config.run !== 'unattended' && remembered === undefined})

  if (config === undefined) return errorResponse(call, `Unknown tool '${call.name}'.`)
  if (deps.enabledTools && !deps.enabledTools.has(call.name)) {
    return errorResponse(call, `Tool '${call.name}' is not enabled for this query.`)
  }

  if (!parsed.ok) return errorResponse(call, `Invalid arguments for tool '${call.name}': ${parsed.message}`)

  if (config.run === 'skip') return {response: {id: call.id, content: RUN_SKIPPED_BY_CONFIG, isError: false, skipped: true}}

  let args = parsed.args
  // The files the user's argument edit mentions: the model reads them after the call's result (SPEC §19).
  let attached: string | undefined
  if (interactive) {
    const permission = await askPermission(call.name, args, config, deps)
    switch (permission.type) {
      case 'interrupted': {
        return exitOutcome(call, permission.exit, deps, false)
      }

      case 'skip': {
        const content = permission.reason === undefined ? config.cancellation_response : skipReasonResponse(permission.reason)
        return {response: {id: call.id, content, isError: false, skipped: true}}
      }

      case 'run': {
        args = permission.args
        attached = permission.attached
        break
      }

      default: {
        return unreachable(permission, 'permission answer')
      }
    }
    // The conversation must show what was approved and run, not what was asked for.
    if (JSON.stringify(args) !== JSON.stringify(parsed.args)) {
      const edited = args
      const outcome = await runAndReview(call, edited, config, deps, interactive, attached)
      return {...outcome, response: {...outcome.response, arguments: edited}}
    }
  } else if (config.run !== 'unattended' && !deps.explicitTools.has(call.name)) {
    // Never a silent execution: without a terminal only --tool NAME consents.
    return errorResponse(call, noTerminalResponse(call.name))
  }

  return runAndReview(call, args, config, deps, interactive, attached)
}

async function runAndReview(
  call: ToolCallRequest,
  args: ToolArguments,
  config: ResolvedToolConfig,
  deps: ToolCoordinatorDeps,
  interactive: boolean,
  attached?: string,
): Promise<CallOutcome> {
  const ran = await runWithInterrupts(call, args, config, deps)
  if (ran.kind === 'interrupted') return ran.outcome

  if (!interactive) {
    if (config.result === 'skip') return {response: {id: call.id, content: RESULT_SKIPPED_BY_CONFIG, isError: false, skipped: true}}
    // ask / edit have nobody to ask: the result stands as the tool produced it.
    return {response: {id: call.id, ...ran.output}}
  }

  const review = await deps.prompter!.reviewResult(call.name, ran.output.content, config.result)
  if (!review.deliver) {
    if (review.exit) return exitOutcome(call, review.exit, deps, true)
    const content = config.result === 'skip' ? RESULT_SKIPPED_BY_CONFIG : RESULT_SKIPPED_BY_USER
    return {response: {id: call.id, content, isError: false, skipped: true}}
  }

  const content = attached === undefined ? review.content : `${review.content}\n\n${attached}`
  return {response: {id: call.id, content, isError: ran.output.isError}}
}

async function askPermission(
  name: string,
  args: ToolArguments,
  config: ResolvedToolConfig,
  deps: ToolCoordinatorDeps,
): Promise<PermissionResult> {
  // A remembered Y / N answers later `ask` calls of the same tool this turn.
  const remembered: RememberedDecision | undefined = config.run === 'ask' ? deps.decisions.get(name) : undefined
  if (remembered === 'run') return {type: 'run', args, remember: false}
  if (remembered === 'skip') return {type: 'skip', remember: false}

  const permission = await deps.prompter!.promptPermission(name, args, config.run, config.source)
  if (permission.type !== 'interrupted' && permission.remember) deps.decisions.remember(name, permission.type)
  return permission
}

type RunResult = {kind: 'done'; output: ToolRunOutput} | {kind: 'interrupted'; outcome: CallOutcome}

type Settled = {kind: 'done'; output: ToolRunOutput} | {kind: 'failed'; error: unknown}

/**
 * Runs the tool with a Ctrl+C handler pushed on the router. A Ctrl+C opens
 * the tool menu while the tool keeps running; the menu's answer is applied
 * even if the tool finished meanwhile (the user decided with the menu open).
 */
async function runWithInterrupts(
  call: ToolCallRequest,
  args: ToolArguments,
  config: ResolvedToolConfig,
  deps: ToolCoordinatorDeps,
): Promise<RunResult> {
  const interrupts = deps.canPrompt ? deps.interrupts : undefined
  for (;;) {
    const controller = new AbortController()
    const running: Promise<Settled> = deps.run({id: call.id, name: call.name}, args, controller.signal, config).then(
      (output) => ({kind: 'done', output}),
      (error: unknown) => ({kind: 'failed', error}),
    )
    const watcher = new InterruptWatcher(interrupts, config.cancellation_response)
    // Without a terminal there is no menu: the router's own SIGINT handling
    // (graceful shutdown) applies, so nothing is pushed.
    const pop = interrupts ? deps.pushInterrupt(() => watcher.interrupt()) : undefined
    let ended: RunEnd
    try {
      ended = await runOrAnswer(running, watcher)
    } finally {
      pop?.()
    }

    const {action, settled} = ended
    if (action === undefined) {
      const done = settled!
      if (done.kind === 'done') return done
      return {kind: 'done', output: {content: `Tool '${call.name}' failed: ${errorMessage(done.error)}`, isError: true}}
    }

    if (settled === undefined) {
      controller.abort()
      // Let the runner reap the killed process before anything else happens.
      await running
    }

    // Restart: the loop runs the tool again.
    if (action.type !== 'restart') return {kind: 'interrupted', outcome: interruptedOutcome(call, config, action)}
  }
}

/** How one run ended: the tool settled, or the menu answered (a `continue` answer is no action), or both. */
interface RunEnd {
  action?: Exclude<ToolInterruptAction, {type: 'continue'}>
  settled?: Settled
}

/** Waits for the tool or a menu answer; a menu open when the tool settles is waited for (its answer still applies). */
async function runOrAnswer(running: Promise<Settled>, watcher: InterruptWatcher): Promise<RunEnd> {
  for (;;) {
    const next = await Promise.race([running, watcher.next()])
    if ('type' in next) {
      if (next.type === 'continue') continue
      return {action: next}
    }

    if (!watcher.menuOpen) return {settled: next}
    const answer = await watcher.next()
    return answer.type === 'continue' ? {settled: next} : {action: answer, settled: next}
  }
}

/** What an answer of the tool menu (restart aside) makes of the call. */
function interruptedOutcome(
  call: ToolCallRequest,
  config: ResolvedToolConfig,
  action: Exclude<ToolInterruptAction, {type: 'continue'} | {type: 'restart'}>,
): CallOutcome {
  const cancelled = {id: call.id, content: config.cancellation_response, isError: false, skipped: true}
  switch (action.type) {
    case 'respond': {
      return {response: {...cancelled, content: action.content}}
    }

    case 'stop': {
      return {response: cancelled, ending: 'stop'}
    }

    case 'escalate': {
      return {response: cancelled, ending: 'escalate'}
    }

    default: {
      return unreachable(action, 'tool interrupt action')
    }
  }
}

/** Turns Ctrl+C notifications into at most one open tool menu and its answers. */
class InterruptWatcher {
  menuOpen = false
  private pending: Promise<ToolInterruptAction>
  private resolve!: (action: ToolInterruptAction) => void

  constructor(
    private readonly interrupts: ToolInterruptPrompter | undefined,
    private readonly cancellationResponse: string,
  ) {
    this.pending = this.fresh()
  }

  /** The next menu answer; the same promise until it is consumed. */
  next(): Promise<ToolInterruptAction> {
    return this.pending
  }

  interrupt(): void {
    // A second notification while the menu is up is the menu's business.
    if (this.menuOpen || this.interrupts === undefined) return
    this.menuOpen = true
    this.interrupts.handleToolInterrupt(this.cancellationResponse).then(
      (action) => this.answer(action),
      // The menu could not be shown: nobody can answer, shut down gracefully.
      () => this.answer({type: 'escalate'}),
    )
  }

  private answer(action: ToolInterruptAction): void {
    this.menuOpen = false
    const resolve = this.resolve
    this.pending = this.fresh()
    resolve(action)
  }

  private fresh(): Promise<ToolInterruptAction> {
    return new Promise((resolve) => {
      this.resolve = resolve
    })
  }
}
