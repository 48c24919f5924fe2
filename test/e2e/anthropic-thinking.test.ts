// Signed thinking survives storage: Claude rejects a follow-up whose signed
// thinking block is not echoed back, so the signature streamed with the
// reasoning is stored with it and sent back in the next request.
import {expect} from 'chai'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {anthropicText, storedEvents, useAnthropic} from '../faults/harness.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'

function thinkingThenText(thinking: string, signature: string, text: string): string {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`
  return (
    ev('message_start', {message: {id: 'msg_t', type: 'message', role: 'assistant', model: 'claude-t', content: [], stop_reason: null, usage: {input_tokens: 5, output_tokens: 1}}}) +
    ev('content_block_start', {index: 0, content_block: {type: 'thinking', thinking: '', signature: ''}}) +
    ev('content_block_delta', {index: 0, delta: {type: 'thinking_delta', thinking}}) +
    ev('content_block_delta', {index: 0, delta: {type: 'signature_delta', signature}}) +
    ev('content_block_stop', {index: 0}) +
    ev('content_block_start', {index: 1, content_block: {type: 'text', text: ''}}) +
    ev('content_block_delta', {index: 1, delta: {type: 'text_delta', text}}) +
    ev('content_block_stop', {index: 1}) +
    ev('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 3}}) +
    ev('message_stop', {})
  )
}

describe('e2e: Anthropic signed thinking round trip', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  beforeEach(() => (sb = makeSandbox({ANTHROPIC_API_KEY: 'sk-ant-thinking'})))
  afterEach(async () => {
    await server?.close()
    sb.cleanup()
  })

  it('stores the signature with the reasoning and sends both back in the next request', async () => {
    server = await startReplayServer([{body: thinkingThenText('Let me think.', 'sig-abc', 'Answer one.')}, {body: anthropicText(['Answer two.'])}])
    const cfg = useAnthropic(sb, server.url)
    const first = await runJp(['query', ...cfg, 'one'], {sandbox: sb})
    expect(first.code, first.stderr).to.equal(0)
    expect(first.stdout).to.equal('Answer one.\n')
    const reasoning = storedEvents(sb).find((e) => typeof e.reasoning === 'string')
    expect(reasoning).to.include({reasoning: 'Let me think.', signature: 'sig-abc'})

    const second = await runJp(['query', ...cfg, 'two'], {sandbox: sb})
    expect(second.code, second.stderr).to.equal(0)
    const body = server.requests[1].json() as {messages: Array<{role: string; content: unknown}>}
    expect(body.messages[1]).to.deep.equal({
      role: 'assistant',
      content: [
        {type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc'},
        {type: 'text', text: 'Answer one.'},
      ],
    })
  })
})
