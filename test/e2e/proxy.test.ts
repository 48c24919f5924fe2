// jp reaches providers through the proxy the environment names (HTTPS_PROXY,
// HTTP_PROXY, NO_PROXY), end to end through bin/run.js: a real HTTPS server
// behind a real CONNECT proxy, a plain HTTP server behind an absolute-URI
// proxy, and NO_PROXY sending a host around the proxy.
import {expect} from 'chai'
import {readFileSync, writeFileSync} from 'node:fs'
import {createServer as createHttpServer, request as httpRequest, type Server} from 'node:http'
import {createServer as createHttpsServer} from 'node:https'
import {connect, type AddressInfo, type Socket} from 'node:net'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'

const TLS = join(ROOT, 'test/fixtures/tls')
const ANSWER = ['Through ', 'the ', 'proxy.']

/** An OpenAI-format server answering every request with ANSWER; counts requests. */
function answer(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, seen: string[]): void {
  req.resume()
  req.on('end', () => {
    seen.push(`${req.method} ${req.url}`)
    res.writeHead(200, {'content-type': 'text/event-stream'})
    res.end(openaiText(ANSWER))
  })
}

const sockets = new WeakMap<Server, Set<Socket>>()

async function listen(server: Server): Promise<number> {
  // Tunnelled sockets leave the HTTP server's own bookkeeping: track them all.
  const open = new Set<Socket>()
  sockets.set(server, open)
  server.on('connection', (s: Socket) => {
    open.add(s)
    s.on('close', () => open.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

async function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  for (const s of sockets.get(server) ?? []) s.destroy()
  await closed
}

/** A forward proxy: CONNECT tunnels, and absolute-URI requests forwarded; records each. */
function startProxy(log: string[]): Server {
  const proxy = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`)
    const upstream = httpRequest(req.url!, {method: req.method, headers: req.headers}, (up) => {
      res.writeHead(up.statusCode!, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  proxy.on('connect', (req, client, head) => {
    log.push(`CONNECT ${req.url}`)
    const [host, port] = req.url!.split(':')
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      target.write(head)
      target.pipe(client)
      client.pipe(target)
    })
    target.on('error', () => client.destroy())
    client.on('error', () => target.destroy())
  })
  return proxy
}

describe('e2e: jp query through a proxy', function () {
  this.timeout(60_000)
  let sb: Sandbox
  const servers: Server[] = []
  const proxyLog: string[] = []
  const seen: string[] = []
  let proxyUrl = ''

  beforeEach(async () => {
    sb = makeSandbox()
    proxyLog.length = 0
    seen.length = 0
    const proxy = startProxy(proxyLog)
    servers.push(proxy)
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`
  })
  afterEach(async () => {
    for (const s of servers.splice(0)) await close(s)
    sb.cleanup()
  })

  async function query(baseUrl: string, env: NodeJS.ProcessEnv) {
    const config = join(sb.home, 'config.toml')
    writeFileSync(config, `[assistant.model]\nid = "llamacpp/proxy"\n[providers.llm.llamacpp]\nbase_url = "${baseUrl}/v1"\n`)
    // Start from no proxy settings at all, whatever the machine running the tests has.
    const clean = {HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', ALL_PROXY: '', all_proxy: '', NO_PROXY: '', no_proxy: ''}
    return runJp(['query', '-n', '--cfg', config, 'hi'], {sandbox: sb, env: {...clean, ...env}})
  }

  it('tunnels an https provider through HTTPS_PROXY with CONNECT', async () => {
    const https = createHttpsServer({key: readFileSync(join(TLS, 'localhost-key.pem')), cert: readFileSync(join(TLS, 'localhost-cert.pem'))}, (req, res) =>
      answer(req, res, seen),
    )
    servers.push(https)
    const port = await listen(https)
    const r = await query(`https://127.0.0.1:${port}`, {HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: join(TLS, 'localhost-cert.pem')})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(`${ANSWER.join('')}\n`)
    expect(proxyLog).to.deep.equal([`CONNECT 127.0.0.1:${port}`])
    expect(seen).to.deep.equal(['POST /v1/chat/completions'])
  })

  it('sends an http provider request to HTTP_PROXY as an absolute URI', async () => {
    const http = createHttpServer((req, res) => answer(req, res, seen))
    servers.push(http)
    const port = await listen(http)
    const r = await query(`http://127.0.0.1:${port}`, {http_proxy: proxyUrl})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(`${ANSWER.join('')}\n`)
    expect(proxyLog).to.deep.equal([`POST http://127.0.0.1:${port}/v1/chat/completions`])
  })

  it('goes direct for a host NO_PROXY names', async () => {
    const http = createHttpServer((req, res) => answer(req, res, seen))
    servers.push(http)
    const port = await listen(http)
    const r = await query(`http://127.0.0.1:${port}`, {HTTP_PROXY: proxyUrl, NO_PROXY: 'example.com,127.0.0.1'})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(`${ANSWER.join('')}\n`)
    expect(proxyLog).to.deep.equal([])
    expect(seen).to.deep.equal(['POST /v1/chat/completions'])
  })

  it('a proxy given without a scheme is a plain http proxy (as curl takes it), also for an https provider', async () => {
    const https = createHttpsServer({key: readFileSync(join(TLS, 'localhost-key.pem')), cert: readFileSync(join(TLS, 'localhost-cert.pem'))}, (req, res) =>
      answer(req, res, seen),
    )
    servers.push(https)
    const port = await listen(https)
    const bare = proxyUrl.replace(/^http:\/\//, '')
    const r = await query(`https://127.0.0.1:${port}`, {HTTPS_PROXY: bare, NODE_EXTRA_CA_CERTS: join(TLS, 'localhost-cert.pem')})
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.equal(`${ANSWER.join('')}\n`)
    expect(proxyLog).to.deep.equal([`CONNECT 127.0.0.1:${port}`])
  })

  it('a proxy setting that is no URL is one error line naming the variable, and no request is retried', async () => {
    const http = createHttpServer((req, res) => answer(req, res, seen))
    servers.push(http)
    const port = await listen(http)
    const r = await query(`http://127.0.0.1:${port}`, {HTTP_PROXY: 'http://[bad'})
    expect(r.code).to.equal(1)
    const errors = r.stderr.trim().split('\n').filter((l) => l.startsWith('Error:'))
    expect(errors, r.stderr).to.deep.equal(['Error: HTTP_PROXY = "http://[bad" is not a proxy URL (e.g. http://proxy.example.com:3128)'])
    expect(r.stderr).to.not.match(/retrying/i)
    expect(seen).to.deep.equal([])
  })

  it('a proxy that cannot be reached is a one-line error naming the provider', async () => {
    const http = createHttpServer((req, res) => answer(req, res, seen))
    servers.push(http)
    const port = await listen(http)
    const dead = createHttpServer()
    const deadPort = await listen(dead)
    await close(dead)
    const r = await query(`http://127.0.0.1:${port}`, {HTTP_PROXY: `http://127.0.0.1:${deadPort}`})
    expect(r.code).to.not.equal(0)
    expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('Error:'))).to.have.length(1)
    expect(r.stderr).to.match(/llamacpp: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/)
    expect(seen).to.deep.equal([])
  })
})
