// jp's side of the oracle tests: the same recorded stream served to the
// built CLI (`jp query --format json`), with two local tools it may call
// unattended. The outcome is read from what jp printed (NDJSON text, usage
// and finish events) and from the next request jp sent the server — after
// its tool results, or for a follow-up query — so what is compared is what
// jp stored and sends back, not an internal structure.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp} from '../../helpers/cli.js'
import {startReplayServer} from '../replay-server.js'
import {normaliseOpenAIAssistant, type Outcome} from './outcome.js'
import {followUp, type OracleCase} from './streams.js'

const TOOL = join(ROOT, 'test/fixtures/tools/e2e-record.sh')

export interface JpRun {
  outcome: Outcome
  /** Every request body jp sent, parsed. */
  requests: Record<string, unknown>[]
  stderr: string
  /** The normalised reason of the first response's finish event. */
  finishReason?: unknown
}

const MODEL: Record<OracleCase['wire'], {id: string; table: string; base: (url: string) => string}> = {
  anthropic: {id: 'anthropic/claude-oracle', table: 'anthropic', base: (url) => url},
  openai: {id: 'openai/gpt-oracle', table: 'openai', base: (url) => `${url}/v1`},
  ollama: {id: 'ollama/llama-oracle', table: 'ollama', base: (url) => url},
}

export async function jpOutcome(c: OracleCase): Promise<JpRun> {
  const sb = makeSandbox({ANTHROPIC_API_KEY: 'sk-ant-oracle', OPENAI_API_KEY: 'sk-oracle'})
  const server = await startReplayServer([{body: c.body}, {body: followUp(c.wire)}, {body: followUp(c.wire)}])
  try {
    const m = MODEL[c.wire]
    const tool = (name: string) => `[conversation.tools.${name}]\ncommand = "${TOOL}"\nrun = "unattended"\nresult = "unattended"\n`
    const file = join(sb.home, 'config.toml')
    writeFileSync(
      file,
      `[assistant.model]\nid = "${m.id}"\n[providers.llm.${m.table}]\nbase_url = "${m.base(server.url)}"\n` + tool('greet') + tool('list_files'),
    )
    const env = {RECORD_FILE: join(sb.dir, 'record.txt')}
    const first = await runJp(['query', '--cfg', file, '--format', 'json', 'first'], {sandbox: sb, env})
    const events = first.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const text = events.filter((e) => e.type === 'text').map((e) => String(e.text)).join('')
    const failed = first.code !== 0
    if (!failed && server.requests.length === 1) {
      // No tool call: the stored answer is sent back with the next query.
      const second = await runJp(['query', '--cfg', file, 'next'], {sandbox: sb, env})
      if (second.code !== 0) throw new Error(`follow-up query failed: ${second.stderr}`)
    }
    const requests = server.requests.map((r) => r.json() as Record<string, unknown>)
    // The first response's events only: a tool call's follow-up answer prints its own.
    const firstFinish = events.find((e) => e.type === 'finish')
    const firstUsage = events.find((e) => e.type === 'usage')
    const outcome: Outcome = {text: failed ? text : firstText(events), failed}
    if (!failed) {
      const messages = (requests[1]?.messages ?? []) as Record<string, unknown>[]
      const assistant = messages.find((msg) => msg.role === 'assistant')
      outcome.assistant = c.wire === 'openai' && assistant ? normaliseOpenAIAssistant(assistant) : assistant
      outcome.finish = typeof firstFinish?.raw === 'string' ? firstFinish.raw : undefined
      outcome.usage = firstUsage
        ? {input: firstUsage.input_tokens as number | undefined, output: firstUsage.output_tokens as number | undefined}
        : undefined
    }
    return {outcome, requests, stderr: first.stderr, finishReason: firstFinish?.reason}
  } finally {
    await server.close()
    sb.cleanup()
  }
}

/** The text of the first response: what came before the first finish (or tool call) event. */
function firstText(events: Record<string, unknown>[]): string {
  let text = ''
  for (const e of events) {
    if (e.type === 'finish' || e.type === 'tool_call') break
    if (e.type === 'text') text += String(e.text)
  }
  return text
}
