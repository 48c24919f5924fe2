// `echo/default`: the offline model for first use and demos (SPEC §12). It
// needs no network and no key, answers from the request itself at a readable
// pace, and exercises the tool flow by calling the first tool once.
import {sleep} from './retry.js'
import type {ChatRequest, Provider, StreamEvent, ToolDefinition} from './types.js'
import {abortError} from './types.js'

export const ECHO_LABEL = '[echo model — no provider configured]'
export const DEFAULT_ECHO_DELAY_MS = 20

export interface EchoProviderOptions {
  /** Pause between words; `JP_ECHO_DELAY_MS` sets it through `resolveModel`. */
  delayMs?: number
}

export function createEchoProvider(opts: EchoProviderOptions = {}): Provider {
  const delayMs = opts.delayMs ?? DEFAULT_ECHO_DELAY_MS
  return {
    name: 'echo',
    stream: (req, signal) => echoStream(req, signal, delayMs),
  }
}

/** The delay from `JP_ECHO_DELAY_MS` when it is a non-negative number, else the default. */
export function echoDelayFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.JP_ECHO_DELAY_MS?.trim()
  const n = raw ? Number(raw) : Number.NaN
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_ECHO_DELAY_MS
}

async function* echoStream(req: ChatRequest, signal: AbortSignal, delayMs: number): AsyncGenerator<StreamEvent> {
  if (signal.aborted) throw abortError(signal)
  const last = req.messages.at(-1)
  const tool = req.tools[0]

  if (last?.role === 'user' && tool) {
    yield* words(`${ECHO_LABEL} Calling the tool \`${tool.name}\` once to show how tools work.`, signal, delayMs)
    yield {type: 'tool_call', id: `echo_call_${Date.now().toString(36)}`, name: tool.name, arguments: exampleArguments(tool)}
    yield {type: 'finish', reason: 'tool_use'}
    return
  }

  let answer: string
  if (last?.role === 'tool') {
    const results = trailingToolResults(req)
    answer = `${ECHO_LABEL} ` + results.map((r) => `The tool \`${r.name}\`${r.isError ? ' failed' : ' returned'}: ${quote(r.content)}`).join(' ')
  } else if (last?.role === 'user') {
    answer = `${ECHO_LABEL} You said: ${quote(last.content)}`
  } else {
    answer = `${ECHO_LABEL} Nothing to answer yet: send a message.`
  }
  yield* words(answer, signal, delayMs)
  yield {type: 'finish', reason: 'stop'}
}

function trailingToolResults(req: ChatRequest) {
  const out = []
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]
    if (m.role !== 'tool') break
    out.unshift(m)
  }
  return out
}

function quote(text: string): string {
  const t = text.trim()
  return t.length > 2000 ? `${t.slice(0, 2000)}…` : t
}

async function* words(text: string, signal: AbortSignal, delayMs: number): AsyncGenerator<StreamEvent> {
  const pieces = text.match(/\s*\S+\s*/g) ?? [text]
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && delayMs > 0) await sleep(delayMs, signal)
    if (signal.aborted) throw abortError(signal)
    yield {type: 'text', text: pieces[i]}
  }
}

/** Arguments that satisfy a tool's JSON schema: every required property, each with a plausible value. */
export function exampleArguments(tool: ToolDefinition): Record<string, unknown> {
  const value = exampleValue(tool.parameters, 0)
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function exampleValue(schema: unknown, depth: number): unknown {
  if (typeof schema !== 'object' || schema === null) return 'example'
  const s = schema as Record<string, unknown>
  if ('const' in s) return s.const
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0]
  if ('default' in s) return s.default
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') ?? s.type[0] : s.type
  switch (type) {
    case 'string':
      return 'example'
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined
      const n = min ?? (typeof s.maximum === 'number' ? Math.min(1, s.maximum) : 1)
      return type === 'integer' ? Math.ceil(n) : n
    }
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array': {
      if (depth > 4) return []
      const count = typeof s.minItems === 'number' && s.minItems > 1 ? s.minItems : 1
      return Array.from({length: count}, () => exampleValue(s.items ?? {type: 'string'}, depth + 1))
    }
    default: {
      if (type !== 'object' && !('properties' in s)) return 'example'
      const out: Record<string, unknown> = {}
      if (depth > 4) return out
      const props = typeof s.properties === 'object' && s.properties !== null ? (s.properties as Record<string, unknown>) : {}
      const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : []
      for (const key of required) out[key] = exampleValue(props[key], depth + 1)
      return out
    }
  }
}
