// A real HTTP server on 127.0.0.1 that replays scripted responses byte for
// byte and records every request it receives (method, path, headers, body).
import {readFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server, type ServerResponse} from 'node:http'
import {listenLocal} from '../helpers/local-server.js'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')

/** A fixture file's text (SSE or NDJSON, exactly as a server sends it). */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8')
}

export interface ScriptedResponse {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** Write the body in pieces of this many bytes (splitting UTF-8 sequences too). */
  pieceBytes?: number
  /** After writing the body, destroy the socket instead of ending the response. */
  destroy?: boolean
  /** After writing the body, keep the response open until the client goes away. */
  hold?: boolean
}

export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  json(): unknown
}

export interface ReplayServer {
  url: string
  requests: RecordedRequest[]
  /** Resolves when the client closed a held response. */
  clientGone: Promise<void>
  close(): Promise<void>
}

export async function startReplayServer(script: ScriptedResponse[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = []
  let markGone!: () => void
  const clientGone = new Promise<void>((resolve) => (markGone = resolve))
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (d: Buffer) => parts.push(d))
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8')
      requests.push({method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: () => JSON.parse(body)})
      const step = script[Math.min(requests.length - 1, script.length - 1)]
      void respond(res, step, markGone)
    })
  })
  const {url, close} = await listenLocal(server)
  return {url, requests, clientGone, close}
}

async function respond(res: ServerResponse, step: ScriptedResponse, markGone: () => void): Promise<void> {
  res.writeHead(step.status ?? 200, {'content-type': 'text/event-stream', ...step.headers})
  const bytes = Buffer.from(step.body ?? '', 'utf8')
  const size = step.pieceBytes ?? bytes.length
  for (let i = 0; i < bytes.length; i += Math.max(1, size)) {
    res.write(bytes.subarray(i, i + size))
    // Let each piece leave as its own write so the client sees real fragmentation.
    if (step.pieceBytes) await new Promise((r) => setTimeout(r, 1))
  }
  if (step.destroy) {
    await new Promise((r) => setTimeout(r, 20))
    res.socket?.destroy()
    return
  }
  if (step.hold) {
    res.on('close', () => markGone())
    return
  }
  res.end()
}
