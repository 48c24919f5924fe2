import {expect} from 'chai'

import {DEFAULT_TOOL_CANCELLED_RESPONSE, type ToolConfig} from '../../src/lib/config/types.js'
import {MockPromptBackend} from '../../src/lib/inquire/mock.js'
import type {PromptCancelledError, ReplyOutcome} from '../../src/lib/inquire/types.js'
import {InterruptHandler, customToolResponse, type ToolInterruptAction} from '../../src/lib/interrupt/handler.js'
import {
  coordinateToolCalls,
  noTerminalResponse,
  RESULT_SKIPPED_BY_CONFIG,
  RESULT_SKIPPED_BY_USER,
  RUN_SKIPPED_BY_CONFIG,
  skipReasonResponse,
  type PushInterrupt,
  type ToolCallRequest,
  type ToolCoordinatorDeps,
  type ToolInterruptPrompter,
  type ToolRunFn,
  type ToolRunOutput,
} from '../../src/lib/tool/coordinator.js'
import {TurnToolDecisions} from '../../src/lib/tool/decisions.js'
import {ToolPrompter} from '../../src/lib/tool/prompter.js'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {ctrlC, promptKinds, submit} from '../interrupt/fixtures.js'

const CANNED = 'The user rejected this call.'

/** A tool whose runs finish when the test says so, or when aborted. */
class FakeTool {
  readonly runs: Array<{name: string; args: Record<string, unknown>; signal: AbortSignal; finish: (o: ToolRunOutput) => void}> =
    []

  /** Outputs for runs that finish at once, by tool name. */
  constructor(private readonly immediate: Record<string, ToolRunOutput> = {}) {}

  run: ToolRunFn = (call, args, signal) =>
    new Promise((resolve) => {
      signal.addEventListener('abort', () => resolve({content: 'killed', isError: true}))
      this.runs.push({name: call.name, args, signal, finish: resolve})
      const now = this.immediate[call.name]
      if (now) resolve(now)
    })

  async started(count: number): Promise<void> {
    while (this.runs.length < count) await new Promise((resolve) => setImmediate(resolve))
  }
}

class FakeRouter {
  readonly stack: Array<() => void> = []
  pushes = 0
  push: PushInterrupt = (handler) => {
    this.pushes++
    this.stack.push(handler)
    return () => {
      const at = this.stack.lastIndexOf(handler)
      if (at !== -1) this.stack.splice(at, 1)
    }
  }

  ctrlC(): void {
    const top = this.stack.at(-1)
    if (!top) throw new Error('no interrupt handler pushed')
    top()
  }
}

interface Setup {
  tools?: Record<string, ToolConfig>
  selects?: Array<string | PromptCancelledError>
  replies?: ReplyOutcome[]
  canPrompt?: boolean
  explicit?: string[]
  immediate?: Record<string, ToolRunOutput>
  decisions?: TurnToolDecisions
  interrupts?: ToolInterruptPrompter
  run?: ToolRunFn
  /** Wire the prompts' Ctrl+C scope (the `[b,r,s,?]` menu) as a terminal does. */
  promptScope?: boolean
}

function setup(s: Setup = {}) {
  const backend = new MockPromptBackend().withSelectResponses(s.selects ?? []).withReplyOutcomes(s.replies ?? [])
  const notices: string[] = []
  const config = defaultConfig({})
  const handler = new InterruptHandler({
    backend,
    editor: undefined,
    config: config.interrupt,
    editMode: 'emacs',
    notice: (line) => notices.push(line),
  })
  const interrupts = s.interrupts ?? handler
  const router = new FakeRouter()
  const prompter = new ToolPrompter({
    backend,
    editor: undefined,
    editMode: 'emacs',
    notice: (line) => notices.push(line),
    print: () => {},
    ...(s.promptScope ? {scope: {menu: () => handler.handleToolPromptInterrupt(), push: router.push}} : {}),
  })
  const tool = new FakeTool(s.immediate ?? {echo: {content: 'echoed', isError: false}})
  const deps: ToolCoordinatorDeps = {
    tools: s.tools ?? {'*': {run: 'ask', result: 'unattended', cancellation_response: CANNED}, echo: {}},
    canPrompt: s.canPrompt ?? true,
    explicitTools: new Set(s.explicit ?? []),
    prompter,
    interrupts,
    run: s.run ?? tool.run,
    pushInterrupt: router.push,
    decisions: s.decisions ?? new TurnToolDecisions(),
  }
  return {deps, backend, tool, router, notices}
}

