// The tool step of a turn (SPEC §8): the calls of one response taken through
// the tool coordinator, each announced and answered on the screen, their
// responses recorded in the store after the calls.
import {event, type ConversationEvent} from '../conversation/events.js'
import type {ToolCallEvent} from '../llm/types.js'
import {coordinateToolCalls, type TurnEnding} from '../tool/coordinator.js'
import type {TurnToolDecisions} from '../tool/decisions.js'
import type {MenuEffect} from './menu-effect.js'
import type {ScreenPort, StorePort, ToolsPort} from './ports.js'

/** Runs one response's tool calls; the effect is the turn's next move (`go-on`: the next request carries the results). */
export async function runTools(
  ports: {tools: ToolsPort; store: StorePort; screen: ScreenPort},
  calls: ToolCallEvent[],
  decisions: TurnToolDecisions,
  beforeCall: () => Promise<TurnEnding | undefined>,
): Promise<MenuEffect> {
  const {tools, store, screen} = ports
  const {printer, router} = screen
  const byId = new Map(calls.map((c) => [c.id, c]))
  const outcome = await coordinateToolCalls(
    calls.map((c) => ({
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      argumentsError: c.invalidArguments ? c.argumentsProblem ?? 'the model sent arguments that are not a JSON object' : undefined,
    })),
    {
      tools: tools.configs,
      enabledTools: tools.enabled,
      canPrompt: screen.interactive !== undefined,
      explicitTools: tools.explicit,
      checkArguments: tools.checkArguments,
      prompter: screen.interactive?.prompter,
      interrupts: screen.interactive?.interrupts,
      // A timer on the terminal while the tool runs (ended by any output).
      run: async (call, args, signal, config) => {
        const stop = printer.startStatus(`Running ${call.name}`)
        const disarm = screen.queue?.armTyping()
        try {
          return await tools.run(call, args, signal, config)
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
    if (response.arguments) recordEditedArguments(store.events, response.id, response.arguments)
    store.events.push(event.toolCallResponse(response.id, response.content, response.isError))
  }

  await store.persist()
  if (outcome.escalate) {
    // Not awaited: the shutdown's own first step waits for this turn to end.
    if (router) void router.shutdown()
    return {type: 'end', outcome: {type: 'shutdown'}}
  }

  if (outcome.reply) return {type: 'reply', text: outcome.reply.text, fromEditor: outcome.reply.fromEditor}
  return outcome.stop ? {type: 'end', outcome: {type: 'stopped'}} : {type: 'go-on'}
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
