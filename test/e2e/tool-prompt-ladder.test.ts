// Ctrl+C at the tool prompts, their header and their marks (issue 23,
// findings 1, 3, 4 and 7; SPEC §18 "Tool prompts and the ladder"):
// bin/run.js in a real pseudo-terminal, real key bytes, a local server
// scripting tool calls in the OpenAI wire format, and a real local tool that
// records what it received. Each test failed on the code before the fix.
import {expect} from 'chai'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../../src/lib/config/types.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys} from '../helpers/pty.js'
import {count, parallelCalls, ToolSession, type ToolSessionOptions} from '../fixtures/e2e-tools/tool-session.js'

const ASK = 'Run local tool record?'
const DELIVER = 'Deliver record result to assistant?'
const PROMPT_MENU = 'Interrupted [b,r,s,?]'
const SHUTTING_DOWN = 'Shutting down'
const INTERRUPTED_CALL = 'Tool call not run: the user interrupted the response.'
const ARGS = {path: 'src', deep: true}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The model calls `record` once per response, `n` times, then answers. */
function calls(n: number) {
  return [...Array.from({length: n}, (_, i) => ({body: openaiToolCall(`call_${i + 1}`, 'record', {...ARGS, n: i + 1})})), {body: openaiText(['Done.'])}]
}