function call(id: string, name = 'echo', args: unknown = {text: id}): ToolCallRequest {
  return {id, name, arguments: args}
}

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return {promise, resolve}
}

describe('coordinateToolCalls: one response per call', () => {
  it("arguments that do not fit the tool's schema (checkArguments) are an error result before any prompt; fitting ones are asked about", async () => {
    const {deps, tool, backend} = setup({selects: ['y']})
    deps.checkArguments = (name, args) => (name === 'echo' && typeof args.text !== 'string' ? 'must have required property text' : undefined)
    const outcome = await coordinateToolCalls([call('1', 'echo', {n: 1}), call('2')], deps)
    expect(outcome.responses[0]).to.deep.equal({id: '1', content: "Invalid arguments for tool 'echo': must have required property text", isError: true})
    expect(outcome.responses[1]).to.deep.equal({id: '2', content: 'echoed', isError: false})
    expect(tool.runs.map((r) => r.args)).to.deep.equal([{text: '2'}])
    expect(backend.calls.filter((c) => c.kind === 'select')).to.have.length(1)
  })

  it('an MCP tool (source = "mcp") is asked about as one: Run MCP tool NAME?', async () => {
    const {deps, backend} = setup({selects: ['y'], tools: {'*': {run: 'ask'}, 'fx.echo': {source: 'mcp'}}, immediate: {'fx.echo': {content: 'ok', isError: false}}})
    await coordinateToolCalls([call('1', 'fx.echo')], deps)
    expect(JSON.stringify(backend.calls)).to.include('Run MCP tool fx.echo?')
  })

  it('answers every call in order: unknown tool, unparsable arguments, raw JSON text and objects', async () => {
    const {deps, tool} = setup({tools: {'*': {run: 'unattended'}, echo: {}}})
    const calls: ToolCallRequest[] = [
      call('1', 'nope'),
      {id: '2', name: 'echo', arguments: undefined, argumentsError: 'Unexpected end of JSON input'},
      {id: '3', name: 'echo', arguments: '{"text": '},
      {id: '4', name: 'echo', arguments: '{"text": "raw"}'},
      call('5', 'echo', [1, 2]),
      call('6'),
      call('7', '*'),
    ]
    const outcome = await coordinateToolCalls(calls, deps)
    expect(outcome.responses.map((r) => r.id)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7'])
    expect(outcome.responses[0]).to.deep.equal({id: '1', content: "Unknown tool 'nope'.", isError: true})
    expect(outcome.responses[1]).to.deep.equal({
      id: '2',
      content: "Invalid arguments for tool 'echo': Unexpected end of JSON input",
      isError: true,
    })
    expect(outcome.responses[2].isError).to.equal(true)
    expect(outcome.responses[2].content).to.match(/^Invalid arguments for tool 'echo': /)
    expect(outcome.responses[3]).to.deep.equal({id: '4', content: 'echoed', isError: false})
    expect(outcome.responses[4]).to.deep.equal({
      id: '5',
      content: "Invalid arguments for tool 'echo': the arguments must be a JSON object",
      isError: true,
    })
    expect(outcome.responses[5]).to.deep.equal({id: '6', content: 'echoed', isError: false})
    expect(outcome.responses[6]).to.deep.equal({id: '7', content: "Unknown tool '*'.", isError: true})
    expect(tool.runs.map((r) => r.args)).to.deep.equal([{text: 'raw'}, {text: '6'}])
    expect(outcome.stop).to.equal(false)
  })

  it('refuses a configured tool that this query did not enable', async () => {
    const {deps, tool} = setup({tools: {'*': {run: 'unattended'}, echo: {}, other: {}}})
    deps.enabledTools = new Set(['echo'])
    const outcome = await coordinateToolCalls([call('1', 'other')], deps)
    expect(outcome.responses).to.deep.equal([
      {id: '1', content: "Tool 'other' is not enabled for this query.", isError: true},
    ])
    expect(tool.runs).to.deep.equal([])
  })

  it('hands the runner the tool\'s effective settings, "*" applied', async () => {
    const seen: unknown[] = []
    const {deps} = setup({
      tools: {'*': {run: 'unattended', cancellation_response: 'nope'}, echo: {command: './echo.sh'}},
      run: async (_call, _args, _signal, config) => {
        seen.push([config.command, config.run, config.result, config.cancellation_response])
        return {content: 'ok', isError: false}
      },
    })
    await coordinateToolCalls([call('1')], deps)
    expect(seen).to.deep.equal([['./echo.sh', 'unattended', 'unattended', 'nope']])
  })

  it('a runner that throws becomes an error response naming the tool', async () => {
    const {deps} = setup({
      tools: {'*': {run: 'unattended'}, echo: {}},
      run: async () => {
        throw new Error('spawn exploded')
      },
    })
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: "Tool 'echo' failed: spawn exploded", isError: true}])
  })
})

