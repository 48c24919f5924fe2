// The resume picker (`jp conversation use` with no ID, `jp query --resume`):
// the conversation rows (conversation/resume.ts) in a list filtered as you
// type (inquire/search-list.ts), on the terminal. Esc: undefined (nothing
// chosen); Ctrl+C: PromptCancelledError('interrupted').
import {resumeRows} from '../conversation/resume.js'
import type {ConversationStore} from '../conversation/store.js'
import {searchList} from '../inquire/search-list.js'
import {isPromptCancelled} from '../inquire/types.js'

/** Conversation rows on screen: with the question above and a blank line and the keys' help below, 10 rows in all. */
export const PICKER_ROWS = 7

export async function pickConversation(store: ConversationStore, columns = process.stderr.columns ?? 80): Promise<string | undefined> {
  const rows = await resumeRows(store, Math.max(20, columns - 4))
  if (rows.source('').length === 0) return undefined
  try {
    return await searchList('Resume a conversation (type to filter):', {pageSize: PICKER_ROWS, source: rows.source})
  } catch (error) {
    if (isPromptCancelled(error) && error.reason === 'cancelled') return undefined
    throw error
  }
}

/** What a command does with the picker: the id, Esc (nothing chosen), Ctrl+C, or no terminal to show it on. */
export type PickOutcome = {id: string} | {none: 'escape' | 'interrupted' | 'no-terminal'}

/** The picker for a command: never throws for Esc, Ctrl+C or a missing terminal (the command decides the exit). */
export async function pickOutcome(store: ConversationStore): Promise<PickOutcome> {
  // `jp query --resume`: chosen already, before the CLI loaded (cli/pick-first.ts).
  const {peekSlot, setSlot} = await import('../process/slots.js')
  const picked = peekSlot('resumePicked')
  if (picked) {
    setSlot('resumePicked', undefined)
    return picked
  }
  const {hasTty} = await import('../terminal/tty.js')
  if (!hasTty()) return {none: 'no-terminal'}
  try {
    const id = await pickConversation(store)
    return id === undefined ? {none: 'escape'} : {id}
  } catch (error) {
    if (isPromptCancelled(error)) return {none: 'interrupted'}
    throw error
  }
}
