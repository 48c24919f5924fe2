// The MCP servers jp's tests run against: the SDK fixture (test/fixtures/mcp/server.mjs)
// over stdio or Streamable HTTP, and the published reference server from node_modules.
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {ROOT} from './cli.js'

export const MCP_FIXTURE = join(ROOT, 'test/fixtures/mcp/server.mjs')

/** `@modelcontextprotocol/server-everything`'s entry (a dev dependency). */
export function everythingServer(): string {
  const require = createRequire(import.meta.url)
  return join(require.resolve('@modelcontextprotocol/server-everything/package.json'), '..', 'dist', 'index.js')
}

/** The fixture's record (`call …`, `cancelled …`, `env …`), one entry a line. */
export function fixtureRecord(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').trimEnd().split('\n').filter(Boolean) : []
}

/** The fixture serving Streamable HTTP on 127.0.0.1; `url` once it listens. */
export async function startHttpFixture(env: NodeJS.ProcessEnv): Promise<{url: string; child: ChildProcess; close(): Promise<void>}> {
  const child = spawn(process.execPath, [MCP_FIXTURE, '--http'], {env, stdio: ['ignore', 'pipe', 'ignore']})
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code})`)))
  })
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  }
}