describe('coordinateToolCalls: run modes on a terminal', () => {
  it('unattended runs without prompting and keeps the error flag of the result', async () => {
    const {deps, backend} = setup({
      tools: {'*': {run: 'unattended'}, echo: {}},
      immediate: {echo: {content: 'exit 2: boom', isError: true}},
    })
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: 'exit 2: boom', isError: true}])
    expect(backend.calls).to.deep.equal([])
  })

  it('applies the "*" defaults under the tool\'s own table', async () => {
    const {deps, backend} = setup({tools: {'*': {run: 'unattended', result: 'skip'}, echo: {result: 'unattended'}}})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses[0].content).to.equal('echoed')
    expect(backend.calls).to.deep.equal([])
  })

  it('ask then y runs; ask then n answers with the cancellation response and does not run', async () => {
    const {deps, tool, backend} = setup({selects: ['y', 'n']})
    const outcome = await coordinateToolCalls([call('1'), call('2')], deps)
    expect(outcome.responses).to.deep.equal([
      {id: '1', content: 'echoed', isError: false},
      {id: '2', content: CANNED, isError: false, skipped: true},
    ])
    expect(tool.runs).to.have.length(1)
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })

  it('Y is remembered for the rest of the turn, not beyond it', async () => {
    const decisions = new TurnToolDecisions()
    const {deps, tool, backend} = setup({selects: ['Y', 'n'], decisions})
    const first = await coordinateToolCalls([call('1'), call('2')], deps)
    expect(first.responses.map((r) => r.content)).to.deep.equal(['echoed', 'echoed'])
    expect(promptKinds(backend)).to.deep.equal(['select'])
    // A later assistant message of the same turn: still remembered.
    await coordinateToolCalls([call('3')], deps)
    expect(tool.runs).to.have.length(3)
    // A new turn asks again.
    const next = await coordinateToolCalls([call('4')], {...deps, decisions: new TurnToolDecisions()})
    expect(next.responses[0].content).to.equal(CANNED)
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })

  it('N is remembered: later calls are skipped without a prompt', async () => {
    const {deps, tool, backend} = setup({selects: ['N']})
    const outcome = await coordinateToolCalls([call('1'), call('2')], deps)
    expect(outcome.responses.map((r) => r.content)).to.deep.equal([CANNED, CANNED])
    expect(tool.runs).to.deep.equal([])
    expect(promptKinds(backend)).to.deep.equal(['select'])
  })

  it('r records the reason as the response', async () => {
    const {deps, tool} = setup({selects: ['r'], replies: [submit('use grep instead')]})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([
      {id: '1', content: skipReasonResponse('use grep instead'), isError: false, skipped: true},
    ])
    expect(skipReasonResponse('x')).to.contain('x')
    expect(tool.runs).to.deep.equal([])
  })

  it('e runs with the edited arguments', async () => {
    const {deps, tool} = setup({selects: ['e'], replies: [submit('{"text": "edited"}')]})
    await coordinateToolCalls([call('1')], deps)
    expect(tool.runs.map((r) => r.args)).to.deep.equal([{text: 'edited'}])
  })

  it('run = "skip" answers without prompting or running', async () => {
    const {deps, tool, backend} = setup({tools: {'*': {run: 'skip'}, echo: {}}})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: RUN_SKIPPED_BY_CONFIG, isError: false, skipped: true}])
    expect(tool.runs).to.deep.equal([])
    expect(backend.calls).to.deep.equal([])
  })
})

