// Test doubles of the turn's ports (src/lib/turn/ports.ts): a turn built from
// them runs the real loop, the real stream reader and the real tool
// coordinator against a provider the test scripts, tools that answer in
// memory, a store that keeps the events in memory and a screen nobody sees.
import {PassThrough} from 'node:stream'
import type {ConversationEvent} from '../../src/lib/conversation/events.js'
import type {Provider} from '../../src/lib/llm/types.js'
import {Printer} from '../../src/lib/printer/printer.js'
import type {ToolPrompter} from '../../src/lib/tool/prompter.js'
import type {RequestPort, ScreenPort, StorePort, ToolsPort, TurnDeps} from '../../src/lib/turn/ports.js'

/** The request port: `provider` asked for model `m`. */
export function requestPort(provider: Provider, over: Partial<RequestPort> = {}): RequestPort {
  return {provider, model: 'm', ...over}
}

/** The tools port: one tool `t` (object arguments, run unattended) that answers `ok`. */
export function toolsPort(over: Partial<ToolsPort> = {}): ToolsPort {
  return {
    definitions: [{name: 't', description: 'a tool', parameters: {type: 'object', properties: {}}}],
    configs: {t: {command: 't', run: 'unattended', result: 'unattended'}},
    enabled: new Set(['t']),
    explicit: new Set(),
    run: async () => ({content: 'ok', isError: false}),
    ...over,
  }
}

/** The store port in memory: `saves` counts the writes; `saved` holds a copy of the events at each. */
export function memoryStore(events: ConversationEvent[] = [], over: Partial<StorePort> = {}): StorePort & {saves: number; saved: ConversationEvent[][]} {
  const store = {
    events,
    saves: 0,
    saved: [] as ConversationEvent[][],
    persist: async () => {
      store.saves++
      store.saved.push(structuredClone(store.events))
    },
    ...over,
  }
  return store
}

/** A printer whose output goes nowhere (not a terminal). */
export function quietPrinter(format: 'text' | 'json' = 'text', out: PassThrough = new PassThrough()): Printer {
  const err = new PassThrough()
  err.resume()
  if (out.listenerCount('data') === 0) out.resume()
  return new Printer({stdout: out, stderr: err, stdoutIsTTY: false, stderrIsTTY: false, format})
}

/** A tool prompter that lets every call run and every result through (an `unattended` tool still passes through it). */
export function unattendedPrompter(): ToolPrompter {
  return {
    promptPermission: async (_name: string, args: unknown) => ({type: 'run', args, remember: false}),
    reviewResult: async (_name: string, content: string) => ({deliver: true, content}),
  } as unknown as ToolPrompter
}

/** The screen port: a quiet printer, no router, prompts that never ask (no interrupt menus). */
export function quietScreen(over: Partial<ScreenPort> = {}): ScreenPort {
  return {printer: quietPrinter(), interactive: {interrupts: {} as never, prompter: unattendedPrompter()}, ...over}
}

/** A turn's deps from its doubles; each port may be given whole or in part. */
export function turnPorts(provider: Provider, over: {request?: Partial<RequestPort>; tools?: Partial<ToolsPort>; store?: Partial<StorePort>; screen?: Partial<ScreenPort>} = {}): TurnDeps {
  return {
    request: requestPort(provider, over.request),
    tools: toolsPort(over.tools),
    store: memoryStore(over.store?.events ?? [], over.store),
    screen: quietScreen(over.screen),
  }
}
