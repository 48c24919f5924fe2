// The build-turn step of `jp query`: the model, the enabled tools, the
// signal router, and on a terminal the prompts (interrupt menus, tool
// prompts, the ladder's fallback menu), wired into the turn loop's deps.
import type {Config} from '../config/types.js'
import {FALLBACK_MODEL_ID, queryModelId} from '../config/defaults.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import type {EditorBackend} from '../editor/types.js'
import type {InlinePromptSettings} from '../inquire/terminal-backend.js'
import type {SignalRouter} from '../interrupt/signals.js'
import {SIGNAL_EXIT_CODES} from '../interrupt/escalation.js'
import {terminalGone} from '../terminal/gone.js'
import {resolveModel, type ResolvedModel} from '../llm/index.js'
import {withWireToolNames} from '../llm/wire-names.js'
import type {Printer} from '../printer/printer.js'
import {hasTty} from '../terminal/tty.js'
import type {ToolRunFn} from '../tool/coordinator.js'
import {runLocalTool} from '../tool/runner.js'
import type {McpHub} from '../mcp/hub.js'
import {enabledToolNames, toolDefinitions} from '../turn/tool-selection.js'
import type {ScreenPort, TurnDeps, TurnQueue} from '../turn/ports.js'
import {attachmentText} from '../turn/messages.js'
import type {OpenConversation} from './conversation.js'
import {userFacing} from './errors.js'
import {userQueries} from '../conversation/events.js'
import type {InterruptKeyReader} from '../interrupt/interrupt-key.js'
import {QueuedReplyDraft} from './reply-slot.js'

/** stdout closed by its reader: 128 + SIGPIPE, as shells report a producer cut off. */
export const STDOUT_CLOSED_EXIT = 141

/** The model the query runs on; says so on stderr when it is the offline fallback. A bad id or a missing key is a QueryError. */
export async function chooseModel(modelFlag: string | undefined, config: Config, printer: Printer): Promise<ResolvedModel> {
  if (modelFlag === undefined && !config.assistant.model.id?.trim()) {
    printer.notice(`No model configured; using the built-in offline model ${FALLBACK_MODEL_ID} (set assistant.model.id, see README).`)
  }
  const id = queryModelId(modelFlag, config)
  const resolved = await userFacing(() => resolveModel(id, config.providers.llm, process.env, config.assistant.model.parameters))
  // Said before the first request (a key over plain http); the query goes on.
  if (resolved.warning) printer.warn(resolved.warning)
  return resolved
}

/** The local tools enabled for this query (`-t`/`-T` over each tool's `enable`); an unknown name is a QueryError. */
export function chooseTools(config: Config, flags: {tools: string[]; noTools: string[]}): Promise<Set<string>> {
  return userFacing(() => enabledToolNames(config.conversation.tools, {explicit: flags.tools, disabled: flags.noTools}, config.mcp.servers))
}

/**
 * The query's MCP servers, started now (in parallel, after the prompt: they
 * never delay it); undefined when none is wanted, and then nothing of MCP is loaded.
 */
async function startMcp(opts: TurnSetupOptions): Promise<McpHub | undefined> {
  const {config} = opts
  const selection = {explicit: opts.explicitTools, disabled: opts.disabledTools ?? []}
  const names = await import('../mcp/names.js')
  const wanted = Object.entries(config.mcp.servers).some(([name, server]) => names.mcpServerWanted({...server, name}, selection))
  if (!wanted) return undefined
  const {McpHub} = await import('../mcp/hub.js')
  const hub = new McpHub({
    servers: config.mcp.servers,
    tools: config.conversation.tools,
    selection,
    cwd: opts.workspace.root,
    env: process.env,
    providerKeyVars: providerKeyVariables(config),
    notice: (line) => opts.printer.warn(line),
    signal: opts.router.shutdownSignal,
  })
  hub.start()
  return hub
}

export interface TurnSetupOptions {
  config: Config
  model: ResolvedModel
  enabledTools: Set<string>
  /** The tools named with `-t` (consent to run them without a terminal). */
  explicitTools: string[]
  /** The tools named with `-T` (an MCP server's tools, or `SERVER.*`, too). */
  disabledTools?: string[]
  conversation: OpenConversation
  store: ConversationStore
  workspace: Workspace
  printer: Printer
  editor: EditorBackend | undefined
  /** The query's router, installed at its first line (query/ladder.ts). */
  router: SignalRouter
  /** The inline prompts' keys, editor name and wider search. */
  inline?: InlinePromptSettings
  /** The run's first query (a draft holding it is this run's own). */
  query: string
  /** The files a text typed on the terminal mentions (`@PATH`, SPEC §19), read as `-a` reads them. */
  mentions?: ScreenPort['mentions']
}

