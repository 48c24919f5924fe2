// Local servers answering the model-listing requests exactly as the
// providers do (checked against their API references): OpenAI's
// `GET /v1/models`, Anthropic's `GET /v1/models` (paged by `after_id`) and
// Ollama's `GET /api/tags`. Each records the requests it receives, answers
// 404 on any other path, and can be told to refuse (a status and the
// provider's own error body).
import {createServer, type IncomingHttpHeaders} from 'node:http'
import {listenLocal, type LocalServer} from './local-server.js'

export type ModelsWire = 'openai' | 'anthropic' | 'ollama'

export interface ModelsServer extends LocalServer {
  requests: Array<{method: string; path: string; headers: IncomingHttpHeaders}>
}

export interface ModelsServerOptions {
  /** Answer every listing with this status and the provider's error body. */
  refuse?: number
  /** Anthropic: models per page (the client asks for `limit`; a smaller page tests `has_more`). */
  pageSize?: number
  /** Per model: a display name (Anthropic's `display_name`). */
  names?: Record<string, string>
}

const PATHS: Record<ModelsWire, string> = {openai: '/v1/models', anthropic: '/v1/models', ollama: '/api/tags'}

export async function startModelsServer(wire: ModelsWire, models: string[], opts: ModelsServerOptions = {}): Promise<ModelsServer> {
  const requests: ModelsServer['requests'] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    requests.push({method: req.method ?? '', path: req.url ?? '', headers: req.headers})
    if (req.method !== 'GET' || url.pathname !== PATHS[wire]) {
      res.writeHead(404, {'content-type': 'application/json'}).end(JSON.stringify(errorBody(wire, 'not_found_error', 'Not Found')))
      return
    }
    if (opts.refuse) {
      res.writeHead(opts.refuse, {'content-type': 'application/json'}).end(JSON.stringify(errorBody(wire, 'authentication_error', 'invalid x-api-key')))
      return
    }
    res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(listing(wire, models, url.searchParams, opts)))
  })
  const local = await listenLocal(server)
  return {...local, requests}
}

function errorBody(wire: ModelsWire, type: string, message: string): unknown {
  if (wire === 'ollama') return {error: message}
  if (wire === 'anthropic') return {type: 'error', error: {type, message}}
  return {error: {message, type: 'invalid_request_error', param: null, code: 'invalid_api_key'}}
}

function listing(wire: ModelsWire, models: string[], query: URLSearchParams, opts: ModelsServerOptions): unknown {
  const created = 1_700_000_000
  switch (wire) {
    case 'openai':
      return {object: 'list', data: models.map((id) => ({id, object: 'model', created, owned_by: 'system'}))}
    case 'ollama':
      return {
        models: models.map((name) => ({
          name,
          model: name,
          modified_at: '2026-05-01T10:00:00.000000+00:00',
          size: 2_019_393_189,
          digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
          details: {parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '3.2B', quantization_level: 'Q4_K_M'},
        })),
      }
    case 'anthropic': {
      const limit = Math.min(Number(query.get('limit') ?? 20), opts.pageSize ?? Infinity)
      const after = query.get('after_id')
      const start = after ? models.indexOf(after) + 1 : 0
      const page = models.slice(start, start + limit)
      return {
        data: page.map((id) => ({type: 'model', id, display_name: opts.names?.[id] ?? id, created_at: '2025-09-29T00:00:00Z'})),
        has_more: start + limit < models.length,
        first_id: page[0] ?? null,
        last_id: page.at(-1) ?? null,
      }
    }
  }
}
