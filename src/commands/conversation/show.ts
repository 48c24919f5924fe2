import {Args} from '@oclif/core'
import {JpCommand} from '../../lib/cli/base-command.js'
import type {ConversationEvent} from '../../lib/conversation/events.js'
import {markdownFor, type MarkdownStream, type PrinterMarkdown} from '../../lib/printer/markdown.js'
import {sanitize} from '../../lib/printer/sanitize.js'
import {sanitizeUntrusted, untrustedJson} from '../../lib/text/untrusted.js'

export default class ConversationShow extends JpCommand {
  static summary = 'Print a conversation as readable text'
  static description =
    'Defaults to the active conversation. Each turn shows its queries, attached files, answers and tool calls, and ends with the tokens it used (when the provider reported them). With --format json, prints the stored events, one per line.'
  static aliases = ['c:show']
  static args = {id: Args.string({description: 'Conversation id (default: the active one)', ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(ConversationShow)
    const store = await this.store()
    const id = args.id ?? (await store.activeId())
    if (!id) this.fail("no active conversation; pass an ID (see 'jp conversation ls')")
    let conv
    try {
      conv = await store.load(id)
    } catch (e) {
      this.fail(e)
    }
    if (this.format() === 'json') {
      for (const e of conv.events) process.stdout.write(untrustedJson(e) + '\n')
      return
    }
    // Stored text is shown, not interpreted: on a terminal, control characters are made visible.
    const tty = Boolean(process.stdout.isTTY)
    const clean = tty ? (s: string) => sanitizeUntrusted(s, {multiline: true}) : (s: string) => s
    const title = typeof conv.metadata.title === 'string' ? conv.metadata.title : '(untitled)'
    const out: string[] = [`${conv.id}  ${tty ? sanitizeUntrusted(title) : title}`]
    // On a terminal the answers render as `jp query` renders them (SPEC §18), indented under their label.
    const markdown = tty ? await this.markdown(id) : undefined
    const {sumUsage, usageLine} = await import('../../lib/conversation/usage.js')
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
    process.stdout.write(out.join('\n') + '\n')
  }

  private async markdown(id: string): Promise<PrinterMarkdown | undefined> {
    let config
    try {
      config = await this.loadConfig({conversationId: id})
    } catch (e) {
      this.fail(e)
    }
    const screen = {isTTY: true, columns: Math.max(20, (process.stdout.columns ?? 80) - INDENT.length)} as unknown as NodeJS.WritableStream
    return markdownFor({style: config.style, format: 'text', stdout: screen, stderr: screen})
  }
}

const INDENT = '  '

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
    .map((l) => (l ? '  ' + l : l))
    .join('\n')
}

async function renderEvent(e: ConversationEvent, clean: (s: string) => string, markdown?: PrinterMarkdown): Promise<string[]> {
  const ev = e as Record<string, unknown>
  if (e.type === 'chat_response' && markdown?.assistant && markdown.reasoning) {
    return typeof ev.reasoning === 'string'
      ? ['reasoning:', indent(await rendered(ev.reasoning, markdown.reasoning))]
      : ['assistant:', indent(await rendered(String(ev.message), markdown.assistant))]
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
