// The tool prompts (SPEC §8.1–§8.4) end to end: bin/run.js in a real
// pseudo-terminal, a local server returning tool calls in the OpenAI wire
// format, a real local tool that records what it received, and real script
// editors for Ctrl+X. Every test checks both sides: what the tool got (or that
// it never ran) and what the next request carried back to the model.
import {expect} from 'chai'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, ROOT, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {keys, shQuote, spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer, type ScriptedResponse} from '../llm/replay-server.js'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../../src/lib/config/types.js'
import {storedEvents} from '../faults/harness.js'

const TOOL = join(ROOT, 'test/fixtures/tools/e2e-record.sh')
const REPLACE_EDITOR = join(ROOT, 'test/fixtures/e2e-tools/replace-editor.sh')
const FAILING_EDITOR = join(ROOT, 'test/fixtures/e2e-tools/failing-editor.sh')
const ASK = 'Run local tool record?'
const DELIVER = 'Deliver record result to assistant?'
// The inline widget's help line (its Ctrl+X clause names the editor, or is absent without one).
const HELP_LINE = 'Enter to send · Alt+Enter for newline'
const ARGS = {path: 'src', deep: true}

type Message = {role: string; content?: string | null; tool_call_id?: string}

/** One assistant message calling `record` twice (OpenAI parallel tool calls). */
function twoCalls(a: Record<string, unknown>, b: Record<string, unknown>): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1, model: 'e2e', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`
  const call = (index: number, id: string, args: Record<string, unknown>) =>
    chunk({tool_calls: [{index, id, type: 'function', function: {name: 'record', arguments: JSON.stringify(args)}}]})
  return chunk({role: 'assistant', content: null}) + call(0, 'call_1', a) + call(1, 'call_2', b) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n'
}

describe('e2e: tool prompts in a terminal', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  let term: PtySession | undefined
  let recordFile: string
  let editorRecord: string

  beforeEach(() => {
    sb = makeSandbox()
    recordFile = join(sb.dir, 'record.txt')
    editorRecord = join(sb.dir, 'editor-runs.txt')
  })
  afterEach(async () => {
    term?.dispose()
    term = undefined
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** A config file for the server and the `record` tool (`run = "ask"` by default). */
  async function setup(responses: ScriptedResponse[], extra = ''): Promise<string> {
    server = await startReplayServer(responses)
    const file = join(sb.home, 'config.toml')
    writeFileSync(
      file,
      `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n` +
        `[conversation.tools.record]\ncommand = "${TOOL}"\nsummary = "Record"\n${extra}`,
    )
    return file
  }

  /** The usual script: one call with ARGS, then a text answer. */
  const oneCall = (): ScriptedResponse[] => [{body: openaiToolCall('call_1', 'record', ARGS)}, {body: openaiText(['Done.'])}]

  async function jp(cfgFile: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<PtySession> {
    term = await spawnPty([BIN, 'query', '--cfg', cfgFile, ...extraArgs, 'go'], {
      cwd: sb.cwd,
      env: {...sb.env, RECORD_FILE: recordFile, EDITOR_RECORD: editorRecord, ...env},
      cols: 120,
      rows: 60,
    })
    return term
  }

  const count = (haystack: string, needle: string) => haystack.split(needle).length - 1

  /** Waits until the screen shows `text` at least `n` times (each prompt is a fresh line). */
  function screenCount(t: PtySession, text: string, n: number): Promise<void> {
    return t.waitFor(() => count(t.screenText(), text) >= n, `${n}× ${JSON.stringify(text)} on screen`)
  }

  async function finish(t: PtySession): Promise<void> {
    const {exitCode} = await t.waitForExit(30_000)
    expect(exitCode, t.screenText()).to.equal(0)
  }

  /** What the tool received on stdin, one entry per run (e2e-record.sh writes stdin, then an env line). */
  function toolRuns(): unknown[] {
    if (!existsSync(recordFile)) return []
    const lines = readFileSync(recordFile, 'utf8').trimEnd().split('\n')
    const runs: unknown[] = []
    for (let i = 0; i < lines.length; i += 2) {
      runs.push(JSON.parse(lines[i]))
      // The same arguments in the file JP_TOOL_ARGUMENTS_FILE names.
      expect(JSON.parse(lines[i + 1].replace(/^name=record file=/, ''))).to.deep.equal(runs.at(-1))
    }

    return runs
  }

  /** The tool message answering `id` in request `i`. */
  function toolMessage(i: number, id = 'call_1'): Message {
    const body = server!.requests[i].json() as {messages: Message[]}
    const found = body.messages.filter((m) => m.role === 'tool' && m.tool_call_id === id)
    expect(found, JSON.stringify(body.messages)).to.have.length(1)
    return found[0]
  }

  const editorRuns = () => (existsSync(editorRecord) ? readFileSync(editorRecord, 'utf8').trimEnd().split('\n').length : 0)

  describe('permission (§8.1)', () => {
    it('y runs the tool with the model arguments and the next request carries its result', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(`${ASK} [y,Y,n,N,p,r,e,?]`)
      t.send('y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
      expect(server!.requests).to.have.length(2)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)}`)
      expect(t.screenText()).to.include('✓ record: tool says:')
    })

    it('Y remembers for the turn: two calls, one prompt', async () => {
      const t = await jp(
        await setup([
          {body: openaiToolCall('call_1', 'record', {n: 1})},
          {body: openaiToolCall('call_2', 'record', {n: 2})},
          {body: openaiText(['Done.'])},
        ]),
      )
      await t.waitForText(ASK)
      t.send('Y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([{n: 1}, {n: 2}])
      expect(count(t.output(), ASK)).to.equal(1)
      expect(toolMessage(2, 'call_2').content).to.equal('tool says: {"n":2}')
    })

    it('Y also covers a second call in the same assistant message', async () => {
      const t = await jp(await setup([{body: twoCalls({n: 1}, {n: 2})}, {body: openaiText(['Done.'])}]))
      await t.waitForText(ASK)
      t.send('Y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([{n: 1}, {n: 2}])
      expect(count(t.output(), ASK)).to.equal(1)
      expect(toolMessage(1, 'call_1').content).to.equal('tool says: {"n":1}')
      expect(toolMessage(1, 'call_2').content).to.equal('tool says: {"n":2}')
    })

    it('two calls in one message: each prompt comes right after its own header, each result line right after its answer', async () => {
      const t = await jp(await setup([{body: twoCalls({n: 1}, {n: 2})}, {body: openaiText(['Done.'])}]))
      await t.waitForText(ASK)
      // Only the first call is announced while its prompt is up.
      expect(t.screenText()).to.include('⚙ record {"n":1}')
      expect(t.screenText()).not.to.include('⚙ record {"n":2}')
      t.send('y')
      await screenCount(t, ASK, 2)
      t.send('n')
      await finish(t)
      const lines = t.screenText().split('\n')
      const at = (re: RegExp) => lines.findIndex((l) => re.test(l))
      const order = [/^⚙ record \{"n":1\}$/, /^Run local tool record\? .* y$/, /^✓ record: tool says: \{"n":1\}$/, /^⚙ record \{"n":2\}$/, /^Run local tool record\? .* n$/, /^⊘ record: skipped: This tool request/, /^Done\.$/].map(at)
      expect(order.every((i) => i >= 0), lines.join('\n')).to.equal(true)
      expect(order, lines.join('\n')).to.deep.equal([...order].sort((x, y) => x - y))
      expect(toolRuns()).to.deep.equal([{n: 1}])
    })

    it('y does not remember: the second call of the turn asks again', async () => {
      const t = await jp(
        await setup([
          {body: openaiToolCall('call_1', 'record', {n: 1})},
          {body: openaiToolCall('call_2', 'record', {n: 2})},
          {body: openaiText(['Done.'])},
        ]),
      )
      await t.waitForText(ASK)
      t.send('y')
      await screenCount(t, ASK, 2)
      t.send('n')
      await finish(t)
      expect(toolRuns()).to.deep.equal([{n: 1}])
      expect(toolMessage(2, 'call_2').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
    })

    it('n skips: the tool never runs and the next request carries the cancellation response', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('n')
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1).content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
    })

    it('N skips and remembers for the turn: neither call runs, one prompt', async () => {
      const t = await jp(
        await setup([
          {body: openaiToolCall('call_1', 'record', {n: 1})},
          {body: openaiToolCall('call_2', 'record', {n: 2})},
          {body: openaiText(['Done.'])},
        ]),
      )
      await t.waitForText(ASK)
      t.send('N')
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(count(t.output(), ASK)).to.equal(1)
      expect(toolMessage(1, 'call_1').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
      expect(toolMessage(2, 'call_2').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
    })

    it('backing out of the permission prompt (Esc) skips: the tool never runs and each call is answered', async () => {
      const t = await jp(
        await setup([
          {body: openaiToolCall('call_1', 'record', {n: 1})},
          {body: openaiToolCall('call_2', 'record', {n: 2})},
          {body: openaiText(['Done.'])},
        ]),
      )
      await t.waitForText(ASK)
      t.send(keys.escape)
      await screenCount(t, ASK, 2)
      t.send(keys.escape)
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1, 'call_1').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
      expect(toolMessage(2, 'call_2').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
    })

    it('p prints the arguments as pretty JSON, then asks again', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('p')
      await screenCount(t, ASK, 2)
      const screen = t.screenText()
      const printed = screen.slice(screen.indexOf(ASK), screen.lastIndexOf(ASK))
      expect(printed).to.include(JSON.stringify(ARGS, null, 2))
      t.send('y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
    })
  })

  describe('edit arguments (§8.2)', () => {
    it('e: the widget is seeded with pretty JSON; invalid JSON re-asks with the parser message and keeps the text; the fix reaches the tool', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      // The seed, line by line, behind the widget's prefixes.
      expect(t.screenText()).to.match(/Edit arguments \{\n… {3}"path": "src",\n… {3}"deep": true\n… \}/)
      // Break it: drop the closing brace and its newline, add a key, submit.
      t.send(keys.backspace + keys.backspace)
      t.type(', "added": 1')
      t.send(keys.enter)
      await t.waitForText(/^Invalid JSON: .+/m)
      // The parser's message as the prompt line, then the user's text as typed (the
      // first buffer line sits after the prompt when it fits).
      expect(t.screenText()).to.match(/^Invalid JSON: Expected .*JSON.*(?: \{|\n… \{)\n… {3}"path": "src",\n… {3}"deep": true, "added": 1$/m)
      expect(toolRuns()).to.deep.equal([])
      t.send('}' + keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{path: 'src', deep: true, added: 1}])
      expect(toolMessage(1).content).to.equal('tool says: {"path":"src","deep":true,"added":1}')
    })

    it('e then an emptied buffer goes back to the permission prompt; y then runs the ORIGINAL arguments', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      // Change something first, so "original" is not the same as "what was in the buffer".
      t.type('x')
      // Buffer start, then kill line by line (at a line end Ctrl+K joins the next line).
      t.send(keys.alt('<') + keys.ctrlK.repeat(12))
      t.send(keys.enter)
      await screenCount(t, ASK, 2)
      t.send('y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
    })

    it('Ctrl+D on the emptied edit skips the tool with the reason "Edit cancelled" (Ctrl+C opens the call\'s menu: tool-prompt-ladder.test.ts)', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.alt('<') + keys.ctrlK.repeat(12))
      await t.waitForText(/^Edit arguments $/m)
      t.send(keys.ctrlD)
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1).content).to.equal('Tool run skipped by user with a message:\n\nEdit cancelled')
    })

    it('run = "edit" starts in the argument editor', async () => {
      const t = await jp(await setup(oneCall(), 'run = "edit"\n'))
      await t.waitForText(HELP_LINE)
      expect(t.screenText()).not.to.include(ASK)
      t.send(keys.backspace + keys.backspace)
      t.type(', "via": "edit mode"}')
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{...ARGS, via: 'edit mode'}])
    })

    it('edited arguments are what the conversation records and sends back, next to the result they produced', async () => {
      const t = await jp(await setup(oneCall(), 'run = "edit"\n'))
      await t.waitForText(HELP_LINE)
      t.send(keys.backspace + keys.backspace)
      t.type(', "path": "lib"}')
      t.send(keys.enter)
      await finish(t)
      const edited = {...ARGS, path: 'lib'}
      expect(toolRuns()).to.deep.equal([edited])
      // The next request: the call carries the arguments that ran, matching its result.
      const body = server!.requests[1].json() as {messages: Array<{role: string; tool_calls?: Array<{function: {arguments: string}}>}>}
      const call = body.messages.find((m) => m.role === 'assistant')!.tool_calls![0]
      expect(JSON.parse(call.function.arguments)).to.deep.equal(edited)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(edited)}`)
      // The stored call says so too, and keeps what the model asked for.
      const stored = storedEvents(sb).find((e) => e.type === 'tool_call_request')
      expect(stored).to.deep.include({arguments: edited, model_arguments: ARGS})
    })

    it('Ctrl+X opens editor.cmd on the buffer; its text is re-validated like typed text and the fixed JSON reaches the tool', async () => {
      const cfg = await setup(oneCall(), `[editor]\ncmd = "${REPLACE_EDITOR}"\n`)
      // The editor writes JSON without its closing brace.
      const t = await jp(cfg, [], {EDIT_TEXT: '{"path": "from-editor", "deep": false'})
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.ctrlX)
      await t.waitForText('"path": "from-editor", "deep": false')
      expect(editorRuns()).to.equal(1)
      await t.settle()
      t.send(keys.enter)
      await t.waitForText(/^Invalid JSON: /m)
      t.send('}' + keys.enter)
      await finish(t)
      expect(editorRuns()).to.equal(1)
      expect(toolRuns()).to.deep.equal([{path: 'from-editor', deep: false}])
    })

    it('Ctrl+X with an editor that exits non-zero keeps the buffer as it was', async () => {
      const t = await jp(await setup(oneCall(), `[editor]\ncmd = "${FAILING_EDITOR}"\n`))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.backspace + keys.backspace)
      t.type(', "kept": 1}')
      t.markOutput()
      t.send(keys.ctrlX)
      await t.waitFor(() => editorRuns() === 1, 'the failing editor to run')
      // The widget comes back with the typed text, not the editor's scribble,
      // drawn again in place: one copy on the screen (issue 17, finding 10).
      // (The whole frame, message first: the echo of the typing can arrive after the mark too.)
      await t.waitFor(() => /Edit arguments[^]*"kept": 1\}/.test(t.outputSinceMark()), 'the widget redrawn')
      await t.settle(100)
      expect(count(t.screenText(), '"deep": true, "kept": 1}')).to.equal(1)
      expect(t.screenText()).not.to.include('scribbled')
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{...ARGS, kept: 1}])
    })
    it('valid JSON that is not an object is refused the same way, text kept', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.alt('<') + keys.ctrlK.repeat(12))
      t.type('["src"]')
      t.send(keys.enter)
      await t.waitForText(/^Invalid JSON: the arguments must be a JSON object/m)
      expect(t.screenText()).to.match(/JSON object ?(?:\n… )?\["src"\]$/m)
      t.send(keys.ctrlU)
      t.type('{"path": "lib"}')
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{path: 'lib'}])
    })

    it('Ctrl+X with no editor configured does nothing: the buffer stays and Enter submits it', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.backspace + keys.backspace)
      t.type(', "n": 7}')
      t.send(keys.ctrlX)
      await t.settle(300)
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{...ARGS, n: 7}])
    })

    it('Ctrl+X with an editor that cannot be spawned: a notice, and the buffer is kept', async () => {
      // A short path: the notice names it, and a long one (a deep TMPDIR) would wrap on the screen.
      const t = await jp(await setup(oneCall(), `[editor]\ncmd = "/nonexistent/no-such-editor"\n`))
      await t.waitForText(ASK)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.backspace + keys.backspace)
      t.type(', "n": 8}')
      t.send(keys.ctrlX)
      // The whole notice (its prefix alone may be on the screen before the rest under load).
      await t.waitForText(/⚠ Couldn't open your editor: .*no-such-editor.*Keeping your text\./s)
      // Printed above the widget, which is drawn again intact below it: one copy (issue 17, finding 6).
      await t.settle(100)
      expect(count(t.screenText(), '"deep": true, "n": 8}')).to.equal(1)
      expect(t.screenText()).to.match(/Keeping your text\.\nEdit arguments/)
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([{...ARGS, n: 8}])
    })
  })

  describe('skip and reply (§8.1 r, §8.4)', () => {
    it('r with a reason: the tool never runs and the next request carries the reason', async () => {
      const t = await jp(await setup(oneCall()))
      await t.waitForText(ASK)
      t.send('r')
      await t.waitForText('Reason for skipping (optional)')
      // Clear the placeholder, then type the reason.
      t.send(keys.ctrlU)
      t.type('src is generated, read gen/ instead')
      t.send(keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1).content).to.equal('Tool run skipped by user with a message:\n\nsrc is generated, read gen/ instead')
    })

    it('r with an empty reason skips with the cancellation response', async () => {
      const t = await jp(await setup(oneCall(), 'cancellation_response = "Not now, thanks."\n'))
      await t.waitForText(ASK)
      t.send('r')
      await t.waitForText('Reason for skipping (optional)')
      t.send(keys.ctrlU + keys.enter)
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1).content).to.equal('Not now, thanks.')
    })
    it('r submitted with the placeholder unchanged, or cancelled with Ctrl+C, means no reason', async () => {
      const t = await jp(
        await setup([
          {body: openaiToolCall('call_1', 'record', {n: 1})},
          {body: openaiToolCall('call_2', 'record', {n: 2})},
          {body: openaiText(['Done.'])},
        ]),
      )
      await t.waitForText(ASK)
      t.send('r')
      await screenCount(t, 'Reason for skipping (optional)', 1)
      t.send(keys.enter)
      await screenCount(t, ASK, 2)
      t.send('r')
      await screenCount(t, 'Reason for skipping (optional)', 2)
      t.send(keys.ctrlC)
      await finish(t)
      expect(toolRuns()).to.deep.equal([])
      expect(toolMessage(1, 'call_1').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
      expect(toolMessage(2, 'call_2').content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
    })
  })

  describe('result review (§8.3)', () => {
    const resultAsk = ['--cfg', 'conversation.tools.record.result="ask"']

    it('result = "ask": y delivers the result unchanged', async () => {
      const t = await jp(await setup(oneCall()), resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(DELIVER)
      t.send('y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)}`)
    })

    it('result = "ask": n ran the tool but delivers "Result delivery skipped by user."', async () => {
      const t = await jp(await setup(oneCall()), resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(DELIVER)
      t.send('n')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
      expect(toolMessage(1).content).to.equal('Result delivery skipped by user.')
    })

    it('result = "ask": e edits the result and the next request carries the edit', async () => {
      const t = await jp(await setup(oneCall()), resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(DELIVER)
      t.send('e')
      await t.waitForText(HELP_LINE)
      expect(t.screenText()).to.include(`tool says: ${JSON.stringify(ARGS)}`)
      t.send(keys.ctrlU)
      t.type('the user rewrote this result')
      t.send(keys.enter)
      await finish(t)
      expect(toolMessage(1).content).to.equal('the user rewrote this result')
    })

    it('result = "ask": Enter picks the default, deliver', async () => {
      const t = await jp(await setup(oneCall()), resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(`${DELIVER} [y,n,e,?]`)
      t.send(keys.enter)
      await finish(t)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)}`)
    })

    it('result = "ask": the result edit cancelled (Ctrl+D on the emptied buffer) delivers the original', async () => {
      const t = await jp(await setup(oneCall()), resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(DELIVER)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.ctrlU)
      await t.waitForText(/^Edit result before delivery $/m)
      t.send(keys.ctrlD)
      await finish(t)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)}`)
    })

    it('result = "ask" on a failing tool: the error result is offered and delivered, marked ✗', async () => {
      const cfg = await setup(oneCall())
      const failing = join(ROOT, 'test/fixtures/tools/fail.sh')
      writeFileSync(cfg, readFileSync(cfg, 'utf8').replace(`command = "${TOOL}"`, `command = "${failing}"`))
      const t = await jp(cfg, resultAsk)
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(DELIVER)
      t.send('y')
      await finish(t)
      expect(toolMessage(1).content).to.include('something went wrong')
      expect(t.screenText()).to.match(/^✗ record: /m)
    })

    it('result = "edit" (in the config file) starts at the editor step; an empty submit delivers the original', async () => {
      const t = await jp(await setup(oneCall(), 'result = "edit"\n'))
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(HELP_LINE)
      expect(t.screenText()).not.to.include(DELIVER)
      t.send(keys.ctrlU + keys.enter)
      await finish(t)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)}`)
    })

    it('result = "edit": appended text is delivered', async () => {
      const t = await jp(await setup(oneCall(), 'result = "edit"\n'))
      await t.waitForText(ASK)
      t.send('y')
      await t.waitForText(HELP_LINE)
      t.type(' (checked)')
      t.send(keys.enter)
      await finish(t)
      expect(toolMessage(1).content).to.equal(`tool says: ${JSON.stringify(ARGS)} (checked)`)
    })
  })

  describe('the terminal and the streams', () => {
    it('prompts stay on the tty: stdout piped through cat carries only the answer, stderr only chrome, and stty is unchanged', async () => {
      const cfg = await setup([{body: openaiToolCall('call_1', 'record', ARGS, 'Let me look. ')}, {body: openaiText(['Done.'])}])
      const out = join(sb.dir, 'stdout.txt')
      const err = join(sb.dir, 'stderr.txt')
      const before = join(sb.dir, 'stty-before.txt')
      const after = join(sb.dir, 'stty-after.txt')
      const script =
        `stty -a > ${shQuote(before)}; ` +
        `${shQuote(process.execPath)} ${shQuote(BIN)} query --cfg ${shQuote(cfg)} --cfg 'conversation.tools.record.result="ask"' go ` +
        `2> ${shQuote(err)} | cat > ${shQuote(out)}; ` +
        `stty -a > ${shQuote(after)}`
      term = await spawnPty(['-c', script], {
        file: '/bin/sh',
        cwd: sb.cwd,
        env: {...sb.env, RECORD_FILE: recordFile},
        cols: 120,
        rows: 60,
      })
      const t = term
      await t.waitForText(ASK)
      t.send('p')
      await screenCount(t, ASK, 2)
      t.send('e')
      await t.waitForText(HELP_LINE)
      t.send(keys.enter)
      await t.waitForText(DELIVER)
      t.send('y')
      await finish(t)
      expect(toolRuns()).to.deep.equal([ARGS])
      expect(readFileSync(out, 'utf8')).to.equal('Let me look. \nDone.\n')
      const stderr = readFileSync(err, 'utf8')
      expect(stderr).to.include('⚙ record {"path":"src","deep":true}')
      expect(stderr).to.include('✓ record: tool says:')
      for (const prompt of [ASK, DELIVER, 'Edit arguments', HELP_LINE, '"path": "src"']) expect(stderr).not.to.include(prompt)
      // No escape sequence of the widgets leaked into either stream.
      expect(readFileSync(out, 'utf8') + stderr).not.to.match(/\x1b\[(\?2004|>1u|<u)/)
      const sttyBody = (f: string) => readFileSync(f, 'utf8').split('\n').slice(1).join('\n')
      expect(sttyBody(after)).to.equal(sttyBody(before))
      expect(sttyBody(before)).to.match(/\bicanon\b/).and.to.match(/\becho\b/)
    })
  })
})
