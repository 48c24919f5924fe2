// `jp query` as a pipeline of named steps: read the input, resolve the
// conversation, load the config, compose the text, open the conversation,
// build the turn, run it and report. Each step throws a QueryError (with its
// exit code) for what the user must fix; the command alone turns it into an
// exit. The command imports this module lazily, so everything a query needs
// loads here once and `jp --help` loads none of it.
import type {Config} from '../config/types.js'
import {loadWorkspaceConfig} from '../conversation/config.js'
import {workspaceSearchHistory} from '../conversation/workspace-queries.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Workspace} from '../conversation/workspace.js'
import {openEditor} from '../editor/open.js'
import {markdownFor} from '../printer/markdown.js'
import {colorEnabled, type OutputFormat, Printer} from '../printer/printer.js'
import {hasTty} from '../terminal/tty.js'
import {runTurns} from '../turn/turn-loop.js'
import {composeQueryText} from './compose-step.js'
import {openConversation, resolveConversation} from './conversation.js'
import {userFacing} from './errors.js'
import {readQueryText} from './input.js'
import {mentionAttachments, readAttachments, readMentionAttachments, type MentionOptions} from './attachments.js'
import {FileIndex} from '../inquire/complete/file-index.js'
import {lastTurnStart, sumUsage, usageLine} from '../conversation/usage.js'
import {settleTurn} from './report.js'
import {buildTurn, chooseModel, chooseTools} from './turn-setup.js'
import {installQueryLadder, type QueryLadder} from './ladder.js'

export {isQueryError, QueryError} from './errors.js'

/** The flags of `jp query`. */
export interface QueryOptions {
  words: string[]
  newConversation: boolean
  id?: string
  /** `--fork[=ID[@TURN]]`: ask in a fork of that conversation ('' = the active one, every turn). */
  fork?: string
  /** `--resume`: the conversation picked from the list (made active). */
  resume?: string
  model?: string
  tools: string[]
  noTools: string[]
  edit: boolean
  noEdit: boolean
  format: OutputFormat
  /** `-u`: one stderr line after the answer with the turn's token usage. */
  usage?: boolean
  /** `-a PATH` files, in order. */
  attach: string[]
}

/** Where the query runs: the command's workspace and store, its `--cfg` layers, and where a line of chrome goes before the query's printer exists. */
export interface QueryContext {
  workspace: Workspace
  store: ConversationStore
  cfgArgs: readonly string[]
  /** One line of chrome (untrusted parts included) while loading the config, before the printer exists: the command's `say`. */
  say(line: string): void
}

/** Runs one query; resolves to the exit code, rejects with a QueryError for a one-line failure. */
export async function runQuery(opts: QueryOptions, ctx: QueryContext): Promise<number> {
  // The ladder holds from here on: a Ctrl+C while stdin is read, the config
  // loads or the lock is awaited opens the fallback menu.
  const ladder = installQueryLadder((line) => ctx.say(line))
  try {
    return await querySteps(opts, ctx, ladder)
  } catch (error) {
    // Reported after the fallback menu, if open, not inside it; a shutdown it began owns the exit.
    if (await ladder.settle()) return shutDown(ladder)
    throw error
  } finally {
    ladder.close()
  }
}

/** A shutdown began (the fallback menu's `q`, a second press): it saves what it must and exits. */
async function shutDown(ladder: QueryLadder): Promise<number> {
  await ladder.router.shutdown()
  return 130
}

