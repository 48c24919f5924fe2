// The Ctrl+C ladder as a table over every scope (SPEC §17, RFD 092): the
// real turn loop, the real signal router (driven with handle() and a fake
// clock and exit), the real interrupt handler, and a prompt backend whose
// menus stay open until the test answers them — as a menu on a terminal
// does. For each scope: the first press opens that scope's menu, the second
// begins a graceful shutdown and says so (as a signal before the menu is
// answered, or as Ctrl+C typed at the open menu), the third exits 130; and
// answering the menu resets the ladder.
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
import type {ToolPrompter} from '../../src/lib/tool/prompter.js'
import {runTurn, type TurnDeps} from '../../src/lib/turn/turn-loop.js'

/** Menus that stay open until answered (or until the shutdown closes them). */
class OpenMenuBackend implements PromptBackend {
  readonly menus: string[][] = []
  private open: {resolve: (key: string) => void; reject: (e: unknown) => void} | undefined

  constructor(private readonly shutdown: AbortSignal) {}

  inlineSelect(config: InlineSelectConfig): Promise<string> {
    this.menus.push(config.options.map((o) => o.key))
    return new Promise((resolve, reject) => {
      this.open = {resolve, reject}
      this.shutdown.addEventListener('abort', () => reject(new PromptCancelledError('interrupted')), {once: true})
    })
  }

  answer(key: string): void {
    this.take().resolve(key)
  }

  /** Ctrl+C typed at the open menu (the prompt owns the key in raw mode). */
  ctrlC(): void {
    this.take().reject(new PromptCancelledError('interrupted'))
  }

  private take() {
    const o = this.open
    if (!o) throw new Error('no menu is open')
    this.open = undefined
    return o
  }

  async inlineReply(_request: InlineReplyRequest): Promise<ReplyOutcome> {
    return {type: 'cancelled'}
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

type Scope = {name: string; menu: string[]; start(h: Harness): void}

const TOOLS = {slow: {command: 'slow', run: 'unattended' as const}}

function turnDeps(h: Harness, over: Partial<TurnDeps>): TurnDeps {
  const sink = new PassThrough()
  sink.resume()
  const interrupts = new InterruptHandler({
    backend: h.backend,
    editor: new MockEditorBackend([]),
    config: defaultConfig({}).interrupt,
    editMode: 'emacs',
    notice: (l) => h.notices.push(l),
    onMenuAnswered: () => h.router.resetLadder(),
    onEscalate: () => void h.router.shutdown(),
  })
  return {
    provider: provider(async function* (signal) {
      yield {type: 'text', text: 'done'}
    }),
    model: 'm',
    tools: [],
    toolConfigs: TOOLS,
    enabledTools: new Set(['slow']),
    explicitTools: new Set(),
    runTool: async () => ({content: 'ok', isError: false}),
    events: [],
    persist: async () => {},
    printer: new Printer({stdout: sink, stderr: sink, stdoutIsTTY: false, stderrIsTTY: false}),
    router: h.router,
    // `run = "unattended"` still passes through the prompter, which runs it.
    interactive: {interrupts, prompter: {promptPermission: async (_name: string, args: unknown) => ({type: 'run', args, remember: false})} as unknown as ToolPrompter},
    ...over,
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
    menu: ['c', 's'],
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
    name: 'anything else (the fallback menu)',
    menu: ['c', 'q'],
    start: (h) => {
      const interrupts = turnDeps(h, {}).interactive!.interrupts
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
      async function firstPress(): Promise<void> {
        h = harness()
        scope.start(h)
        // Let the scope reach its waiting point.
        await new Promise((r) => setTimeout(r, 20))
        h.press()
        await until(() => h.backend.menus.length === 1, 'the menu')
        expect(h.backend.menus[0]).to.deep.equal(scope.menu)
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

      it('answering the menu (c) resets the ladder: a press 300 ms later opens the menu again', async () => {
        await firstPress()
        h.backend.answer('c')
        await new Promise((r) => setTimeout(r, 20))
        h.advance(300)
        h.press()
        await until(() => h.backend.menus.length === 2, 'the menu again')
        expect(h.router.shuttingDown).to.equal(false)
        expect(h.backend.menus[1]).to.deep.equal(scope.menu)
      })
    })
  }
})
