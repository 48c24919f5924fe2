// Stored events → the provider-neutral messages of the next request. The
// conversation file is the source of truth; a request is always rebuilt from
// it, so a resumed or edited conversation sends exactly what is stored.
import type {ConversationEvent} from '../conversation/events.js'
import type {AssistantMessage, ChatMessage, ToolCall} from '../llm/types.js'

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
