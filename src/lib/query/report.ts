// The run-and-report steps of `jp query`: waits for the turn, says on stderr
// what became of a failed one, keeps or removes the draft, maps the outcome
// to an exit code, and releases the conversation, the router and the
// printer, also when a graceful shutdown ends the process first.
import type {SignalRouter} from '../interrupt/signals.js'
import type {Printer} from '../printer/printer.js'
import {isCompactionFailed} from '../conversation/journal.js'
import {errorLine} from '../text/one-line.js'
import type {TurnOutcome} from '../turn/turn-loop.js'
import {discardSentDraft, keepUnsentQuery} from './draft.js'
import type {QueuedReplyDraft} from './reply-slot.js'

/** Said when a run ends with a reply still queued (`s`, `a`, a failure, Ctrl+C at the countdown). */
export const QUEUED_KEPT_NOTICE = "Your queued reply is kept as the draft: 'jp query' starts with it."

/** The run's outcome (turn/turn-loop.ts RunOutcome): its last turn's, and that turn's query. */
export type SettledOutcome = TurnOutcome & {query?: string}

export interface ReportOptions {
  conversationId: string
  query: string
  /** The editor-composed query's draft; undefined when the query came from the command line. */
  draft: {discard(): Promise<void>} | undefined
  /** Where this conversation's draft lives (`QUERY_MESSAGE.md`). */
  draftPath: string
  /** The conversation's last writes (a small conversation's journal folded into events.json). */
  closeEvents?(): Promise<void>
  release(): Promise<void>
  router: SignalRouter
  printer: Printer
  keyReader?: {stop(): void}
  /** Ends the turn's tool servers (MCP). */
  closeTools?(): Promise<void>
  /** The queued reply's slot (on a terminal): while it holds a reply, the draft is that reply's. */
  queued?: Pick<QueuedReplyDraft, 'text' | 'sendingQueued' | 'sent' | 'keepUnsent'>
  /** `jp query -u`: the usage line, printed after the answer. */
  usage?: () => string
}

/** Settles the turn: the exit code (0 done or stopped, 1 failed, 130 aborted or shut down). */
export async function settleTurn(turn: Promise<SettledOutcome>, opts: ReportOptions): Promise<number> {
  const {router, printer} = opts
  // A graceful shutdown (second Ctrl+C, SIGTERM, SIGHUP) waits for the turn
  // to commit what it has, then releases the conversation.
  router.onShutdown(async () => {
    await turn.catch(() => {})
    opts.keyReader?.stop()
    await opts.closeTools?.().catch(() => {})
    await opts.closeEvents?.().catch(() => {})
    await opts.release().catch(() => {})
    printer.close()
  })
  let code: number
  let turnThrew = false
  try {
    const outcome = await turn
    if (outcome.type === 'shutdown') {
      await router.shutdown()
      return 130
    }
    code = await report(outcome, opts)
    if (opts.usage) printer.chrome(opts.usage())
  } catch (error) {
    // The turn itself failed (e.g. events.json could not be written): one line, and what was kept.
    printer.error(`Error: ${errorLine(error)}`)
    printer.notice(notSaved(opts.conversationId))
    code = 1
    turnThrew = true
  }
  if (!router.shuttingDown) {
    if (!turnThrew) {
      // The last writes: a failure is reported and exits 1 (the old files stay) —
      // unless everything is saved in the journal and only compaction failed (a warning).
      try {
        await opts.closeEvents?.()
      } catch (error) {
        if (isCompactionFailed(error)) printer.warn(errorLine(error))
        else {
          printer.error(`Error: ${errorLine(error)}`)
          printer.notice(notSaved(opts.conversationId))
          code = 1
        }
      }
    }
    opts.keyReader?.stop()
    await opts.closeTools?.().catch(() => {})
    await opts.release().catch(() => {})
    router.uninstall()
    await printer.flush()
    printer.close()
  }
  return code
}

/** What a failed write kept: everything written before it (each journal record is durable on its own). */
function notSaved(conversationId: string): string {
  return `Nothing after the failed write was saved; conversation ${conversationId} keeps what was written before it.`
}

async function report(outcome: Exclude<SettledOutcome, {type: 'shutdown'}>, opts: ReportOptions): Promise<number> {
  const code = await reportTurn(outcome, opts)
  // A reply still queued owns the draft: no way the run ends removes it (JP D46).
  if (opts.queued?.text !== undefined) opts.printer.notice(QUEUED_KEPT_NOTICE)
  return code
}

async function reportTurn(outcome: Exclude<SettledOutcome, {type: 'shutdown'}>, opts: ReportOptions): Promise<number> {
  const {printer, draft, conversationId, queued} = opts
  const pending = queued?.text !== undefined
  switch (outcome.type) {
    case 'done':
    case 'stopped':
      if (pending) return 0
      // The last turn was a queued reply, now answered: its draft goes.
      if (queued?.sendingQueued) {
        await queued.sent()
        return 0
      }
      await draft?.discard()
      // A query kept as the draft by an earlier failure is answered now.
      if (!draft) await discardSentDraft(opts.draftPath, opts.query)
      return 0
    case 'aborted':
      return 130
    case 'failed':
      printer.error(`Error: ${errorLine(outcome.error)}`)
      if (outcome.saved === 'nothing') {
        // Nothing stored to send twice; the text waits in the draft (an editor-composed one is there already).
        const unsent = outcome.unsent ?? outcome.query ?? opts.query
        if (queued && (pending || queued.sendingQueued)) await queued.keepUnsent(unsent)
        else if (!draft) await keepUnsentQuery(opts.draftPath, unsent)
        printer.notice(`Nothing was answered, so nothing was saved; your query is kept as the draft: 'jp query' opens it to retry.`)
        return 1
      }
      // The queued reply that began this turn is stored with it: in the draft too it would be sent twice.
      if (queued?.sendingQueued) await queued.sent()
      if (outcome.saved === 'partial') {
        printer.notice(`The partial answer is saved in conversation ${conversationId}; run 'jp query' again to retry.`)
      } else {
        printer.notice(`The turn so far is saved in conversation ${conversationId}; run 'jp query' again to continue.`)
      }
      return 1
  }
}