describe('e2e: Ctrl+C at the tool prompts (issue 23)', function () {
  this.timeout(60_000)
  let s: ToolSession

  afterEach(async () => {
    await s?.dispose()
  })

  async function jp(opts: ToolSessionOptions): Promise<ToolSession> {
    s = new ToolSession()
    return s.start(opts)
  }

  describe('finding 1: the ladder holds at a permission, argument or result prompt', () => {
    it('permission: 1st Ctrl+C opens [b,r,s,?] for that call, the 2nd shuts down gracefully (130), the 3rd finds jp gone; one request, the tool never ran', async () => {
      const t = await jp({responses: calls(3)})
      await t.term.waitForText(ASK)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      await sleep(800)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(SHUTTING_DOWN)
      await sleep(800)
      t.term.send(keys.ctrlC)
      expect(await t.exitCode(), t.term.screenText()).to.equal(130)
      expect(t.server.requests).to.have.length(1)
      expect(t.toolRuns()).to.deep.equal([])
      // The call is answered in the stored conversation (the next request will be valid).
      const responses = t.events().filter((e) => e.type === 'tool_call_response')
      expect(responses.map((e) => e.id)).to.deep.equal(['call_1'])
    })

    it('result: after y, Ctrl+C at the result prompt opens [b,r,s,?]; Ctrl+C there shuts down (130); the result was not delivered', async () => {
      const t = await jp({responses: calls(3), toolToml: 'result = "ask"\n'})
      await t.term.waitForText(ASK)
      t.term.send('y')
      await t.term.waitForText(DELIVER)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send(keys.ctrlC)
      expect(await t.exitCode(), t.term.screenText()).to.equal(130)
      expect(t.server.requests).to.have.length(1)
      expect(t.toolRuns()).to.have.length(1)
      const response = t.events().find((e) => e.type === 'tool_call_response')
      expect(response?.content).to.equal('Result delivery skipped by user.')
    })

    it('b goes back to the same prompt (the ladder starts over), and y then runs the tool', async () => {
      const t = await jp({responses: calls(1)})
      await t.term.waitForText(ASK)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send('b')
      await t.screenCount(ASK, 2)
      // Within the escalation window of the first press: a first press again.
      t.term.send(keys.ctrlC)
      await t.screenCount(PROMPT_MENU, 2)
      expect(t.term.screenText()).not.to.include(SHUTTING_DOWN)
      t.term.send(keys.escape)
      await t.screenCount(ASK, 3)
      t.term.send('y')
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.toolRuns()).to.deep.equal([{...ARGS, n: 1}])
      expect(t.toolMessage(1).content).to.equal(`tool says: ${JSON.stringify({...ARGS, n: 1})}`)
    })

    it('r stops and replies: the call and the remaining calls of the message are answered as interrupted, the reply is the next user message', async () => {
      const t = await jp({
        responses: [{body: parallelCalls('record', [{id: 'call_1', args: {n: 1}}, {id: 'call_2', args: {n: 2}}])}, {body: openaiText(['Fine.'])}],
      })
      await t.term.waitForText(ASK)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send('r')
      await t.term.waitForText('Reply:')
      t.term.type('use ls instead')
      t.term.send(keys.enter)
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.toolRuns()).to.deep.equal([])
      expect(t.server.requests).to.have.length(2)
      expect(t.toolMessage(1, 'call_1').content).to.equal(INTERRUPTED_CALL)
      expect(t.toolMessage(1, 'call_2').content).to.equal(INTERRUPTED_CALL)
      const last = t.messages(1).at(-1)!
      expect(last.role).to.equal('user')
      expect(last.content).to.equal('use ls instead')
      // Only the first call was ever asked about.
      expect(count(t.term.output(), ASK)).to.equal(1)
    })

    it('s skips the remaining calls, saves and exits 0 with one request', async () => {
      const t = await jp({
        responses: [{body: parallelCalls('record', [{id: 'call_1', args: {n: 1}}, {id: 'call_2', args: {n: 2}}])}, {body: openaiText(['never'])}],
      })
      await t.term.waitForText(ASK)
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send('s')
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.server.requests).to.have.length(1)
      expect(t.toolRuns()).to.deep.equal([])
      const responses = t.events().filter((e) => e.type === 'tool_call_response')
      expect(responses.map((e) => [e.id, e.content])).to.deep.equal([
        ['call_1', DEFAULT_TOOL_CANCELLED_RESPONSE],
        ['call_2', DEFAULT_TOOL_CANCELLED_RESPONSE],
      ])
    })

    it('argument editor: Ctrl+C opens [b,r,s,?]; b brings the editor back with what was typed, which then runs', async () => {
      const t = await jp({responses: calls(1)})
      await t.term.waitForText(ASK)
      t.term.send('e')
      await t.term.waitForText('Enter to send · Alt+Enter for newline')
      t.term.send(keys.backspace + keys.backspace)
      t.term.type(', "kept": 1}')
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send('b')
      await t.screenCount('Edit arguments', 2)
      await t.term.settle(100)
      t.term.send(keys.enter)
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.toolRuns()).to.deep.equal([{...ARGS, n: 1, kept: 1}])
    })

    it('result editor (result = "edit"): Ctrl+C opens [b,r,s,?] and a second Ctrl+C shuts down (130)', async () => {
      const t = await jp({responses: calls(2), toolToml: 'result = "edit"\n'})
      await t.term.waitForText(ASK)
      t.term.send('y')
      await t.term.waitForText('Edit result before delivery')
      t.term.send(keys.ctrlC)
      await t.term.waitForText(PROMPT_MENU)
      t.term.send(keys.ctrlC)
      expect(await t.exitCode(), t.term.screenText()).to.equal(130)
      expect(t.server.requests).to.have.length(1)
    })
  })

  describe('finding 3: the skip-reason placeholder is a placeholder', () => {
    it('shown dim while the buffer is empty, never part of it: typing "busy" sends "busy"', async () => {
      const t = await jp({responses: calls(1)})
      await t.term.waitForText(ASK)
      t.term.markOutput()
      t.term.send('r')
      await t.term.waitForText('Reason for skipping (optional) _Provide reasoning for skipping tool execution_')
      // Drawn dim (SGR 2), as inquirer draws a default.
      expect(t.term.outputSinceMark()).to.include('\x1b[2m_Provide reasoning for skipping tool execution_')
      t.term.type('busy')
      await t.term.waitForText('Reason for skipping (optional) busy')
      expect(t.term.screenText()).not.to.include('_Provide reasoning')
      t.term.send(keys.enter)
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.toolMessage(1).content).to.equal('Tool run skipped by user with a message:\n\nbusy')
    })
  })

  describe('finding 4: the tool header is part of the permission prompt', () => {
    it('with 2> log the screen shows the name and arguments above the question; the log keeps its copy', async () => {
      const t = await jp({responses: [{body: openaiToolCall('call_1', 'record', {text: 'rm -rf /'})}, {body: openaiText(['ok'])}], stderrToFile: true})
      await t.term.waitForText(ASK)
      expect(t.term.screenText()).to.match(/^⚙ record \{"text":"rm -rf \/"\}\nRun local tool record\? \[y,Y,n,N,p,r,e,\?\]/m)
      t.term.send('n')
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.stderr()).to.include('⚙ record {"text":"rm -rf /"}')
    })

    it('on a terminal stderr the header is shown once; long arguments are cut to the width and p prints them whole', async () => {
      const long = {text: 'x'.repeat(150)}
      const t = await jp({responses: [{body: openaiToolCall('call_1', 'record', long)}, {body: openaiText(['ok'])}], cols: 60})
      await t.term.waitForText(ASK)
      const lines = t.term.screen()
      const headers = lines.filter((l) => l.startsWith('⚙ record'))
      expect(headers, lines.join('\n')).to.have.length(1)
      expect(headers[0].length).to.be.at.most(59)
      expect(headers[0].endsWith('…')).to.equal(true)
      t.term.send('p')
      await t.screenCount(ASK, 2)
      expect(t.term.screenText().replace(/\n/g, '')).to.include('"text": "' + 'x'.repeat(150) + '"')
      t.term.send('n')
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
    })
  })

  describe('finding 7: a skipped, refused or failed tool is never marked ✓', () => {
    it('a skipped call gets ⊘, not ✓', async () => {
      const t = await jp({responses: calls(1)})
      await t.term.waitForText(ASK)
      t.term.send('n')
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.term.screenText()).to.match(/^⊘ record: skipped: This tool request was intentionally rejected/m)
      expect(t.term.screenText()).not.to.match(/^✓ record/m)
    })

    it('run = "skip" and a call to an unknown tool: neither is ✓', async () => {
      const t = await jp({
        responses: [{body: parallelCalls('record', [{id: 'call_1', args: {n: 1}}])}, {body: openaiToolCall('call_2', 'nope', {})}, {body: openaiText(['ok'])}],
        toolToml: 'run = "skip"\n',
      })
      expect(await t.exitCode(), t.term.screenText()).to.equal(0)
      expect(t.term.screenText()).to.match(/^⊘ record: skipped: Tool run skipped by configuration\.$/m)
      expect(t.term.screenText()).to.match(/^✗ nope: Unknown tool 'nope'\.$/m)
      expect(t.term.screenText()).not.to.include('✓')
    })
  })
})