describe('coordinateToolCalls: result modes on a terminal', () => {
  it('ask then n records that delivery was skipped by the user', async () => {
    const {deps} = setup({tools: {'*': {run: 'unattended', result: 'ask'}, echo: {}}, selects: ['n']})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: RESULT_SKIPPED_BY_USER, isError: false, skipped: true}])
    expect(RESULT_SKIPPED_BY_USER).to.equal('Result delivery skipped by user.')
  })

  it('edit delivers the edited result and keeps the error flag', async () => {
    const {deps, backend} = setup({
      tools: {'*': {run: 'unattended', result: 'edit'}, echo: {}},
      immediate: {echo: {content: 'noisy stderr', isError: true}},
      replies: [submit('short')],
    })
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: 'short', isError: true}])
    expect(promptKinds(backend)).to.deep.equal(['reply'])
  })

  it('skip records that delivery was skipped by configuration, after running', async () => {
    const {deps, tool} = setup({tools: {'*': {run: 'unattended', result: 'skip'}, echo: {}}})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: RESULT_SKIPPED_BY_CONFIG, isError: false, skipped: true}])
    expect(tool.runs).to.have.length(1)
  })
})

describe('coordinateToolCalls: without a terminal', () => {
  it('ask and edit do not run without --tool, and say how to allow it', async () => {
    for (const run of ['ask', 'edit'] as const) {
      const {deps, tool, backend, router} = setup({tools: {'*': {run}, echo: {}}, canPrompt: false})
      const outcome = await coordinateToolCalls([call('1')], deps)
      expect(outcome.responses).to.deep.equal([{id: '1', content: noTerminalResponse('echo'), isError: true}])
      expect(tool.runs).to.deep.equal([])
      expect(backend.calls).to.deep.equal([])
      expect(router.pushes).to.equal(0)
    }

    expect(noTerminalResponse('echo')).to.equal(
      'Tool not run: no terminal to ask for permission (enable it with --tool echo or set run = "unattended").',
    )
  })

  it('ask and edit run when --tool NAME enabled the tool', async () => {
    for (const run of ['ask', 'edit'] as const) {
      const {deps, tool, backend} = setup({tools: {'*': {run}, echo: {}}, canPrompt: false, explicit: ['echo']})
      const outcome = await coordinateToolCalls([call('1')], deps)
      expect(outcome.responses).to.deep.equal([{id: '1', content: 'echoed', isError: false}])
      expect(tool.runs).to.have.length(1)
      expect(backend.calls).to.deep.equal([])
    }
  })

  it('unattended runs; --tool for another tool is no consent', async () => {
    const {deps, tool} = setup({
      tools: {'*': {run: 'ask'}, echo: {run: 'unattended'}, other: {}},
      canPrompt: false,
      explicit: ['echo'],
      immediate: {echo: {content: 'echoed', isError: false}, other: {content: 'x', isError: false}},
    })
    const outcome = await coordinateToolCalls([call('1'), call('2', 'other')], deps)
    expect(outcome.responses.map((r) => r.content)).to.deep.equal(['echoed', noTerminalResponse('other')])
    expect(tool.runs.map((r) => r.name)).to.deep.equal(['echo'])
  })

  it('result ask and edit deliver the result unchanged; skip still skips', async () => {
    for (const result of ['ask', 'edit'] as const) {
      const {deps, backend} = setup({tools: {'*': {run: 'unattended', result}, echo: {}}, canPrompt: false})
      const outcome = await coordinateToolCalls([call('1')], deps)
      expect(outcome.responses).to.deep.equal([{id: '1', content: 'echoed', isError: false}])
      expect(backend.calls).to.deep.equal([])
    }

    const {deps} = setup({tools: {'*': {run: 'unattended', result: 'skip'}, echo: {}}, canPrompt: false})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses[0].content).to.equal(RESULT_SKIPPED_BY_CONFIG)
  })
})

