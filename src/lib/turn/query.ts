// `jp query`: gathers the query (arguments, piped stdin, or the editor),
// picks the conversation and the model, wires the printer, the signal router,
// the prompts, the editor and the tools around the turn loop, and maps the
// outcome to an exit code. Everything here is loaded only when a query runs.
import {readFileSync} from 'node:fs'
import type {EditorConfig} from '../config/editor.js'
import type {Config} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import type {OutputFormat} from '../printer/printer.js'
import type {TurnDeps} from './turn-loop.js'
import {WRITER_LOCK_WAIT_MS} from '../conversation/lock.js'
import {errorLine, errorMessage} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'

/** stdout closed by its reader: 128 + SIGPIPE, as shells report a producer cut off. */
export const STDOUT_CLOSED_EXIT = 141

export interface QueryOptions {
  words: string[]
  newConversation: boolean
  id?: string
  model?: string
  tools: string[]
  noTools: string[]
  edit: boolean
  noEdit: boolean
  format: OutputFormat
}

/** What the command provides: its lazily opened workspace, store and config, and its one-line failure. */
export interface QueryHost {
  store(): Promise<ConversationStore>
  workspace(): Promise<Workspace>
  loadConfig(opts: {conversationId?: string}): Promise<Config>
  /** buildEditorBackend, consulting the plugins when `editor.backend` names theirs; a bad name fails. */
  editorBackend(config: EditorConfig): Promise<EditorBackend | undefined>
  fail(error: unknown): never
}


