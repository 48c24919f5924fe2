// Recorded-format streams for the oracle tests: each one is built event by
// event in the exact wire format the provider sends (SSE for Anthropic and
// OpenAI, NDJSON for Ollama), covering text, parallel tool calls with
// fragmented arguments, thinking with signatures, redacted thinking, errors
// mid-stream and every stop reason.

export type Wire = 'anthropic' | 'openai' | 'ollama'

export interface OracleCase {
  name: string
  wire: Wire
  body: string
  /** The stream breaks off with an error: both sides must fail after the same partial answer. */
  fails?: boolean
}

// ---------------------------------------------------------------- Anthropic

const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`

function aStart(usage: Record<string, number> = {input_tokens: 25, output_tokens: 1}): string {
  return sse('message_start', {
    message: {id: 'msg_oracle', type: 'message', role: 'assistant', model: 'claude-oracle', content: [], stop_reason: null, stop_sequence: null, usage},
  })
}

function aText(index: number, pieces: string[]): string {
  return (
    sse('content_block_start', {index, content_block: {type: 'text', text: ''}}) +
    pieces.map((text) => sse('content_block_delta', {index, delta: {type: 'text_delta', text}})).join('') +
    sse('content_block_stop', {index})
  )
}

function aThinking(index: number, pieces: string[], signature: string): string {
  return (
    sse('content_block_start', {index, content_block: {type: 'thinking', thinking: '', signature: ''}}) +
    pieces.map((thinking) => sse('content_block_delta', {index, delta: {type: 'thinking_delta', thinking}})).join('') +
    sse('content_block_delta', {index, delta: {type: 'signature_delta', signature}}) +
    sse('content_block_stop', {index})
  )
}

function aRedacted(index: number, data: string): string {
  return sse('content_block_start', {index, content_block: {type: 'redacted_thinking', data}}) + sse('content_block_stop', {index})
}

function aTool(index: number, id: string, name: string, fragments: string[]): string {
  return (
    sse('content_block_start', {index, content_block: {type: 'tool_use', id, name, input: {}}}) +
    fragments.map((partial_json) => sse('content_block_delta', {index, delta: {type: 'input_json_delta', partial_json}})).join('') +
    sse('content_block_stop', {index})
  )
}

function aEnd(stopReason: string, usage: Record<string, number> = {output_tokens: 9}): string {
  return sse('message_delta', {delta: {stop_reason: stopReason, stop_sequence: null}, usage}) + sse('message_stop', {})
}

/** A short Anthropic answer: what the server says after a tool result or to the next query. */
export function anthropicFollowUp(): string {
  return aStart() + aText(0, ['Thanks.']) + aEnd('end_turn')
}

const ANTHROPIC: OracleCase[] = [
  {name: 'text', wire: 'anthropic', body: aStart() + aText(0, ['Héllo, ', 'wörld 🙂\n', 'two lines']) + aEnd('end_turn')},
  {
    name: 'parallel tools, fragmented arguments',
    wire: 'anthropic',
    body:
      aStart() +
      aText(0, ['Calling both.']) +
      aTool(1, 'toolu_A', 'greet', ['{"na', 'me": "A', 'nn"}']) +
      aTool(2, 'toolu_B', 'list_files', ['', '{"path":"src",', ' "depth": 2}']) +
      aEnd('tool_use'),
  },
  {
    name: 'two signed thinking blocks + redacted + tool',
    wire: 'anthropic',
    body:
      aStart() +
      aThinking(0, ['First ', 'thought.'], 'sig-A') +
      aRedacted(1, 'EncryptedBlobR1==') +
      aThinking(2, ['Second thought.'], 'sig-B') +
      aTool(3, 'toolu_T', 'greet', ['{"name":"Ann"}']) +
      aEnd('tool_use'),
  },
  {name: 'thinking + text', wire: 'anthropic', body: aStart() + aThinking(0, ['Let me think.'], 'sig-1') + aText(1, ['Answer.']) + aEnd('end_turn')},
  {
    name: 'cached prompt, running totals repeated',
    wire: 'anthropic',
    body:
      aStart({input_tokens: 25, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 1}) +
      aText(0, ['Cached.']) +
      aEnd('end_turn', {input_tokens: 25, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 9}),
  },
  {
    name: 'cached prompt, output only in delta',
    wire: 'anthropic',
    body: aStart({input_tokens: 25, cache_read_input_tokens: 100, output_tokens: 1}) + aText(0, ['Cached.']) + aEnd('end_turn', {output_tokens: 9}),
  },
  ...['max_tokens', 'stop_sequence', 'refusal', 'model_context_window_exceeded', 'pause_turn'].map(
    (reason): OracleCase => ({name: `stop: ${reason}`, wire: 'anthropic', body: aStart() + aText(0, ['Partial']) + aEnd(reason)}),
  ),
  {
    name: 'error mid-stream',
    wire: 'anthropic',
    fails: true,
    body:
      aStart() +
      sse('content_block_start', {index: 0, content_block: {type: 'text', text: ''}}) +
      sse('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'Partial answer'}}) +
      sse('error', {error: {type: 'overloaded_error', message: 'Overloaded'}}),
  },
]

// ------------------------------------------------------------------- OpenAI

function oChunk(delta: Record<string, unknown> | undefined, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  const choices = delta === undefined ? [] : [{index: 0, delta, finish_reason: finish, logprobs: null}]
  return `data: ${JSON.stringify({id: 'chatcmpl-oracle', object: 'chat.completion.chunk', created: 1, model: 'gpt-oracle', choices, ...extra})}\n\n`
}

const oUsage = oChunk(undefined, null, {usage: {prompt_tokens: 31, completion_tokens: 7, total_tokens: 38}})
const oDone = 'data: [DONE]\n\n'

export function openaiFollowUp(): string {
  return oChunk({role: 'assistant', content: ''}) + oChunk({content: 'Thanks.'}) + oChunk({}, 'stop') + oUsage + oDone
}

const OPENAI: OracleCase[] = [
  {
    name: 'text',
    wire: 'openai',
    body: oChunk({role: 'assistant', content: ''}) + ['Héllo, ', 'wörld 🙂\n', 'two lines'].map((c) => oChunk({content: c})).join('') + oChunk({}, 'stop') + oUsage + oDone,
  },
  {
    name: 'parallel tools, fragmented arguments',
    wire: 'openai',
    body:
      oChunk({role: 'assistant', content: null}) +
      oChunk({tool_calls: [{index: 0, id: 'call_A', type: 'function', function: {name: 'greet', arguments: ''}}]}) +
      oChunk({tool_calls: [{index: 0, function: {arguments: '{"na'}}]}) +
      oChunk({tool_calls: [{index: 1, id: 'call_B', type: 'function', function: {name: 'list_files', arguments: '{"path":'}}]}) +
      oChunk({tool_calls: [{index: 0, function: {arguments: 'me": "Ann"}'}}]}) +
      oChunk({tool_calls: [{index: 1, function: {arguments: ' "src", "depth": 2}'}}]}) +
      oChunk({}, 'tool_calls') +
      oUsage +
      oDone,
  },
  {
    name: 'text then tool',
    wire: 'openai',
    body:
      oChunk({role: 'assistant', content: 'Let me check. '}) +
      oChunk({tool_calls: [{index: 0, id: 'call_C', type: 'function', function: {name: 'greet', arguments: '{"name":"Bo"}'}}]}) +
      oChunk({}, 'tool_calls') +
      oUsage +
      oDone,
  },
  ...['length', 'content_filter'].map(
    (reason): OracleCase => ({
      name: `stop: ${reason}`,
      wire: 'openai',
      body: oChunk({role: 'assistant', content: 'Partial'}) + oChunk({}, reason) + oUsage + oDone,
    }),
  ),
  {
    name: 'error mid-stream',
    wire: 'openai',
    fails: true,
    body: oChunk({role: 'assistant', content: 'Partial answer'}) + `data: ${JSON.stringify({error: {message: 'The server had an error', type: 'server_error'}})}\n\n`,
  },
]

// ------------------------------------------------------------------- Ollama

const nd = (o: Record<string, unknown>) => JSON.stringify({model: 'llama-oracle', created_at: '2026-01-01T00:00:00Z', ...o}) + '\n'
const lDone = (reason: string) => nd({message: {role: 'assistant', content: ''}, done: true, done_reason: reason, prompt_eval_count: 42, eval_count: 11})

export function ollamaFollowUp(): string {
  return nd({message: {role: 'assistant', content: 'Thanks.'}, done: false}) + lDone('stop')
}

const OLLAMA: OracleCase[] = [
  {
    name: 'text',
    wire: 'ollama',
    body: ['Héllo, ', 'wörld 🙂\n', 'two lines'].map((content) => nd({message: {role: 'assistant', content}, done: false})).join('') + lDone('stop'),
  },
  {
    name: 'thinking + text',
    wire: 'ollama',
    body:
      nd({message: {role: 'assistant', content: '', thinking: 'Let me '}, done: false}) +
      nd({message: {role: 'assistant', content: '', thinking: 'think.'}, done: false}) +
      nd({message: {role: 'assistant', content: 'Answer.'}, done: false}) +
      lDone('stop'),
  },
  {
    name: 'parallel tools',
    wire: 'ollama',
    body:
      nd({
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{function: {name: 'greet', arguments: {name: 'Ann'}}}, {function: {name: 'list_files', arguments: {path: 'src', depth: 2}}}],
        },
        done: false,
      }) + lDone('stop'),
  },
  {name: 'stop: length', wire: 'ollama', body: nd({message: {role: 'assistant', content: 'Partial'}, done: false}) + lDone('length')},
  {
    name: 'error mid-stream',
    wire: 'ollama',
    fails: true,
    body: nd({message: {role: 'assistant', content: 'Partial answer'}, done: false}) + JSON.stringify({error: 'model runner crashed'}) + '\n',
  },
]

export const ORACLE_CASES: OracleCase[] = [...ANTHROPIC, ...OPENAI, ...OLLAMA]

export function followUp(wire: Wire): string {
  return wire === 'anthropic' ? anthropicFollowUp() : wire === 'openai' ? openaiFollowUp() : ollamaFollowUp()
}
