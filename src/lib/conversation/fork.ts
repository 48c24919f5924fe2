// `jp conversation fork` and `jp query --fork`: a new conversation holding a
// copy of another's events up to and including one turn, its base config and
// its title, recording where it came from (`forked_from` in metadata.json).
// The parent is only read: no lock, no write, not even its activation stamp
// (a lock file or a temp file would change its directory). Tool calls and
// their results are copied as the records they are; nothing is re-run.
import type {ConversationEvent} from './events.js'
import type {ConversationStore} from './store.js'
import {endOfTurn, turnCount} from './turns.js'

export interface ForkRequest {
  /** The conversation to fork (default: the active one). */
  id?: string
  /** The last turn copied (default: all of them). */
  at?: number
  title?: string
  /** How the user wrote the turn, for an error (default `--at TURN`). */
  spelled?: string
}

export interface Forked {
  id: string
  parent: string
  /** The last turn copied. */
  turn: number
}

/** What metadata.json records of a fork's origin. */
export interface ForkedFrom {
  id: string
  turn: number
}

/** A fork the user asked for that cannot be made (no active conversation, a turn out of range). */
export class ForkError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ForkError'
  }
}

export function isForkError(e: unknown): e is ForkError {
  return e instanceof Error && e.name === 'ForkError'
}

/** `ID`, `ID@TURN`, `@TURN` or `` (the active conversation, every turn): `jp query --fork=...`'s value. */
export function parseForkSpec(spec: string): ForkRequest {
  const at = spec.lastIndexOf('@')
  const id = (at === -1 ? spec : spec.slice(0, at)).trim()
  const turn = at === -1 ? undefined : spec.slice(at + 1).trim()
  if (turn !== undefined && !/^[1-9]\d*$/.test(turn)) throw new ForkError(`--fork ${spec}: expected ID, ID@TURN or @TURN with TURN a turn number (1, 2, …)`)
  return {id: id || undefined, at: turn === undefined ? undefined : Number(turn), spelled: `--fork=${spec}`}
}

/** The parent's origin as metadata.json records it, when it is one. */
export function forkedFrom(meta: Record<string, unknown>): ForkedFrom | undefined {
  const f = meta.forked_from as Partial<ForkedFrom> | undefined
  return f && typeof f.id === 'string' && typeof f.turn === 'number' ? {id: f.id, turn: f.turn} : undefined
}

/** Creates the fork (locked while it is written), makes it active and returns it. */
export async function forkConversation(store: ConversationStore, req: ForkRequest): Promise<Forked> {
  const parentId = req.id ?? (await store.activeId())
  if (!parentId) throw new ForkError("no active conversation to fork; pass an ID (see 'jp conversation ls')")
  const parent = await store.load(parentId)
  const turns = turnCount(parent.events)
  const turn = req.at ?? turns
  if (turns === 0) throw new ForkError(`conversation ${parentId} has no turns to fork`)
  if (!Number.isInteger(turn) || turn < 1 || turn > turns) throw new ForkError(`${req.spelled ?? `--at ${turn}`}: conversation ${parentId} has turns 1 to ${turns}`)
  // Copies: the fork's journal tracks its own event objects, never the parent's.
  const events = structuredClone(parent.events.slice(0, endOfTurn(parent.events, turn))) as ConversationEvent[]
  const title = req.title ?? (typeof parent.metadata.title === 'string' ? parent.metadata.title : undefined)
  const {id, release} = await store.createLocked({title, baseConfig: structuredClone(parent.baseConfig)})
  try {
    const child = await store.load(id)
    const from: ForkedFrom = {id: parentId, turn}
    await store.saveMetadata(id, {...child.metadata, forked_from: from})
    await store.saveEvents(id, events)
    await store.closeEvents(id, events)
    await store.setActive(id)
  } finally {
    await release()
  }
  return {id, parent: parentId, turn}
}
