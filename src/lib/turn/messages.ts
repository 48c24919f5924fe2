// Stored events → the provider-neutral messages of the next request. The
// conversation file is the source of truth; a request is always rebuilt from
// it, so a resumed or edited conversation sends exactly what is stored.
import type {ConversationEvent} from '../conversation/events.js'
import type {AssistantMessage, ChatMessage, ToolCall} from '../llm/types.js'

/**
 * An attachment (`jp query -a PATH`) as the model reads it: its path, then its
 * text in a fence longer than any run of backticks inside it, so the file
 * cannot close the fence.
 */
export function attachmentText(a: {path: string; content: string}): string {
  let longest = 0
  for (const m of a.content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  const fence = '`'.repeat(Math.max(3, longest + 1))
  const body = a.content.endsWith('\n') ? a.content : `${a.content}\n`
  return `Attached file ${a.path}:\n${fence}\n${body}${fence}`
}

export function eventsToMessages(events: readonly ConversationEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = []
  const toolNames = new Map<string, string>()
  const answered = new Set<string>()
  for (const e of events) if (e.type === 'tool_call_response' && typeof e.id === 'string') answered.add(e.id)

  let assistant: AssistantMessage | undefined
  const closeAssistant = () => {
    if (assistant && (assistant.content !== '' || assistant.reasoning || assistant.thinking?.length || assistant.toolCalls?.length)) {
      messages.push(assistant)
    }
    assistant = undefined
  }

  const openAssistant = (): AssistantMessage => (assistant ??= {role: 'assistant', content: ''})

  for (const e of events) {
    switch (e.type) {
      case 'chat_request': {
        closeAssistant()
        messages.push({role: 'user', content: String(e.content)})
        break
      }

      case 'chat_response': {
        const a = openAssistant()
        if (typeof e.message === 'string') a.content += e.message
        else if (typeof e.reasoning === 'string') {
          if (e.reasoning !== '') a.reasoning = (a.reasoning ?? '') + e.reasoning
          // Each stored thinking block goes back as it came: its own text and
          // signature, or its redacted data (see storedReasoning in turn/response.ts).
          const {signature, redacted_thinking: redacted} = e as {signature?: unknown; redacted_thinking?: unknown}
          if (typeof redacted === 'string') (a.thinking ??= []).push({type: 'redacted_thinking', data: redacted})
          else if (typeof signature === 'string') (a.thinking ??= []).push({type: 'thinking', thinking: e.reasoning, signature})
        }
        break
      }

      case 'attachment': {
        // Part of the query it follows: appended to that user message.
        const last = messages.at(-1)
        if (last?.role === 'user' && typeof e.path === 'string' && typeof e.content === 'string') {
          last.content += `\n\n${attachmentText({path: e.path, content: e.content})}`
        }
        break
      }

      case 'tool_call_request': {
        const id = String(e.id)
        // A call nobody answered (a crash between request and response) would
        // make the next request invalid for every provider: leave it out.
        if (!answered.has(id)) break
        const call: ToolCall = {id, name: String(e.name), arguments: (e.arguments ?? {}) as Record<string, unknown>}
        toolNames.set(id, call.name)
        const a = openAssistant()
        ;(a.toolCalls ??= []).push(call)
        break
      }

      case 'tool_call_response': {
        const id = String(e.id)
        const name = toolNames.get(id)
        if (name === undefined) break // its request is gone: an orphan answer is invalid too
        closeAssistant()
        messages.push({role: 'tool', toolCallId: id, name, content: String(e.content), isError: e.is_error === true})
        break
      }

      default:
        break
    }
  }

  closeAssistant()
  return messages
}
