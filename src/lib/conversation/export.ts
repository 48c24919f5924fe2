// `jp conversation export --format markdown`: a conversation as a markdown
// document — a heading per turn, the user's text quoted, answers as stored
// (they are markdown already), reasoning, attachments, tool calls and their
// results in fenced blocks whose fence is longer than any backtick run inside.
// Written to a file or a pipe as is: the stored text is never altered.
import type {ConversationEvent} from './events.js'
import type {Conversation} from './store.js'
import {forkedFrom} from './fork.js'

/** The longest run of backticks in `text`. */
function longestTicks(text: string): number {
  let longest = 0
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  return longest
}

/** A fence longer than any backtick run in `text` (at least three). */
function fence(text: string): string {
  return '`'.repeat(Math.max(3, longestTicks(text) + 1))
}

function fenced(text: string, info = ''): string {
  const f = fence(text)
  return `${f}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${f}`
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n')
}

/** A label's code span, safe for any text (backticks inside, leading or trailing). */
function code(text: string): string {
  const f = '`'.repeat(longestTicks(text) + 1)
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `${f}${pad}${text}${pad}${f}`
}

function eventBlock(e: ConversationEvent): string | undefined {
  const ev = e as Record<string, unknown>
  switch (e.type) {
    case 'chat_request':
      return `**User**\n\n${quoted(String(ev.content))}`
    case 'attachment':
      return `**Attached** ${code(String(ev.path))}\n\n${fenced(String(ev.content))}`
    case 'chat_response':
      return typeof ev.reasoning === 'string' ? `**Reasoning**\n\n${fenced(ev.reasoning, 'text')}` : `**Assistant**\n\n${String(ev.message)}`
    case 'tool_call_request':
      return `**Tool call** ${code(String(ev.name))} (${code(String(ev.id))})\n\n${fenced(JSON.stringify(ev.arguments, null, 2), 'json')}`
    case 'tool_call_response':
      return `**Tool result** (${code(String(ev.id))})${ev.is_error ? ', error' : ''}\n\n${fenced(String(ev.content))}`
    case 'turn_start':
    case 'usage':
    case 'config_delta':
      return undefined
    default:
      return `**${String(e.type)}**\n\n${fenced(JSON.stringify(e, null, 2), 'json')}`
  }
}

/** The conversation as one markdown document (ends with a newline). */
export function conversationMarkdown(conv: Conversation): string {
  const title = typeof conv.metadata.title === 'string' && conv.metadata.title ? conv.metadata.title : '(untitled)'
  const parts = [`# ${title}`, '', `Conversation \`${conv.id}\`${originNote(conv)}.`]
  let turn = 0
  for (const e of conv.events) {
    if (e.type === 'turn_start' || (turn === 0 && eventBlock(e) !== undefined)) {
      turn++
      parts.push('', `## Turn ${turn}`)
      if (e.type === 'turn_start') continue
    }
    const block = eventBlock(e)
    if (block !== undefined) parts.push('', block)
  }
  return parts.join('\n') + '\n'
}

function originNote(conv: Conversation): string {
  const from = forkedFrom(conv.metadata)
  return from ? `, forked from \`${from.id}\` at turn ${from.turn}` : ''
}