export interface TurnSetup {
  deps: TurnDeps
  router: SignalRouter
  /** On a terminal, the reader of Ctrl+C as a key; stopped once the turn is settled. */
  keyReader?: {stop(): void}
  /** On a terminal, the queued reply's slot (the conversation's draft). */
  queued?: QueuedReplyDraft
  /** Ends what the turn started (MCP servers). */
  close(): Promise<void>
}

/** Starts (on a terminal) the Ctrl+C key reader and builds the turn loop's deps around the query's router. */
export async function buildTurn(opts: TurnSetupOptions): Promise<TurnSetup> {
  const {config, printer, conversation, router} = opts
  const interactive = hasTty()
  // The reader of stdout went away (`| head -n 1`): nobody reads the rest of
  // the answer, so stop it the graceful way (what arrived is saved) and exit
  // as a producer cut off by SIGPIPE does, quietly.
  // (A stdout that was the terminal, hung up, is the hang-up's: its shutdown exits 129 — also when the
  // window closed while jp started, before the terminal could be asked: stdout's writes then fail with EIO.)
  printer.onStdoutClosed((error) => {
    if (terminalGone()) return
    const hungUp = error.code === 'EIO' || error.code === 'ENXIO'
    void router.shutdown(hungUp ? SIGNAL_EXIT_CODES.SIGHUP : STDOUT_CLOSED_EXIT, {quiet: true})
  })
  // On a terminal, Ctrl+C is read as a key for the query's duration, so the
  // processes jp is piped into are not signalled (interrupt/interrupt-key.ts).
  const keyReader = interactive ? (await import('../interrupt/interrupt-key.js')).readInterruptKey(() => router.handle('SIGINT')) : undefined
  // The queued reply's slot is the conversation's draft (SPEC §18).
  const queued = interactive ? await userFacing(() => QueuedReplyDraft.open(opts.store.draftPath(conversation.id), opts.query)) : undefined
  const prompts = interactive ? await terminalPrompts(opts, router, queued) : undefined
  const toolConfigs = config.conversation.tools
  const mcp = await startMcp(opts)
  const deps: TurnDeps = {
    request: {
      // `SERVER.TOOL` is no valid tool name on the wire: encoded there, decoded back (the offline model needs neither).
      provider: opts.model.provider.name === 'echo' ? opts.model.provider : withWireToolNames(opts.model.provider),
      model: opts.model.model,
      system: config.assistant.system_prompt,
      reasoning: config.assistant.model.parameters?.reasoning,
      maxTokens: config.assistant.model.parameters?.max_tokens,
      temperature: config.assistant.model.parameters?.temperature,
    },
    tools: {
      definitions: toolDefinitions(toolConfigs, opts.enabledTools),
      configs: toolConfigs,
      enabled: opts.enabledTools,
      explicit: new Set(opts.explicitTools),
      more: mcp ? () => mcp.toolSet() : undefined,
      checkArguments: mcp ? (name, args) => mcp.checkArguments(name, args) : undefined,
      run: runTool(opts, router, mcp),
    },
    store: {
      events: conversation.events,
      persist: async () => {
        await opts.store.saveEvents(conversation.id, conversation.events)
      },
      appendText: (index, key, text) => opts.store.appendText(conversation.id, conversation.events, index, key, text),
      completeEvents: () => opts.store.completeEvents(conversation.id, conversation.events),
    },
    screen: {
      printer,
      router,
      interactive: prompts,
      queue: prompts && queued ? await turnQueue(opts, {router, keyReader, interrupts: prompts.interrupts, queued}) : undefined,
    },
  }
  return {deps, router, keyReader, queued, close: async () => mcp?.close()}
}

/** How a call runs: an MCP server's tool on its server, any other as its configured command in the workspace. */
function runTool(opts: TurnSetupOptions, router: SignalRouter, mcp: McpHub | undefined): ToolRunFn {
  const {config} = opts
  return async (call, args, signal, toolConfig) => {
    if (mcp && toolConfig.source === 'mcp' && mcp.owns(call.name)) return mcp.call(call.name, args, AbortSignal.any([signal, router.shutdownSignal]))
    const command = toolConfig.command
    if (command === undefined) return {content: `Tool '${call.name}' has no command configured.`, isError: true}
    const result = await runLocalTool({
      name: call.name,
      command,
      arguments: args,
      cwd: opts.workspace.root,
      // No provider key reaches a tool unless its config keeps it (tool/environment.ts).
      environment: {policy: toolConfig.env, providerKeyVars: providerKeyVariables(config)},
      signal: AbortSignal.any([signal, router.shutdownSignal]),
    })
    return {content: result.content, isError: result.isError}
  }
}

