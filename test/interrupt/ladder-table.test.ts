// The Ctrl+C ladder as a table over every scope (SPEC §17, §18, RFD 092):
// the real turn loop, the real signal router (driven with handle() and a
// fake clock and exit), the real interrupt handler and tool prompter, and a
// prompt backend whose prompts stay open until the test answers them — as a
// prompt on a terminal does. For each scope: the first press opens that
// scope's menu, the second begins a graceful shutdown and says so (as a
// signal before the menu is answered, or as Ctrl+C typed at the open menu),
// the third exits 130; and answering the menu resets the ladder. At a tool
// prompt (permission, arguments, result, result edit) the first press is
// Ctrl+C typed at the prompt — or a SIGINT from outside, which closes it —
// and the menu is the call's `[b,r,s]`, whose `b` shows the prompt again.
import {expect} from 'chai'
import {PassThrough} from 'node:stream'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {MockEditorBackend} from '../../src/lib/editor/mock.js'
import {PromptCancelledError, type InlineReplyRequest, type InlineSelectConfig, type PromptBackend, type ReplyOutcome} from '../../src/lib/inquire/types.js'
import {pushFallbackMenu} from '../../src/lib/interrupt/gate.js'
import {InterruptHandler} from '../../src/lib/interrupt/handler.js'
import {SignalRouter} from '../../src/lib/interrupt/signals.js'
import type {ChatRequest, Provider, StreamEvent} from '../../src/lib/llm/types.js'
import {Printer} from '../../src/lib/printer/printer.js'
import {ToolPrompter} from '../../src/lib/tool/prompter.js'
import {runTurn, type ScreenPort, type StorePort, type ToolsPort, type TurnDeps} from '../../src/lib/turn/turn-loop.js'

/**
 * Prompts that stay open until answered, or until the shutdown (or the
 * prompt's own signal) ends them. `menus` lists every prompt shown: a
 * menu's keys, or `reply:MESSAGE` for an inline reply.
 */
class OpenMenuBackend implements PromptBackend {
  readonly menus: string[][] = []
  private open: {answer: (key: string) => void; ctrlC: () => void} | undefined

  constructor(private readonly shutdown: AbortSignal) {}

  inlineSelect(config: InlineSelectConfig): Promise<string> {
    this.menus.push(config.options.map((o) => o.key))
    return new Promise((resolve, reject) => {
      this.open = {answer: resolve, ctrlC: () => reject(new PromptCancelledError('interrupted'))}
      this.ended(config.signal, () => reject(new PromptCancelledError('terminated')))
    })
  }

  answer(key: string): void {
    this.take().answer(key)
  }

  /** Ctrl+C typed at the open prompt (the prompt owns the key in raw mode). */
  ctrlC(): void {
    this.take().ctrlC()
  }

  private take() {
    const o = this.open
    if (!o) throw new Error('no prompt is open')
    this.open = undefined
    return o
  }

  /** An end from outside: the shutdown closes every prompt, a prompt's own signal closes it. */
  private ended(signal: AbortSignal | undefined, end: () => void): void {
    const close = () => {
      this.open = undefined
      end()
    }
    this.shutdown.addEventListener('abort', close, {once: true})
    signal?.addEventListener('abort', close, {once: true})
  }

  inlineReply(request: InlineReplyRequest): Promise<ReplyOutcome> {
    this.menus.push([`reply:${request.message.split('\n').at(-1)}`])
    return new Promise((resolve) => {
      const text = request.initialText
      this.open = {
        answer: (t) => resolve({type: 'submit', text: t}),
        ctrlC: () => resolve({type: 'cancelled', reason: 'interrupted', text}),
      }
      this.ended(request.signal, () => resolve({type: 'cancelled', reason: 'terminated', text}))
    })
  }

  async confirm(): Promise<boolean> {
    throw new PromptCancelledError('cancelled')
  }

  async text(): Promise<string> {
    throw new PromptCancelledError('cancelled')
  }
}

function abortError(): Error {
  const e = new Error('aborted')
  e.name = 'AbortError'
  return e
}

/** Resolves when `signal` aborts; rejects as an abort, as a provider does. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(abortError())
    signal.addEventListener('abort', () => reject(abortError()), {once: true})
  })
}

function provider(script: (signal: AbortSignal, call: number) => AsyncIterable<StreamEvent>): Provider {
  let calls = 0
  return {name: 'test', stream: (_req: ChatRequest, signal: AbortSignal) => script(signal, calls++)}
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return
    await new Promise((r) => setTimeout(r, 2))
  }
  throw new Error(`timed out waiting for ${what}`)
}

interface Harness {
  router: SignalRouter
  backend: OpenMenuBackend
  notices: string[]
  exits: number[]
  press(): void
  advance(ms: number): void
}

type Scope = {
  name: string
  menu: string[]
  start(h: Harness): void
  /** A tool prompt: the prompt the first press lands on (as `menus` records it). */
  prompt?: string[]
}

