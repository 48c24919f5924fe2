// Running one measured child process for the end-to-end benches: wall time
// from spawn to exit and, through /usr/bin/time -v when present, peak RSS.
// Also the isolated environment every jp run of a bench gets.
import {spawn} from 'node:child_process'
import type {Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

const TIME = '/usr/bin/time'

export interface Sample {
  ms: number
  maxRssKb: number
  /** What the child wrote to stdout. */
  out: string
}

/** Runs `node ARGS` under /usr/bin/time -v (when present), stdout to a file. */
export function measure(args: string[], opts: {cwd: string; env: NodeJS.ProcessEnv; outFile: string}): Promise<Sample> {
  const timeFile = `${opts.outFile}.time`
  const useTime = existsSync(TIME)
  const [file, argv] = useTime ? [TIME, ['-v', '-o', timeFile, process.execPath, ...args]] : [process.execPath, args]
  const fd = openSync(opts.outFile, 'w')
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(file, argv, {cwd: opts.cwd, env: opts.env, stdio: ['ignore', fd, 'pipe']})
    if (!child.stderr) throw new Error('no stderr pipe')
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      closeSync(fd)
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))
      const rss = useTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8')) : null
      resolve({ms, maxRssKb: rss ? Number(rss[1]) : Number.NaN, out: readFileSync(opts.outFile, 'utf8')})
    })
  })
}

/**
 * A HOME under `dir` whose user config points jp at an OpenAI-compatible
 * server (`llamacpp/bench`), and the environment to run jp in it (the
 * developer's JP_/XDG_/key variables removed).
 */
export function benchEnv(dir: string, baseUrl: string): NodeJS.ProcessEnv {
  const home = join(dir, 'home')
  mkdirSync(join(home, '.config', 'jp'), {recursive: true})
  writeFileSync(join(home, '.config', 'jp', 'config.toml'), `[assistant.model]\nid = "llamacpp/bench"\n[providers.llm.llamacpp]\nbase_url = "${baseUrl}"\n`)
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(JP_|XDG_|OPENAI_|ANTHROPIC_)/.test(k)) env[k] = v
  return Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    JP_DATA_DIR: join(home, 'oclif'),
    JP_USER_DATA_DIR: join(home, 'jp'),
  })
}

/** Starts `server` on a local port; its OpenAI-style base URL (with /v1) and a close that drops open connections. */
export async function listenLocal(server: Server): Promise<{baseUrl: string; close(): Promise<void>}> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