/** The queued reply for the turn loop: the slot, type to queue (when on and Ctrl+C is read as a key), the countdown. */
async function turnQueue(
  opts: TurnSetupOptions,
  parts: {router: SignalRouter; keyReader: InterruptKeyReader | undefined; interrupts: NonNullable<ScreenPort['interactive']>['interrupts']; queued: QueuedReplyDraft},
): Promise<TurnQueue> {
  const [{TypeToQueue}, {queueCountdown}] = await Promise.all([import('../interrupt/type-to-queue.js'), import('../interrupt/queue-countdown.js')])
  const {router, keyReader, interrupts, queued} = parts
  const {config, printer} = opts
  // The queued reply's line follows the slot (SPEC §19).
  queued.onChange = (text) => printer.showQueued(text)
  const typing =
    keyReader && config.interrupt.type_to_queue ? new TypeToQueue({keys: keyReader, router, openPrompt: () => interrupts.handleTypedQueue()}) : undefined
  return {
    pending: () => queued.text,
    take: () => queued.take(),
    armTyping: (canOpen) => typing?.arm(canOpen) ?? (() => {}),
    idle: () => typing?.idle() ?? Promise.resolve(),
    composing: () => typing?.isOpen ?? false,
    countdown: () => {
      // The reply is on the screen (`> …`) above the countdown: its line has said what it had to.
      printer.showQueued(undefined)
      return queueCountdown({seconds: config.interrupt.queue_countdown_secs, status: (text) => printer.startStatus(text), keys: keyReader, router})
    },
    delivery: config.interrupt.queue_delivery,
    takeForStep: () => queued.takeForStep(),
    delivered: () => queued.delivered(),
    restore: (text) => queued.restore(text),
  }
}

/** Every provider's `api_key_env` (configured or default): the variables a tool never gets by default. */
export function providerKeyVariables(config: Config): string[] {
  const names = new Set<string>()
  for (const [name, provider] of Object.entries(config.providers.llm)) {
    if (name !== 'timeout_secs' && typeof provider === 'object' && provider?.api_key_env) names.add(provider.api_key_env)
  }
  return [...names]
}

/** The prompts a terminal gets; the prompt modules load only here. */
async function terminalPrompts(opts: TurnSetupOptions, router: SignalRouter, queue: QueuedReplyDraft | undefined): Promise<ScreenPort['interactive']> {
  const [{TerminalPromptBackend}, {InterruptHandler}, {ToolPrompter}, {replyDraft}] = await Promise.all([
    import('../inquire/terminal-backend.js'),
    import('../interrupt/handler.js'),
    import('../tool/prompter.js'),
    import('../compose/typed-draft.js'),
  ])
  const {config, printer, editor} = opts
  // Graceful shutdown closes any open prompt (restoring the terminal) and
  // refuses new ones, so no menu outlives the turn.
  const backend = new TerminalPromptBackend({context: {signal: router.shutdownSignal}, inline: opts.inline})
  const editMode = config.editor.inline.edit_mode
  const notice = (line: string) => printer.warn(line)
  // What was typed at a reply prompt of a run that died comes back first on Up.
  const replies = replyDraft(opts.store.draftPath(opts.conversation.id))
  const interrupts = new InterruptHandler({
    backend,
    editor,
    config: config.interrupt,
    editMode,
    notice,
    history: () => [...userQueries(opts.conversation.events), ...replies.unsent()],
    typedDraft: replies.sink,
    queue,
    onMenuAnswered: () => router.resetLadder(),
    onEscalate: () => void router.shutdown(),
    pressAgain: () => ['shutdown', 'exit'].includes(router.handle('SIGINT').type),
  })
  const print = (text: string) => printer.ttyLine(text)
  // Ctrl+C at a tool prompt is a press of the ladder: the router hears it,
  // and the prompt's scope (pushed while it is on the screen) opens its menu.
  const scope = {
    menu: () => interrupts.handleToolPromptInterrupt(),
    push: (listener: () => void) => router.push(listener),
    press: () => void router.handle('SIGINT'),
  }
  const columns = () => printer.ttyColumns()
  // A tool prompt's text the model reads (a result, a skip reason) carries its mentions' files as a reply does.
  const mentions = opts.mentions
  const mentionBlocks = mentions && (async (text: string) => (await mentions(text)).map(attachmentText))
  return {interrupts, prompter: new ToolPrompter({backend, editor, editMode, notice, print, columns, scope, mentionBlocks})}
}