const TOOLS = {slow: {command: 'slow', run: 'unattended' as const}}
type ToolMode = {run?: 'ask' | 'edit' | 'unattended'; result?: 'ask' | 'edit' | 'unattended'}

function handler(h: Harness): InterruptHandler {
  return new InterruptHandler({
    backend: h.backend,
    editor: new MockEditorBackend([]),
    config: defaultConfig({}).interrupt,
    editMode: 'emacs',
    notice: (l) => h.notices.push(l),
    onMenuAnswered: () => h.router.resetLadder(),
    onEscalate: () => void h.router.shutdown(),
  })
}

/** A turn whose model calls `slow` once, with the real tool prompter wired to the router (as on a terminal). */
function toolPromptTurn(h: Harness, mode: ToolMode): void {
  const interrupts = handler(h)
  const prompter = new ToolPrompter({
    backend: h.backend,
    editor: undefined,
    editMode: 'emacs',
    notice: (l) => h.notices.push(l),
    print: () => {},
    scope: {
      menu: () => interrupts.handleToolPromptInterrupt(),
      push: (listener) => h.router.push(listener),
      press: () => void h.router.handle('SIGINT'),
    },
  })
  void runTurn('q', turnDeps(h, {
    provider: provider(async function* (_signal, n) {
      if (n === 0) yield {type: 'tool_call', id: 'c1', name: 'slow', arguments: {}}
      else yield {type: 'text', text: 'done'}
    }),
    toolConfigs: {slow: {command: 'slow', run: mode.run ?? 'unattended', result: mode.result ?? 'unattended'}},
    interactive: {interrupts, prompter},
  }))
}

/** What a scope changes of the turn's ports. */
interface TurnOver {
  provider?: Provider
  toolConfigs?: ToolsPort['configs']
  runTool?: ToolsPort['run']
  persist?: StorePort['persist']
  interactive?: ScreenPort['interactive']
}

function turnDeps(h: Harness, over: TurnOver): TurnDeps {
  const sink = new PassThrough()
  sink.resume()
  const interrupts = handler(h)
  return {
    request: {
      provider: over.provider ?? provider(async function* (signal) {
        yield {type: 'text', text: 'done'}
      }),
      model: 'm',
    },
    tools: {
      definitions: [],
      configs: over.toolConfigs ?? TOOLS,
      enabled: new Set(['slow']),
      explicit: new Set(),
      run: over.runTool ?? (async () => ({content: 'ok', isError: false})),
    },
    store: {events: [], persist: over.persist ?? (async () => {})},
    screen: {
      printer: new Printer({stdout: sink, stderr: sink, stdoutIsTTY: false, stderrIsTTY: false}),
      router: h.router,
      // `run = "unattended"` still passes through the prompter, which runs it.
      interactive: over.interactive ?? {interrupts, prompter: {promptPermission: async (_name: string, args: unknown) => ({type: 'run', args, remember: false})} as unknown as ToolPrompter},
    },
  }
}

const SCOPES: Scope[] = [
  {
    name: 'waiting for the first token',
    menu: ['c', 'r', 's', 'a'],
    start: (h) =>
      void runTurn('q', turnDeps(h, {provider: provider(async function* (signal) {
        await untilAborted(signal)
      })})),
  },
  {
    name: 'streaming',
    menu: ['c', 'r', 's', 'a'],
    start: (h) =>
      void runTurn('q', turnDeps(h, {provider: provider(async function* (signal) {
        yield {type: 'text', text: 'partial '}
        await untilAborted(signal)
      })})),
  },
  {
    name: 'a tool run',
    menu: ['c', 'r', 's', 't'],
    start: (h) =>
      void runTurn('q', turnDeps(h, {
        provider: provider(async function* () {
          yield {type: 'tool_call', id: 'c1', name: 'slow', arguments: {}}
        }),
        runTool: (_call, _args, signal) => untilAborted(signal),
      })),
  },
  {
    name: 'between turn phases (persisting)',
    menu: ['c', 'r', 's'],
    start: (h) => {
      let persists = 0
      const never = new Promise<void>(() => {})
      void runTurn('q', turnDeps(h, {
        // The first save goes through; the one after the answer hangs: a gap.
        persist: () => (++persists === 1 ? Promise.resolve() : never),
      }))
    },
  },
  {
    name: 'a tool permission prompt',
    menu: ['b', 'r', 's'],
    prompt: ['y', 'Y', 'n', 'N', 'p', 'r', 'e'],
    start: (h) => toolPromptTurn(h, {run: 'ask'}),
  },
  {
    name: 'a tool argument editor (run = "edit")',
    menu: ['b', 'r', 's'],
    prompt: ['reply:Edit arguments'],
    start: (h) => toolPromptTurn(h, {run: 'edit'}),
  },
  {
    name: 'a tool result prompt (result = "ask")',
    menu: ['b', 'r', 's'],
    prompt: ['y', 'n', 'e'],
    start: (h) => toolPromptTurn(h, {result: 'ask'}),
  },
  {
    name: 'a tool result editor (result = "edit")',
    menu: ['b', 'r', 's'],
    prompt: ['reply:Edit result before delivery'],
    start: (h) => toolPromptTurn(h, {result: 'edit'}),
  },
  {
    name: 'anything else (the fallback menu)',
    menu: ['c', 's'],
    start: (h) => {
      const interrupts = turnDeps(h, {}).screen.interactive!.interrupts
      pushFallbackMenu({router: h.router, interrupts})
    },
  },
]