describe('coordinateToolCalls: Ctrl+C while a tool runs', () => {
  const unattended = {'*': {run: 'unattended' as const, cancellation_response: CANNED}, echo: {}}

  it('continue keeps waiting and delivers the result; the handler is popped after', async () => {
    const {deps, tool, router, backend} = setup({tools: unattended, immediate: {}, selects: ['c']})
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    expect(router.stack).to.have.length(1)
    router.ctrlC()
    await new Promise((resolve) => setImmediate(resolve))
    tool.runs[0].finish({content: 'finally', isError: false})
    const outcome = await pending
    expect(outcome).to.deep.equal({responses: [{id: '1', content: 'finally', isError: false}], stop: false, escalate: false})
    expect(tool.runs[0].signal.aborted).to.equal(false)
    expect(router.stack).to.deep.equal([])
    expect(promptKinds(backend)).to.deep.equal(['select'])
  })

  it('restart kills the run and runs the tool again', async () => {
    const {deps, tool, router} = setup({tools: unattended, immediate: {}, selects: ['t']})
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    await tool.started(2)
    expect(tool.runs[0].signal.aborted).to.equal(true)
    expect(tool.runs[1].args).to.deep.equal({text: '1'})
    tool.runs[1].finish({content: 'second run', isError: false})
    const outcome = await pending
    expect(outcome.responses).to.deep.equal([{id: '1', content: 'second run', isError: false}])
    expect(router.stack).to.deep.equal([])
  })

  it('stop & respond kills the run and records the custom message', async () => {
    const {deps, tool, router} = setup({tools: unattended, immediate: {}, selects: ['r'], replies: [submit('wrong dir')]})
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    const outcome = await pending
    expect(outcome).to.deep.equal({
      responses: [{id: '1', content: customToolResponse('wrong dir'), isError: false, skipped: true}],
      stop: false,
      escalate: false,
    })
    expect(tool.runs[0].signal.aborted).to.equal(true)
  })

  it('stop & respond with an empty reply records the cancellation response', async () => {
    const {deps, tool, router} = setup({tools: unattended, immediate: {}, selects: ['r'], replies: [submit('  ')]})
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    expect((await pending).responses[0].content).to.equal(CANNED)
  })

  it('stop kills the run, records the cancellation response, answers the rest unrun and stops the turn', async () => {
    const {deps, tool, router} = setup({
      tools: {...unattended, other: {cancellation_response: 'other cancelled'}},
      immediate: {},
      selects: ['s'],
    })
    const pending = coordinateToolCalls([call('1'), call('2', 'other'), call('3', 'ghost')], deps)
    await tool.started(1)
    router.ctrlC()
    const outcome = await pending
    expect(outcome).to.deep.equal({
      responses: [
        {id: '1', content: CANNED, isError: false, skipped: true},
        {id: '2', content: 'other cancelled', isError: false, skipped: true},
        {id: '3', content: CANNED, isError: false, skipped: true},
      ],
      stop: true,
      escalate: false,
    })
    expect(tool.runs).to.have.length(1)
    expect(tool.runs[0].signal.aborted).to.equal(true)
  })

  it('Ctrl+C at the tool menu escalates: the run is killed and every call still answered', async () => {
    const {deps, tool, router} = setup({tools: unattended, immediate: {}, selects: [ctrlC()]})
    const pending = coordinateToolCalls([call('1'), call('2')], deps)
    await tool.started(1)
    router.ctrlC()
    const outcome = await pending
    expect(outcome.escalate).to.equal(true)
    expect(outcome.stop).to.equal(true)
    expect(outcome.responses.map((r) => r.id)).to.deep.equal(['1', '2'])
    expect(tool.runs[0].signal.aborted).to.equal(true)
  })

  it('uses the built-in cancellation response when no table sets one', async () => {
    const {deps, tool, router} = setup({tools: {'*': {run: 'unattended'}, echo: {}}, immediate: {}, selects: ['s']})
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    expect((await pending).responses[0].content).to.equal(DEFAULT_TOOL_CANCELLED_RESPONSE)
  })

  it('a tool that finishes while the menu is open waits for the answer: continue delivers its result', async () => {
    const answer = deferred<ToolInterruptAction>()
    let menus = 0
    const {deps, tool, router} = setup({
      tools: unattended,
      immediate: {},
      interrupts: {
        handleToolInterrupt: () => {
          menus++
          return answer.promise
        },
      },
    })
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    // A second notification while the menu is up does not open another.
    router.ctrlC()
    tool.runs[0].finish({content: 'done meanwhile', isError: false})
    await new Promise((resolve) => setImmediate(resolve))
    answer.resolve({type: 'continue'})
    const outcome = await pending
    expect(outcome.responses).to.deep.equal([{id: '1', content: 'done meanwhile', isError: false}])
    expect(menus).to.equal(1)
  })

  it('a tool that finishes while the menu is open still honours respond', async () => {
    const answer = deferred<ToolInterruptAction>()
    const {deps, tool, router} = setup({
      tools: unattended,
      immediate: {},
      interrupts: {handleToolInterrupt: () => answer.promise},
    })
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    tool.runs[0].finish({content: 'done meanwhile', isError: false})
    await new Promise((resolve) => setImmediate(resolve))
    answer.resolve({type: 'respond', content: 'custom'})
    expect((await pending).responses).to.deep.equal([{id: '1', content: 'custom', isError: false, skipped: true}])
  })

  it('a menu that fails escalates', async () => {
    const {deps, tool, router} = setup({
      tools: unattended,
      immediate: {},
      interrupts: {handleToolInterrupt: async () => Promise.reject(new Error('tty gone'))},
    })
    const pending = coordinateToolCalls([call('1')], deps)
    await tool.started(1)
    router.ctrlC()
    const outcome = await pending
    expect(outcome.escalate).to.equal(true)
    expect(outcome.responses).to.deep.equal([{id: '1', content: CANNED, isError: false, skipped: true}])
  })
})

