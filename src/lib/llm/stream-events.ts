// Small pure helpers the adapters share to build StreamEvents.
import {ByteScratch, decodeBinary, type TextRecord} from './text-records.js'
import {type FinishReason, ProviderError, type StreamEvent, type ToolCallEvent} from './types.js'

/**
 * One record of a stream (an SSE event, a chunk, an NDJSON line) as JSON; a
 * record that is not JSON is a ProviderError naming `what` and its start.
 */
export function parseStreamRecord(provider: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderError(`${provider}: malformed ${what}: ${text.slice(0, 120)}`, {provider, retryable: false})
  }
}

/**
 * How deep tool arguments may nest. JSON.parse takes any depth, but
 * JSON.stringify, structuredClone and every recursive walk after it overflow
 * the stack somewhere past ten thousand levels (200k levels ended a query
 * with `Maximum call stack size exceeded`, issue 28); no tool needs a tenth
 * of this.
 */
export const MAX_ARGUMENT_DEPTH = 1000

/** Whether `value` nests arrays/objects deeper than `limit` levels (iterative: any depth is safe to ask about). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth + 1 > limit) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** JSON text of a value from a server, for a message: a hostile depth cannot overflow the stack. */
export function quotedJson(value: unknown): string {
  return nestedDeeperThan(value, 64) ? '(a deeply nested value)' : JSON.stringify(value)
}

/** The one line the model gets (as the call's error result) for arguments nested too deep. */
export const TOO_DEEP = `the arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`

/**
 * A tool call event from accumulated argument text (or, from servers that
 * send them so, an already parsed value). Empty text means no arguments;
 * anything that is not a JSON object, or nests deeper than
 * MAX_ARGUMENT_DEPTH, is flagged with `argumentsProblem` (and `arguments`
 * is `{}`), so the caller can report it to the model instead of crashing.
 */
export function toolCallEvent(id: string, name: string, raw: string | unknown): ToolCallEvent {
  let parsed: unknown
  if (typeof raw === 'string') {
    const text = raw.trim()
    if (text === '') return {type: 'tool_call', id, name, arguments: {}}
    try {
      parsed = JSON.parse(text)
    } catch {
      return notAnObject(id, name, raw)
    }
  } else parsed = raw ?? {}
  if (nestedDeeperThan(parsed, MAX_ARGUMENT_DEPTH)) return {type: 'tool_call', id, name, arguments: {}, invalidArguments: true, argumentsProblem: TOO_DEEP}
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return {type: 'tool_call', id, name, arguments: parsed as Record<string, unknown>}
  }
  return notAnObject(id, name, typeof raw === 'string' ? raw : JSON.stringify(parsed))
}

/** Arguments quoted back to the model are cut here: it needs to see what was wrong, not all of it again. */
const QUOTED_ARGUMENTS_CHARS = 2000

function notAnObject(id: string, name: string, raw: string): ToolCallEvent {
  const shown = raw.length > QUOTED_ARGUMENTS_CHARS ? `${raw.slice(0, QUOTED_ARGUMENTS_CHARS)}… (${raw.length} characters)` : raw
  return {type: 'tool_call', id, name, arguments: {}, invalidArguments: true, rawArguments: raw, argumentsProblem: `the model sent arguments that are not a JSON object: ${shown}`}
}

/** The text event being gathered: text decoded so far, bytes not yet decoded, and the JSON body of all of it. */
interface OpenText {
  type: 'text' | 'reasoning'
  head: string
  /** Whether a record's JSON body went into `json` for every piece (a decoded piece without one clears it). */
  withJson: boolean
}

/**
 * Collects the events of one network read, merging adjacent text (and
 * adjacent unsigned reasoning) deltas: the same text in fewer events keeps
 * the per-event cost off the hot path without delaying anything.
 *
 * Text from template records (text-records.ts) stays bytes: gathered in two
 * reused buffers (its UTF-8, and its JSON body as sent), without a string
 * per piece. A text event made only of such records carries both (as binary
 * strings: in V8's young generation they die with a scavenge, where a
 * Buffer's memory outlives it), and its text is decoded only if something
 * reads it (output to a file or pipe and the log write the bytes; past the
 * first megabyte nothing needs the string).
 */
export class EventBatch {
  private events: StreamEvent[] = []
  private open: OpenText | undefined
  private readonly utf8 = new ByteScratch()
  private readonly json = new ByteScratch()

  text(text: string): void {
    this.add('text', text)
  }

  reasoning(text: string): void {
    this.add('reasoning', text)
  }

  /** A template record's text (or reasoning). */
  record(type: 'text' | 'reasoning', record: TextRecord): void {
    const open = this.opened(type, true)
    if (record.binary !== undefined) this.utf8.addBinary(record.binary)
    else this.append(open, record.text!)
    if (open.withJson && type === 'text') this.json.addBinary(record.json)
  }

  push(event: StreamEvent): void {
    this.close()
    this.events.push(event)
  }

  take(): StreamEvent[] {
    this.close()
    const out = this.events
    this.events = []
    return out
  }

  private add(type: 'text' | 'reasoning', text: string): void {
    if (!text) return
    this.append(this.opened(type, false), text)
  }

  private opened(type: 'text' | 'reasoning', withJson: boolean): OpenText {
    if (this.open?.type !== type) {
      this.close()
      this.open = {type, head: '', withJson}
    } else if (!withJson && this.open.withJson) {
      this.open.withJson = false
      this.json.clear()
    }
    return this.open
  }

  private append(open: OpenText, text: string): void {
    if (this.utf8.length > 0) open.head += this.utf8.takeText()
    open.head += text
  }

  private close(): void {
    const open = this.open
    if (!open) return
    this.open = undefined
    const json = open.withJson && open.type === 'text' ? this.json.takeBinary() : undefined
    this.json.clear()
    if (open.head === '') {
      if (this.utf8.length === 0) return
      // Bytes that are not UTF-8 are shown as U+FFFD: then the text is stored, not the bytes, so what is kept is what was shown.
      if (json !== undefined && this.utf8.isUtf8()) this.events.push(bytesText(this.utf8.takeBinary(), json))
      else this.events.push({type: open.type, text: this.utf8.takeText()})
      return
    }
    this.append(open, '')
    this.events.push(json !== undefined && !open.head.includes('\uFFFD') ? {type: 'text', text: open.head, json} : {type: open.type, text: open.head})
  }
}

/** A text event of bytes whose text is decoded when first read. */
class BytesText {
  readonly type = 'text'
  private decoded: string | undefined

  constructor(
    readonly utf8: string,
    readonly json: string,
  ) {}

  get text(): string {
    return (this.decoded ??= decodeBinary(this.utf8))
  }
}

function bytesText(utf8: string, json: string): StreamEvent {
  return new BytesText(utf8, json) as StreamEvent
}

export function finishEvent(reason: FinishReason, raw: string | undefined): StreamEvent {
  return raw === undefined ? {type: 'finish', reason} : {type: 'finish', reason, raw}
}

export function numberOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}