function harness(): Harness {
  let clock = 1000
  const notices: string[] = []
  const exits: number[] = []
  const router = new SignalRouter({
    escalationCooldownSecs: 2,
    isInteractive: () => true,
    now: () => clock,
    exit: (code) => exits.push(code),
    notice: (l) => notices.push(l),
    shutdownTimeoutMs: 60_000,
  })
  // Saving takes a while (as the real shutdown's wait for the turn does), so
  // the second rung has not exited by the time the third press comes.
  router.onShutdown(() => new Promise((r) => setTimeout(r, 500)))
  const h: Harness = {
    router,
    backend: new OpenMenuBackend(router.shutdownSignal),
    notices,
    exits,
    press: () => void router.handle('SIGINT'),
    advance: (ms) => (clock += ms),
  }
  return h
}

const shuttingDown = (h: Harness) => h.notices.some((n) => n.startsWith('Shutting down'))

describe('the Ctrl+C ladder over every scope (table)', () => {
  let h: Harness
  afterEach(() => {
    // Release the watchdog timer of a shutdown the test started.
    void h?.router.shutdown()
  })

  for (const scope of SCOPES) {
    describe(scope.name, () => {
      /** Where the menu is in `menus`: after the prompt for a tool prompt. */
      const at = scope.prompt ? 1 : 0

      async function firstPress(how: 'key' | 'signal' = scope.prompt ? 'key' : 'signal'): Promise<void> {
        h = harness()
        scope.start(h)
        if (scope.prompt) {
          await until(() => h.backend.menus.length === 1, 'the prompt')
          expect(h.backend.menus[0]).to.deep.equal(scope.prompt)
        } else {
          // Let the scope reach its waiting point.
          await new Promise((r) => setTimeout(r, 20))
        }
        if (how === 'key') h.backend.ctrlC()
        else h.press()
        await until(() => h.backend.menus.length === at + 1, 'the menu')
        expect(h.backend.menus[at]).to.deep.equal(scope.menu)
        expect(h.router.shuttingDown).to.equal(false)
      }

      it('1st press: the scope menu; 2nd (a signal, menu not answered): graceful shutdown, said; 3rd: exit 130', async () => {
        await firstPress()
        h.advance(300)
        h.press()
        expect(h.router.shuttingDown).to.equal(true)
        expect(shuttingDown(h), h.notices.join('\n')).to.equal(true)
        expect(h.exits).to.deep.equal([])
        h.advance(300)
        h.press()
        expect(h.exits).to.deep.equal([130])
      })

      it('2nd press typed at the open menu: graceful shutdown at once, said; 3rd: exit 130', async () => {
        await firstPress()
        h.backend.ctrlC()
        await until(() => h.router.shuttingDown, 'the shutdown')
        expect(shuttingDown(h), h.notices.join('\n')).to.equal(true)
        h.press()
        expect(h.exits).to.deep.equal([130])
      })

      const back = scope.prompt ? 'b' : 'c'
      it(`answering the menu (${back}) resets the ladder: a press 300 ms later opens the menu again`, async () => {
        await firstPress()
        h.backend.answer(back)
        if (scope.prompt) {
          // b: the same prompt again.
          await until(() => h.backend.menus.length === 3, 'the prompt again')
          expect(h.backend.menus[2]).to.deep.equal(scope.prompt)
        } else {
          await new Promise((r) => setTimeout(r, 20))
        }
        h.advance(300)
        if (scope.prompt) h.backend.ctrlC()
        else h.press()
        const menus = scope.prompt ? 4 : 2
        await until(() => h.backend.menus.length === menus, 'the menu again')
        expect(h.router.shuttingDown).to.equal(false)
        expect(h.backend.menus[menus - 1]).to.deep.equal(scope.menu)
      })

      if (scope.prompt) {
        it('1st press as a signal (SIGINT from outside) while the prompt is open: the prompt closes and the menu opens', async () => {
          await firstPress('signal')
          // One prompt at a time: the menu came after the prompt closed.
          expect(() => h.backend.answer('b')).not.to.throw()
          await until(() => h.backend.menus.length === 3, 'the prompt again')
          expect(h.backend.menus[2]).to.deep.equal(scope.prompt)
        })
      }
    })
  }
})
