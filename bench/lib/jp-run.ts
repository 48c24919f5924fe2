// Shared by the end-to-end benches that race `jp query` against a bare
// client: a throw-away HOME whose config points jp at a local server, and
// the alternating loop (one warm-up each, then the two take turns going
// first, so neither always runs on a warmer machine).
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/** A HOME under `dir` whose jp config uses `baseUrl` (OpenAI format), and the env that isolates it. */
export function benchHome(dir: string, baseUrl: string): {env: NodeJS.ProcessEnv; work: string} {
  const home = join(dir, 'home')
  const work = join(dir, 'work')
  mkdirSync(join(home, '.config', 'jp'), {recursive: true})
  mkdirSync(work)
  writeFileSync(join(home, '.config', 'jp', 'config.toml'), `[assistant.model]\nid = "llamacpp/bench"\n[providers.llm.llamacpp]\nbase_url = "${baseUrl}"\n`)
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(JP_|XDG_|OPENAI_|ANTHROPIC_|NODE_OPTIONS$)/.test(k)) env[k] = v
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    JP_DATA_DIR: join(home, 'oclif'),
    JP_USER_DATA_DIR: join(home, 'jp'),
  })
  return {env, work}
}

/** Runs `bare` and `jp` `runs` times each, alternating which goes first, after one warm-up each. */
export async function alternate<T>(runs: number, bare: () => Promise<T>, jp: () => Promise<T>): Promise<{bare: T[]; jp: T[]}> {
  await bare()
  await jp()
  const out = {bare: [] as T[], jp: [] as T[]}
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      out.bare.push(await bare())
      out.jp.push(await jp())
    } else {
      out.jp.push(await jp())
      out.bare.push(await bare())
    }
  }
  return out
}
