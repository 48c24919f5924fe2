// What Ctrl+R searches after the conversation at hand (SPEC §18): the queries
// of the workspace's other conversations. Read in the background when a
// prompt opens, through a store of its own (its cache is dropped with it, so
// the command's store keeps only what the command uses).
import {userQueries} from './events.js'
import {ConversationStore} from './store.js'
import type {Workspace} from './workspace.js'

/** At most this many other conversations, the most recently active ones. */
export const SEARCHED_CONVERSATIONS = 50

/**
 * The user queries of the workspace's conversations other than `exceptId`,
 * oldest first: the least recently active conversation's first, each in its
 * own order. A conversation that cannot be read is left out (it is no
 * business of a search to report it).
 */
export async function workspaceQueries(workspace: Workspace, exceptId: string | undefined, opts: {env?: NodeJS.ProcessEnv; limit?: number} = {}): Promise<string[]> {
  const store = new ConversationStore(workspace, {env: opts.env})
  const others = (await store.list()).filter((s) => s.id !== exceptId && s.error === undefined).slice(0, opts.limit ?? SEARCHED_CONVERSATIONS)
  const out: string[][] = []
  for (const summary of others) {
    try {
      out.push(userQueries((await store.load(summary.id)).events))
    } catch {
      // corrupt or unreadable: not searched
    }
  }
  return out.reverse().flat()
}

/**
 * Those queries for a prompt's search: `prefetch()` starts the read once and
 * resolves when it is done; `entries()` is what has arrived.
 */
export function workspaceSearchHistory(workspace: Workspace, exceptId: string | undefined, env?: NodeJS.ProcessEnv): {prefetch(): Promise<void>; entries(): readonly string[]} {
  let loaded: readonly string[] = []
  let loading: Promise<void> | undefined
  return {
    prefetch() {
      loading ??= workspaceQueries(workspace, exceptId, {env}).then(
        (entries) => {
          loaded = entries
        },
        () => undefined,
      )
      return loading
    },
    entries: () => loaded,
  }
}