describe('coordinateToolCalls: Ctrl+C at a tool prompt (issue 23, finding 1)', () => {
  const INTERRUPTED = 'Tool call not run: the user interrupted the response.'

  it('r at [b,r,s]: this call and the remaining ones are answered as interrupted, none runs, the reply comes back', async () => {
    const {deps, tool, backend, router} = setup({promptScope: true, selects: [ctrlC(), 'r'], replies: [submit('look in lib/')]})
    const outcome = await coordinateToolCalls([call('1'), call('2'), call('3', 'ghost')], deps)
    expect(outcome).to.deep.equal({
      responses: [
        {id: '1', content: INTERRUPTED, isError: true},
        {id: '2', content: INTERRUPTED, isError: true},
        {id: '3', content: INTERRUPTED, isError: true},
      ],
      stop: true,
      escalate: false,
      reply: {text: 'look in lib/', fromEditor: false},
    })
    expect(tool.runs).to.deep.equal([])
    // One permission prompt, its menu, the reply; the scope was popped.
    expect(promptKinds(backend)).to.deep.equal(['select', 'select', 'reply'])
    expect(router.stack).to.deep.equal([])
  })

  it('s at [b,r,s]: skipped with the cancellation response, the turn stops', async () => {
    const {deps, tool} = setup({promptScope: true, selects: [ctrlC(), 's']})
    const outcome = await coordinateToolCalls([call('1'), call('2')], deps)
    expect(outcome.stop).to.equal(true)
    expect(outcome.escalate).to.equal(false)
    expect(outcome.responses.map((r) => r.content)).to.deep.equal([CANNED, CANNED])
    expect(tool.runs).to.deep.equal([])
  })

  it('b at [b,r,s]: the same prompt again, then y runs the tool', async () => {
    const {deps, tool, backend} = setup({promptScope: true, selects: [ctrlC(), 'b', 'y']})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: 'echoed', isError: false}])
    expect(tool.runs).to.have.length(1)
    expect(promptKinds(backend)).to.deep.equal(['select', 'select', 'select'])
  })

  it('at the result prompt: the tool ran, its result is withheld, Ctrl+C at the menu escalates', async () => {
    const {deps, tool} = setup({promptScope: true, tools: {'*': {run: 'unattended', result: 'ask', cancellation_response: CANNED}, echo: {}}, selects: [ctrlC(), ctrlC()]})
    const outcome = await coordinateToolCalls([call('1'), call('2')], deps)
    expect(tool.runs).to.have.length(1)
    expect(outcome.escalate).to.equal(true)
    expect(outcome.responses).to.deep.equal([
      {id: '1', content: RESULT_SKIPPED_BY_USER, isError: false, skipped: true},
      {id: '2', content: CANNED, isError: false, skipped: true},
    ])
  })

  it('without a scope Ctrl+C at the permission prompt still backs out (skip), as before', async () => {
    const {deps, tool} = setup({selects: [ctrlC()]})
    const outcome = await coordinateToolCalls([call('1')], deps)
    expect(outcome.responses).to.deep.equal([{id: '1', content: CANNED, isError: false, skipped: true}])
    expect(tool.runs).to.deep.equal([])
  })

  it('tells onCallStart whether the call is about to be prompted (its header is then part of the prompt)', async () => {
    const seen: Array<[string, boolean]> = []
    const {deps} = setup({
      tools: {'*': {run: 'ask', cancellation_response: CANNED}, echo: {}, quiet: {run: 'unattended'}},
      selects: ['Y'],
      immediate: {echo: {content: 'echoed', isError: false}, quiet: {content: 'ok', isError: false}},
    })
    await coordinateToolCalls([call('1'), call('2', 'quiet'), call('3'), call('4', 'ghost')], {...deps, onCallStart: (c, info) => void seen.push([c.id, info.prompted])})
    expect(seen).to.deep.equal([['1', true], ['2', false], ['3', false], ['4', false]])
  })
})
