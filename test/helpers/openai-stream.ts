// Builds OpenAI Chat Completions SSE bodies (the wire format llama.cpp,
// OpenRouter, vLLM and Ollama /v1 speak too) for end-to-end tests.

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1, model: 'e2e', choices: [{index: 0, delta, finish_reason: finish}]}
  return `data: ${JSON.stringify(body)}\n\n`
}

/** A streamed text answer, one SSE event per piece. */
export function openaiText(pieces: string[]): string {
  return chunk({role: 'assistant', content: ''}) + pieces.map((p) => chunk({content: p})).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n'
}

/** A response that calls one tool, its arguments split in two fragments. */
export function openaiToolCall(id: string, name: string, args: Record<string, unknown>, preface = ''): string {
  const json = JSON.stringify(args)
  const half = Math.floor(json.length / 2)
  return (
    chunk({role: 'assistant', content: preface || null}) +
    chunk({tool_calls: [{index: 0, id, type: 'function', function: {name, arguments: json.slice(0, half)}}]}) +
    chunk({tool_calls: [{index: 0, function: {arguments: json.slice(half)}}]}) +
    chunk({}, 'tool_calls') +
    'data: [DONE]\n\n'
  )
}
