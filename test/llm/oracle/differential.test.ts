// Differential tests with the official SDKs as oracles (issue 13): every
// recorded stream goes through the SDK's own client and accumulator and
// through jp (the built CLI against the same bytes), and the results must
// agree — the answer text, the raw stop reason, the token counts, and the
// assistant message as it is sent back in the next request, field by field.
// Set ORACLE_TABLE=FILE to write the closing table (stream → SDK → jp → match).
import {expect} from 'chai'
import {appendFileSync, writeFileSync} from 'node:fs'
import {isDeepStrictEqual} from 'node:util'
import {jpOutcome} from './jp.js'
import {summarise} from './outcome.js'
import {sdkOutcome} from './sdk.js'
import {ORACLE_CASES} from './streams.js'

/** Raw stop reasons that end an answer normally (no notice). */
const NORMAL = new Set(['end_turn', 'stop_sequence', 'tool_use', 'stop', 'tool_calls'])
const NORMALISED: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  stop: 'stop',
  tool_use: 'tool_use',
  tool_calls: 'tool_use',
  max_tokens: 'length',
  length: 'length',
  content_filter: 'content_filter',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window',
  pause_turn: 'pause',
}

describe('llm oracle: jp agrees with the official SDKs', function () {
  this.timeout(60_000)
  const table = process.env.ORACLE_TABLE
  before(() => {
    if (table) writeFileSync(table, '| stream | SDK result | jp result | match |\n|---|---|---|---|\n')
  })

  for (const c of ORACLE_CASES) {
    it(`${c.wire}: ${c.name}`, async () => {
      const sdk = await sdkOutcome(c)
      const jp = await jpOutcome(c)
      const match = isDeepStrictEqual(sdk, jp.outcome)
      if (table) appendFileSync(table, `| ${c.wire}: ${c.name} | ${summarise(sdk)} | ${summarise(jp.outcome)} | ${match ? 'yes' : 'NO'} |\n`)

      expect(sdk.failed, 'the SDK read the stream as intended').to.equal(c.fails === true)
      expect(jp.outcome).to.deep.equal(sdk)

      const warnings = jp.stderr.split('\n').filter((l) => l.startsWith('⚠'))
      if (sdk.finish !== undefined) {
        // The finish event carries the normalised reason next to the raw one.
        // Ollama says `stop` after calling tools; jp calls that a tool call.
        const calledTools = ((sdk.assistant as {tool_calls?: unknown[]}).tool_calls ?? []).length > 0
        expect(jp.finishReason).to.equal(sdk.finish === 'stop' && calledTools ? 'tool_use' : NORMALISED[sdk.finish])
        if (NORMAL.has(sdk.finish)) expect(warnings, jp.stderr).to.deep.equal([])
        else expect(warnings.filter((l) => l.includes(`(${sdk.finish})`)), jp.stderr).to.have.length(1)
      }
      if (!c.fails) checkToolResults(c.wire, jp.requests[1])
    })
  }
})

/** After the assistant's tool calls, one result per call, in order, for the same id (or name, for Ollama). */
function checkToolResults(wire: string, body: Record<string, unknown> | undefined): void {
  const messages = (body?.messages ?? []) as Record<string, unknown>[]
  const at = messages.findIndex((m) => m.role === 'assistant')
  expect(at, 'the next request carries the answer back').to.be.greaterThan(-1)
  const assistant = messages[at]
  if (wire === 'anthropic') {
    const uses = (assistant.content as Record<string, unknown>[]).filter((b) => b.type === 'tool_use')
    if (uses.length === 0) return
    const results = (messages[at + 1].content as Record<string, unknown>[]).filter((b) => b.type === 'tool_result')
    expect(results.map((r) => r.tool_use_id)).to.deep.equal(uses.map((u) => u.id))
    expect(results.map((r) => r.content)).to.deep.equal(uses.map((u) => `tool says: ${JSON.stringify(u.input)}`))
    return
  }
  const calls = (assistant.tool_calls ?? []) as Array<{id?: string; function: {name: string; arguments: unknown}}>
  if (calls.length === 0) return
  const results = messages.slice(at + 1, at + 1 + calls.length)
  expect(results.map((r) => r.role)).to.deep.equal(calls.map(() => 'tool'))
  if (wire === 'openai') expect(results.map((r) => r.tool_call_id)).to.deep.equal(calls.map((c) => c.id))
  else expect(results.map((r) => r.tool_name)).to.deep.equal(calls.map((c) => c.function.name))
  const args = calls.map((c) => (typeof c.function.arguments === 'string' ? JSON.parse(c.function.arguments) : c.function.arguments))
  expect(results.map((r) => JSON.parse(String(r.content).replace(/^tool says: /, '')))).to.deep.equal(args)
}
