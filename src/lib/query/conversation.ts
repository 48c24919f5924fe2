// The conversation steps of `jp query`: which conversation the query goes to
// (before the config is loaded, since its stored config is a layer), and
// opening it for the turn once the query text is known: created when new,
// made active, locked, titled.
import type {ConversationEvent} from '../conversation/events.js'
import {event} from '../conversation/events.js'
import {WRITER_LOCK_WAIT_MS} from '../conversation/lock.js'
import type {ConversationStore} from '../conversation/store.js'
import type {Printer} from '../printer/printer.js'
import {QueryError, userFacing} from './errors.js'

/** The conversation named by `--id`, else (without `--new`) the active one; undefined: a new one. */
export async function resolveConversation(
  store: ConversationStore,
  flags: {id?: string; newConversation: boolean; fork?: string; resume?: string},
): Promise<string | undefined> {
  // A link planted in the store is refused here, as one line (storage errors are the user's to fix).
  return userFacing(async () => {
    if (flags.fork !== undefined) return forkFor(store, flags.fork)
    if (flags.resume !== undefined) return flags.resume
    if (flags.id !== undefined) {
      // An empty --id (e.g. an unset shell variable) must not quietly continue the active conversation.
      if (flags.id.trim() === '') throw new QueryError("--id: the conversation id is empty (see 'jp conversation ls')")
      if (!(await store.exists(flags.id))) throw new QueryError(`no conversation with id '${flags.id}' (see 'jp conversation ls')`)
      return flags.id
    }
    return flags.newConversation ? undefined : store.activeId()
  })
}

/** `--fork[=ID[@TURN]]`: the fork is made (and made active) before the query is composed; it continues it. */
async function forkFor(store: ConversationStore, spec: string): Promise<string> {
  const {forkConversation, isForkError, parseForkSpec} = await import('../conversation/fork.js')
  try {
    return (await forkConversation(store, parseForkSpec(spec))).id
  } catch (error) {
    if (isForkError(error)) throw new QueryError(error.message)
    throw error
  }
}

/** What the composed query brings to the conversation: its draft file and an edited config block. */
export interface DraftLink {
  adopt(id: string): Promise<void>
  delta?: Record<string, unknown>
}

export interface OpenConversation {
  id: string
  /** The stored events; the turn appends to them in place. */
  events: ConversationEvent[]
  release(): Promise<void>
}

/**
 * Takes the conversation's lock (creating the conversation, locked, when
 * `id` is undefined), then moves a new conversation's draft to it, makes it
 * active (unless `activate` is false) and loads it.
 * Storage failures (read-only directory, full disk) and a held lock are
 * QueryErrors: one line, not a stack.
 */
export async function openConversation(
  store: ConversationStore,
  id: string | undefined,
  query: string,
  draft: DraftLink | undefined,
  status?: Pick<Printer, 'startStatus'>,
  /** False for `--id ID`: that conversation is used for this query, the active one stays as it was. */
  activate = true,
): Promise<OpenConversation> {
  // Nothing of a conversation is written before its lock is held: a new one
  // is created locked; an existing one read before the lock (its config
  // layer, the editor's seed) is read again only if its files changed since.
  let stopLockWait = () => {}
  const onWait = (deadline: number) => {
    // Another jp is writing this conversation: a countdown on the status line.
    if (status) stopLockWait = status.startStatus('Conversation in use by another jp, waiting', () => ` (${secondsLeft(deadline)}s left)`)
  }
  const {conversationId, release} = await userFacing(async () => {
    if (id === undefined) {
      const created = await store.createLocked({title: titleFrom(query)})
      return {conversationId: created.id, release: created.release}
    }
    const held = await store.lock(id, {waitMs: WRITER_LOCK_WAIT_MS, onWait})
    await store.reloadIfChanged(id).catch(async (error: unknown) => {
      await held()
      throw error
    })
    return {conversationId: id, release: held}
  }).finally(() => stopLockWait())
  try {
    await userFacing(async () => {
      await draft?.adopt(conversationId)
      if (activate) await store.setActive(conversationId)
    })
    const conversation = await userFacing(() => store.load(conversationId))
    if (!conversation.metadata.title) {
      await userFacing(() => store.saveMetadata(conversationId, {...conversation.metadata, title: titleFrom(query)}))
    }
    const events = conversation.events
    if (draft?.delta) events.push(event.configDelta(draft.delta))
    return {id: conversationId, events, release}
  } catch (error) {
    await release().catch(() => {})
    throw error
  }
}

function secondsLeft(deadline: number): string {
  return (Math.max(0, deadline - Date.now()) / 1000).toFixed(1)
}

/** A conversation's title: the query's first non-blank line, at most 60 characters. */
export function titleFrom(query: string): string {
  // Line by line from the start: a 200 MB piped query is not split whole (issue 27).
  let line = ''
  for (let at = 0; at < query.length && line === ''; ) {
    const end = query.indexOf('\n', at)
    line = query.slice(at, end === -1 ? query.length : end).trim()
    at = end === -1 ? query.length : end + 1
  }
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}
