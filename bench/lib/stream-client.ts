// One measured run in a fresh process (so maxRSS is this run's alone):
// `node --import tsx bench/lib/stream-client.ts bare|adapter BASE_URL`.
// Prints one JSON line: {ms, cpuMs, textChars, maxRssKb}.
import {performance} from 'node:perf_hooks'
import {bareOpenAIStream} from './bare-stream.js'

const [mode, baseUrl] = process.argv.slice(2)

async function adapterRun(url: string): Promise<number> {
  const {createOpenAIProvider} = await import('../../src/lib/llm/openai.js')
  const provider = createOpenAIProvider({name: 'openai', baseUrl: url})
  let textChars = 0
  const stream = provider.stream({model: 'bench', messages: [{role: 'user', content: 'go'}], tools: []}, new AbortController().signal)
  for await (const event of stream) if (event.type === 'text') textChars += event.text.length
  return textChars
}

// Load both code paths before timing, so the timer sees streaming only.
if (mode === 'adapter') await import('../../src/lib/llm/openai.js')
const start = performance.now()
const cpu0 = process.cpuUsage()
const textChars = mode === 'bare' ? (await bareOpenAIStream(baseUrl)).textChars : await adapterRun(baseUrl)
const ms = performance.now() - start
const cpu = process.cpuUsage(cpu0)
const cpuMs = (cpu.user + cpu.system) / 1000
process.stdout.write(JSON.stringify({ms, cpuMs, textChars, maxRssKb: process.resourceUsage().maxRSS}) + '\n')
