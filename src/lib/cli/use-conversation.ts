// `jp conversation use [ID]` as one call, shared by the command and the
// resume picker's lean start-up (pick-first.ts), so both choose and write
// the active conversation through the same steps: with no ID, the picker
// (query/pick.ts); then the conversation's lock, setActive, one line.
// How an outcome becomes an exit is the caller's (`UseConversationIo`).
import type {ConversationStore} from '../conversation/store.js'

export interface UseConversationIo {
  /** One line of chrome on stderr. */
  say(line: string): void
  /** The one-line error, then exit 1. */
  fail(error: unknown): never
  /** Ends with this status and nothing more printed (Ctrl+C in the picker: 130). */
  exit(code: number): never
  /** No ID and no terminal to pick on: the usage error naming the ID argument. */
  noTerminal(): Promise<never>
}

/** What a missing ID without a terminal says (the usage error's first line). */
export const NO_TERMINAL_MESSAGE = 'missing argument ID (without a terminal there is no list to pick from)'

export async function useConversation(store: ConversationStore, id: string | undefined, io: UseConversationIo): Promise<void> {
  const chosen = id ?? (await pick(store, io))
  if (chosen === undefined) return
  try {
    // setActive stamps the conversation's metadata: only with its lock held.
    const {WRITER_LOCK_WAIT_MS} = await import('../conversation/lock.js')
    const release = await store.lock(chosen, {waitMs: WRITER_LOCK_WAIT_MS})
    try {
      await store.setActive(chosen)
    } finally {
      await release()
    }
  } catch (e) {
    io.fail(e)
  }
  io.say(`Active conversation: ${chosen}`)
}

/** The resume picker; undefined when Esc cancelled it. */
async function pick(store: ConversationStore, io: UseConversationIo): Promise<string | undefined> {
  const {pickOutcome} = await import('../query/pick.js')
  let picked
  try {
    picked = await pickOutcome(store)
  } catch (e) {
    io.fail(e)
  }
  if ('id' in picked) return picked.id
  if (picked.none === 'no-terminal') await io.noTerminal()
  if (picked.none === 'interrupted') io.exit(130)
  io.say('No conversation chosen; the active one is unchanged.')
  return undefined
}

/** `jp query --resume` when nothing was chosen (the command's and the lean path's): Esc sends nothing (exit 0), Ctrl+C exits 130. */
export function resumeEnd(none: 'escape' | 'interrupted', io: Pick<UseConversationIo, 'say' | 'exit'>): never {
  if (none === 'escape') io.say('No conversation chosen; nothing was sent.')
  return io.exit(none === 'escape' ? 0 : 130)
}