export async function runQuery(opts: QueryOptions, host: QueryHost): Promise<number> {
  // Every query needs these: start loading them all now, so the module loader
  // reads them while stdin, the workspace and the config are read (the
  // `await import()`s below then find them loaded or in flight).
  void Promise.all([
    import('../printer/printer.js'),
    import('../config/editor.js'),
    import('../editor/build.js'),
    import('../llm/index.js'),
    import('./tools.js'),
    import('../interrupt/signals.js'),
    import('../tool/runner.js'),
    import('./turn-loop.js'),
  ]).catch(() => {})
  let piped = ''
  if (!process.stdin.isTTY) {
    try {
      piped = await readStdin()
    } catch (error) {
      host.fail(`cannot read the query from stdin: ${errorMessage(error)}`)
    }
  }
  let query = [opts.words.join(' ').trim(), piped.trim()].filter((s) => s !== '').join('\n\n')

  const store = await host.store()
  const workspace = await host.workspace()
  let id: string | undefined
  if (opts.id !== undefined) {
    // An empty --id (e.g. an unset shell variable) must not quietly continue the active conversation.
    if (opts.id.trim() === '') host.fail("--id: the conversation id is empty (see 'jp conversation ls')")
    if (!(await store.exists(opts.id))) host.fail(`no conversation with id '${opts.id}' (see 'jp conversation ls')`)
    id = opts.id
  } else if (!opts.newConversation) {
    id = await store.activeId()
  }

  // A broken config stops everything before any work is done.
  const config = await host.loadConfig({conversationId: id})

  const {Printer, colorEnabled} = await import('../printer/printer.js')
  const printer = new Printer({format: opts.format, color: colorEnabled(process.env)})
  const interactive = printer.hasTty()

  const {EditorConfig} = await import('../config/editor.js')
  const editorConfig = new EditorConfig(config.editor, {env: process.env, notice: (line) => printer.notice(line)})
  const editor = await host.editorBackend(editorConfig)

  const wantsEditor = opts.edit || (query === '' && interactive && !opts.noEdit)
  // The composed query's draft (QUERY_MESSAGE.md) stays until the turn succeeds.
  let draft: {path: string; adopt(id: string): Promise<void>; discard(): Promise<void>; delta?: Record<string, unknown>} | undefined
  if (wantsEditor) {
    const {composeInEditor} = await import('../query/run.js')
    const composed = await composeInEditor({
      editor,
      editorConfig,
      store,
      workspace,
      id,
      query,
      config,
      modelFlag: opts.model,
      printer,
      fail: host.fail,
      ...(interactive ? {terminal: {preferEditor: opts.edit}} : {}),
    })
    if (composed.type !== 'query') {
      await printer.flush()
      printer.close()
      return 0
    }
    query = composed.text
    draft = composed.draft
    if (composed.setsModel) opts = {...opts, model: undefined}
  }

  if (query === '') {
    host.fail(
      interactive
        ? 'no query given: pass it as arguments or on stdin (without -E, jp opens your editor to compose it)'
        : 'no query given: pass it as arguments or pipe it on stdin (no terminal to compose it in an editor)',
    )
  }

  const {FALLBACK_MODEL_ID, queryModelId} = await import('../config/defaults.js')
  const modelId = queryModelId(opts.model, config)
  if (opts.model === undefined && !config.assistant.model.id?.trim()) {
    printer.notice(`No model configured; using the built-in offline model ${FALLBACK_MODEL_ID} (set assistant.model.id, see README).`)
  }
  const {resolveModel} = await import('../llm/index.js')
  let resolved: Awaited<ReturnType<typeof resolveModel>>
  try {
    resolved = await resolveModel(modelId, config.providers.llm, process.env, config.assistant.model.parameters)
  } catch (error) {
    host.fail(error)
  }

  const {enabledToolNames, toolDefinitions} = await import('./tools.js')
  const toolConfigs = config.conversation.tools
  let enabled: Set<string>
  try {
    enabled = enabledToolNames(toolConfigs, {explicit: opts.tools, disabled: opts.noTools})
  } catch (error) {
    host.fail(error)
  }

  // Storage failures (read-only directory, full disk) end as one line, not a stack.
  try {
    if (id === undefined) id = await store.create({title: titleFrom(query)})
    await draft?.adopt(id)
    await store.setActive(id)
  } catch (error) {
    host.fail(error)
  }
  let release: () => Promise<void>
  let stopLockWait = () => {}
  try {
    release = await store.lock(id, {
      waitMs: WRITER_LOCK_WAIT_MS,
      // Another jp is writing this conversation: a countdown on the status line.
      onWait: (deadline) => {
        stopLockWait = printer.startStatus('Conversation in use by another jp, waiting', () => ` (${secondsLeft(deadline)}s left)`)
      },
    })
  } catch (error) {
    stopLockWait()
    host.fail(error)
  }
  stopLockWait()

  let conversation: Awaited<ReturnType<ConversationStore['load']>>
  try {
    conversation = await store.load(id)
    if (!conversation.metadata.title) await store.saveMetadata(id, {...conversation.metadata, title: titleFrom(query)})
  } catch (error) {
    await release().catch(() => {})
    host.fail(error)
  }
  const events = conversation.events
  if (draft?.delta) events.push((await import('../conversation/events.js')).event.configDelta(draft.delta))
  const conversationId = id

  const {SignalRouter} = await import('../interrupt/signals.js')
  const router = new SignalRouter({
    escalationCooldownSecs: config.interrupt.escalation_cooldown_secs,
    isInteractive: () => interactive,
    notice: (line) => printer.notice(line),
  }).install()
  // The reader of stdout went away (`| head -n 1`): nobody reads the rest of
  // the answer, so stop it the graceful way (what arrived is saved) and exit
  // as a producer cut off by SIGPIPE does, quietly.
  printer.onStdoutClosed(() => void router.shutdown(STDOUT_CLOSED_EXIT, {quiet: true}))
  // On a terminal, Ctrl+C is read as a key for the query's duration, so the
  // processes jp is piped into are not signalled (interrupt/interrupt-key.ts).
  const keyReader = interactive ? (await import('../interrupt/interrupt-key.js')).readInterruptKey(() => router.handle('SIGINT')) : undefined

  let interactiveDeps: TurnDeps['interactive']
  if (interactive) {
    const {TerminalPromptBackend} = await import('../inquire/terminal-backend.js')
    const {InterruptHandler} = await import('../interrupt/handler.js')
    const {ToolPrompter} = await import('../tool/prompter.js')
    // Graceful shutdown closes any open prompt (restoring the terminal) and
    // refuses new ones, so no menu outlives the turn.
    const backend = new TerminalPromptBackend({context: {signal: router.shutdownSignal}})
    const editMode = config.editor.inline.edit_mode
    const notice = (line: string) => printer.warn(line)
    // What was typed at a reply prompt of a run that died comes back first on Up.
    const replies = (await import('../compose/typed-draft.js')).replyDraft(store.draftPath(conversationId))
    const history = () => [...replyHistory(events), ...replies.unsent()]
    interactiveDeps = {
      interrupts: new InterruptHandler({
        backend,
        editor,
        config: config.interrupt,
        editMode,
        notice,
        history,
        typedDraft: replies.sink,
        onMenuAnswered: () => router.resetLadder(),
        onEscalate: () => void router.shutdown(),
      }),
      prompter: new ToolPrompter({backend, editor, editMode, notice, print: (text) => writePrompt(printer, text)}),
    }
  }

  // The floor of the ladder: a Ctrl+C that no turn phase claims (finishing
  // up after the turn) opens the fallback menu.
  if (interactiveDeps) {
    const {pushFallbackMenu} = await import('../interrupt/gate.js')
    pushFallbackMenu({router, interrupts: interactiveDeps.interrupts})
  }

  const {runLocalTool} = await import('../tool/runner.js')
  const {runTurn} = await import('./turn-loop.js')
  const turn = runTurn(query, {
    provider: resolved.provider,
    model: resolved.model,
    system: config.assistant.system_prompt,
    reasoning: config.assistant.model.parameters?.reasoning,
    maxTokens: config.assistant.model.parameters?.max_tokens,
    temperature: config.assistant.model.parameters?.temperature,
    tools: toolDefinitions(toolConfigs, enabled),
    toolConfigs,
    enabledTools: enabled,
    explicitTools: new Set(opts.tools),
    runTool: async (call, args, signal) => {
      const command = toolConfigs[call.name]?.command
      if (command === undefined) return {content: `Tool '${call.name}' has no command configured.`, isError: true}
      const result = await runLocalTool({
        name: call.name,
        command,
        arguments: args,
        cwd: workspace.root,
        signal: AbortSignal.any([signal, router.shutdownSignal]),
      })
      return {content: result.content, isError: result.isError}
    },
    events,
    persist: async () => {
      await store.saveEvents(conversationId, events)
    },
    printer,
    router,
    interactive: interactiveDeps,
  })

  // A graceful shutdown (second Ctrl+C, SIGTERM, SIGHUP) waits for the turn
  // to commit what it has, then releases the conversation.
  router.onShutdown(async () => {
    await turn.catch(() => {})
    keyReader?.stop()
    await release().catch(() => {})
    printer.close()
  })

  let code = 0
  try {
    const outcome = await turn
    switch (outcome.type) {
      case 'done':
      case 'stopped':
        await draft?.discard()
        // A query kept as the draft by an earlier failure is answered now.
        if (!draft) await (await import('../query/compose.js')).discardSentDraft(store.draftPath(conversationId), query)
        code = 0
        break
      case 'aborted':
        code = 130
        break
      case 'failed':
        printer.error(`Error: ${errorMessage(outcome.error)}`)
        if (outcome.saved === 'nothing') {
          // Nothing stored to send twice; the text waits in the draft (an editor-composed one is there already).
          if (!draft) await (await import('../query/compose.js')).keepUnsentQuery(store.draftPath(conversationId), outcome.unsent ?? query)
          printer.notice(`Nothing was answered, so nothing was saved; your query is kept as the draft: 'jp query' opens it to retry.`)
        } else if (outcome.saved === 'partial') {
          printer.notice(`The partial answer is saved in conversation ${conversationId}; run 'jp query' again to retry.`)
        } else {
          printer.notice(`The turn so far is saved in conversation ${conversationId}; run 'jp query' again to continue.`)
        }
        code = 1
        break
      case 'shutdown':
        await router.shutdown()
        return 130
    }
  } catch (error) {
    // The turn itself failed (e.g. events.json could not be written): one line.
    printer.error(`Error: ${errorLine(error)}`)
    code = 1
  } finally {
    if (!router.shuttingDown) {
      keyReader?.stop()
      await release().catch(() => {})
      router.uninstall()
      await printer.flush()
      printer.close()
    }
  }

  return code
}

function titleFrom(query: string): string {
  const line = query.split('\n').find((l) => l.trim() !== '')?.trim() ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

/** Earlier user messages of the conversation, oldest first: the reply history. */
function replyHistory(events: readonly {type: string; content?: unknown}[]): string[] {
  return events.filter((e) => e.type === 'chat_request' && typeof e.content === 'string').map((e) => e.content as string)
}

function writePrompt(printer: {promptWriter(): NodeJS.WritableStream | undefined}, text: string): void {
  printer.promptWriter()?.write(sanitizeUntrusted(text, {multiline: true}) + '\n')
}

async function readStdin(): Promise<string> {
  // A plain blocking read of fd 0 (a file, /dev/null or a pipe) skips setting
  // up the stdin stream; a non-blocking fd (EAGAIN) takes the stream path.
  try {
    return readFileSync(0, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
  }
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function secondsLeft(deadline: number): string {
  return (Math.max(0, deadline - Date.now()) / 1000).toFixed(1)
}