async function querySteps(opts: QueryOptions, ctx: QueryContext, ladder: QueryLadder): Promise<number> {
  const given = await readQueryText(opts.words)
  const {store, workspace} = ctx
  const id = await resolveConversation(store, opts)
  // A broken config stops everything before any work is done.
  const config = await userFacing(() =>
    loadWorkspaceConfig({workspace, store, conversationId: id, cfgArgs: ctx.cfgArgs, cwd: process.cwd(), env: process.env, notice: (line) => ctx.say(line)}),
  )
  ladder.router.setEscalationCooldown(config.interrupt.escalation_cooldown_secs)
  const interactive = hasTty()
  // Rendering loads its parser before any request, so the first token renders
  // at once: now, or, when a prompt opens first, once it has closed (the
  // prompt is drawn without waiting for it).
  const markdown = await markdownFor({style: config.style, format: opts.format, loadLater: interactive && given === ''})
  const printer = new Printer({format: opts.format, color: colorEnabled(process.env), markdown})
  ladder.useNotice((line) => printer.notice(line))
  // Every flag is checked before an editor can open: a typo must not cost the text composed in it.
  const attachments = await readAttachments(opts.attach, {cwd: process.cwd(), maxBytes: config.query.attach_max_bytes})
  const enabledTools = await chooseTools(config, opts)
  if (opts.model !== undefined) await chooseModel(opts.model, config, printer)
  // The one editor of this query, through the init hook's helper; its notices
  // and the plugins' warnings go through the printer, in order with its other
  // notices (a notice event with --format json). A bad editor.backend is a QueryError.
  const {editorConfig, editor} = await userFacing(() => openEditor(config.editor, {env: process.env, notice: (line) => printer.notice(line)}))

  const mentionOptions = mentionOptionsOf(workspace, config.query.attach_max_bytes)
  const inline = interactive ? inlineSettings({config, editorLabel: editor ? editorConfig.label() : undefined, workspace, id, mentionOptions}) : undefined
  const flags = {edit: opts.edit, noEdit: opts.noEdit, model: opts.model}
  // No prompt of our own under an open fallback menu.
  if (await ladder.settle()) return shutDown(ladder)
  const text = await composeQueryText({flags, interactive, editor, editorConfig, store, workspace, id, query: given, config, printer, inline})
  if (text.type === 'nothing') {
    await printer.flush()
    printer.close()
    return 0
  }
  markdown?.warm?.()

  // What was composed here carries its mentions' files, read as `-a` reads them (SPEC §19).
  const mentioned = interactive && text.composed ? await readMentionAttachments(text.text, mentionOptions) : []
  const model = await chooseModel(text.modelFlag, config, printer)
  // `--id` picks the conversation for this query; `jp conversation use` is what changes the active one.
  const conversation = await openConversation(store, id, text.text, text.draft, printer, opts.id === undefined)
  // A press during the lock wait: its menu is answered before the turn starts.
  if (await ladder.settle()) return shutDown(ladder)
  return runQueryTurns({opts, ctx, config, model, enabledTools, conversation, printer, editor, inline, router: ladder.router, text, attachments: [...attachments, ...mentioned], mentions: interactive ? (reply: string) => readMentionAttachments(reply, mentionOptions) : undefined})
}

/**
 * What every inline prompt of this query shares: the user's keys, the name of
 * the editor Ctrl+X opens, the wider history Ctrl+R searches and `@` mentions.
 */
function inlineSettings(p: {config: Config; editorLabel: string | undefined; workspace: Workspace; id: string | undefined; mentionOptions: MentionOptions}) {
  const {config, mentionOptions} = p
  return {
    keys: config.editor.inline.keys,
    editorName: p.editorLabel,
    olderHistory: workspaceSearchHistory(p.workspace, p.id, process.env),
    mentions: {
      index: new FileIndex(mentionOptions.root),
      auto: config.editor.inline.complete_mentions === 'auto',
      check: async (text: string) => {
        const read = await mentionAttachments(text, mentionOptions)
        return 'problem' in read ? read.problem : undefined
      },
    },
  }
}

/**
 * Where `@` mentions resolve: the cwd, then the workspace's root (the default
 * workspace has no files of the user's: there, the cwd's).
 */
function mentionOptionsOf(workspace: Workspace, maxBytes: number): MentionOptions {
  return {cwd: process.cwd(), root: workspace.isDefault ? process.cwd() : workspace.root, maxBytes}
}

/** Builds the turn around the opened conversation, runs the query's turn and each reply queued meanwhile (SPEC §18), and reports. */
async function runQueryTurns(p: {
  opts: QueryOptions
  ctx: QueryContext
  config: Config
  model: Awaited<ReturnType<typeof chooseModel>>
  enabledTools: Set<string>
  conversation: Awaited<ReturnType<typeof openConversation>>
  printer: Printer
  editor: Parameters<typeof buildTurn>[0]['editor']
  inline: Parameters<typeof buildTurn>[0]['inline']
  router: QueryLadder['router']
  text: {text: string; draft?: Parameters<typeof settleTurn>[1]['draft']}
  attachments: ReadonlyArray<{path: string; content: string}>
  mentions: ((reply: string) => Promise<ReadonlyArray<{path: string; content: string}>>) | undefined
}): Promise<number> {
  const {opts, conversation, printer, router, text} = p
  const {store, workspace} = p.ctx
  const {deps, keyReader, queued, close} = await buildTurn({
    config: p.config,
    model: p.model,
    enabledTools: p.enabledTools,
    explicitTools: opts.tools,
    disabledTools: opts.noTools,
    conversation,
    store,
    workspace,
    printer,
    editor: p.editor,
    inline: p.inline,
    router,
    query: text.text,
    mentions: p.mentions,
  })
  return settleTurn(runTurns(text.text, {...deps, screen: {...deps.screen, mentions: p.mentions}, attachments: p.attachments}), {
    conversationId: conversation.id,
    query: text.text,
    draft: text.draft,
    draftPath: store.draftPath(conversation.id),
    closeEvents: () => store.closeEvents(conversation.id, conversation.events),
    release: conversation.release,
    router,
    printer,
    keyReader,
    queued,
    closeTools: close,
    // -u: what the turn cost, summed over its requests, from the usage stored with it.
    usage: opts.usage ? () => usageLine(sumUsage(conversation.events, lastTurnStart(conversation.events))) : undefined,
  })
}
