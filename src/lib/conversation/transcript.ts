// `jp conversation show` as text: a stored conversation rendered as a
// transcript (SPEC §18). Each turn shows its queries, attached files,
// answers and tool calls, and ends with the tokens it used. Stored text is
// shown, not interpreted: on a terminal control characters are made visible
// and the answers render as `jp query` renders them (markdown, indented);
// to a pipe the text is as stored.
import type {StyleSection} from '../config/types.js'
import {markdownFor, type MarkdownStream, type PrinterMarkdown} from '../printer/markdown.js'
import {sanitize} from '../printer/sanitize.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import type {ConversationEvent} from './events.js'
import type {Conversation} from './store.js'
import {forkedFrom} from './fork.js'
import {sumUsage, usageLine} from './usage.js'

export interface TranscriptOptions {
  /** Render for a terminal: sanitized, answers as markdown (needs `style`). */
  tty: boolean
  /** The conversation's style (its config): how answers render on a terminal. */
  style?: StyleSection
  /** The terminal's width. */
  columns?: number
}

/** The transcript's lines, joined, with a final newline. */
export async function renderTranscript(conv: Conversation, opts: TranscriptOptions): Promise<string> {
  const {tty} = opts
  const clean = tty ? (s: string) => sanitizeUntrusted(s, {multiline: true}) : (s: string) => s
  const title = typeof conv.metadata.title === 'string' ? conv.metadata.title : '(untitled)'
  const out: string[] = [`${conv.id}  ${tty ? sanitizeUntrusted(title) : title}`]
  const from = forkedFrom(conv.metadata)
  if (from) out.push(`forked from ${tty ? sanitizeUntrusted(from.id) : from.id} at turn ${from.turn}`)
  const markdown = tty && opts.style ? await terminalMarkdown(opts.style, opts.columns ?? 80) : undefined
  // Each turn ends with what it cost (the usage of its responses, summed), when the provider said.
  let turn = 0
  const closeTurn = (end: number) => {
    const usage = sumUsage(conv.events.slice(turn, end))
    if (usage) out.push(usageLine(usage))
  }
  for (const [i, e] of conv.events.entries()) {
    if (e.type === 'turn_start') {
      closeTurn(i)
      turn = i
    }
    out.push(...(await renderEvent(e, clean, markdown)))
  }
  closeTurn(conv.events.length)
  return out.join('\n') + '\n'
}

function terminalMarkdown(style: StyleSection, columns: number): Promise<PrinterMarkdown | undefined> {
  const screen = {isTTY: true, columns: Math.max(20, columns - INDENT.length)} as unknown as NodeJS.WritableStream
  return markdownFor({style, format: 'text', stdout: screen, stderr: screen, codeMark: CODE_MARK})
}

const INDENT = '  '

/** Marks the rendered code lines, which stay bare (unindented) so a selection copies them as written (SPEC §19). */
const CODE_MARK = '\u0000'

/** Model text rendered for the terminal: every sequence of the model's dropped first. */
async function rendered(text: string, create: () => MarkdownStream): Promise<string> {
  const md = create()
  let out = md.push(sanitize(text, {keepColor: false}))
  while (md.waiting) {
    await md.waiting
    out += md.take()
  }
  out += md.end()
  while (md.waiting) {
    await md.waiting
    out += md.take()
  }
  return out.replace(/\n$/, '')
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? INDENT + l : l))
    .join('\n')
}

/** A rendered answer indented under its label, but for its code lines (marked by the renderer), which stay bare. */
function indentRendered(text: string): string {
  return text
    .split('\n')
    .map((l) => (l.startsWith(CODE_MARK) ? l.slice(CODE_MARK.length) : l ? INDENT + l : l))
    .join('\n')
}

async function renderEvent(e: ConversationEvent, clean: (s: string) => string, markdown?: PrinterMarkdown): Promise<string[]> {
  const ev = e as Record<string, unknown>
  if (e.type === 'chat_response' && markdown?.assistant && markdown.reasoning) {
    return typeof ev.reasoning === 'string'
      ? ['reasoning:', indentRendered(await rendered(ev.reasoning, markdown.reasoning))]
      : ['assistant:', indentRendered(await rendered(String(ev.message), markdown.assistant))]
  }
  switch (e.type) {
    case 'turn_start':
      return ['', `── turn · ${e.timestamp}`]
    case 'chat_request':
      return [userLabel(ev.queued), indent(clean(String(ev.content)))]
    case 'chat_response':
      return typeof ev.reasoning === 'string'
        ? ['reasoning:', indent(clean(ev.reasoning))]
        : ['assistant:', indent(clean(String(ev.message)))]
    case 'tool_call_request':
      return [`tool call ${clean(String(ev.name))} [${clean(String(ev.id))}]:`, indent(clean(JSON.stringify(ev.arguments, null, 2)))]
    case 'tool_call_response':
      return [`tool result [${clean(String(ev.id))}]${ev.is_error ? ' (error)' : ''}:`, indent(clean(String(ev.content)))]
    case 'config_delta':
      return [`config change: ${clean(JSON.stringify(ev.delta))}`]
    case 'attachment':
      return [`attached ${clean(String(ev.path))}:`, indent(clean(String(ev.content)))]
    case 'usage':
      // Summed under the turn instead.
      return []
    default: {
      const {timestamp: _t, type, ...rest} = ev
      return [`${clean(String(type))}: ${clean(JSON.stringify(rest))}`]
    }
  }
}

/** A queued reply is the user's message, marked as steered where it reached the model (SPEC §19). */
function userLabel(queued: unknown): string {
  if (queued === 'next_step') return 'user (queued reply, steered at the next step):'
  if (queued === 'turn_end') return 'user (queued reply, sent after the turn):'
  return 'user:'
}
