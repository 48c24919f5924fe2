// A local server that streams one large OpenAI Chat Completions SSE response,
// shaped like the real thing (ids, model, fingerprint, obfuscation padding,
// a usage chunk, [DONE]). Shared by the adapter bench and the end-to-end
// `jp query` bench. And the bare event-stream endpoint the interrupt and
// queue benches write their own streams through.
import {createServer, type Server, type ServerResponse} from 'node:http'
import {listenLocal} from '../../test/helpers/local-server.js'

/**
 * A local endpoint answering every request, once its body is read, with a
 * 200 event stream that `respond` writes; `open()` is false once the client
 * has hung up.
 */
export async function startSseEndpoint(respond: (res: ServerResponse, open: () => boolean) => void): Promise<{baseUrl: string; close(): Promise<void>}> {
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      let open = true
      res.on('close', () => (open = false))
      respond(res, () => open)
    })
  })
  const {baseUrl, close} = await listenLocal(server)
  return {baseUrl, close}
}

export interface SseServer {
  /** Base URL including `/v1`, for `providers.llm.openai.base_url`. */
  baseUrl: string
  /** Bytes of the SSE body served per request. */
  bodyBytes: number
  /** Characters of assistant text the body carries, to check consumers. */
  textChars: number
  requests: number
  close(): Promise<void>
}

const WORDS = ['the', 'stream', 'adapter', 'parses', 'server-sent', 'events', 'quickly,', 'and', 'émits', 'text', 'deltas', '—', 'ok.\n']

/** The SSE body: about `targetBytes` of content chunks, then finish, usage and [DONE]. */
export function buildOpenAISseBody(targetBytes: number): {body: Buffer; textChars: number} {
  const parts: string[] = []
  let size = 0
  let textChars = 0
  const head = '{"id":"chatcmpl-Bench0001","object":"chat.completion.chunk","created":1751000000,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_bench01","choices":[{"index":0,"delta":{"content":'
  for (let i = 0; size < targetBytes; i++) {
    const text = `${WORDS[i % WORDS.length]} `
    textChars += text.length
    const line = `data: ${head}${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"${'x'.repeat(i % 7)}"}\n\n`
    parts.push(line)
    size += Buffer.byteLength(line)
  }
  parts.push(
    'data: {"id":"chatcmpl-Bench0001","object":"chat.completion.chunk","created":1751000000,"model":"gpt-4.1-2025-04-14","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n',
    'data: {"id":"chatcmpl-Bench0001","object":"chat.completion.chunk","created":1751000000,"model":"gpt-4.1-2025-04-14","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1000000,"total_tokens":1000010}}\n\n',
    'data: [DONE]\n\n',
  )
  return {body: Buffer.from(parts.join(''), 'utf8'), textChars}
}

export async function startOpenAISseServer(targetBytes = 20 * 1024 * 1024): Promise<SseServer> {
  const {body, textChars} = buildOpenAISseBody(targetBytes)
  let requests = 0
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      res.writeHead(200, {'content-type': 'text/event-stream', 'content-length': String(body.length)})
      res.end(body)
    })
  })
  const {baseUrl, close} = await listenLocal(server)
  return {
    baseUrl,
    bodyBytes: body.length,
    textChars,
    get requests() {
      return requests
    },
    close,
  }
}
