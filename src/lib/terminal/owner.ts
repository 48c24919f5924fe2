// One owner of the terminal while a prompt is open (SPEC §17). A prompt
// draws itself with relative cursor moves from where it started; anything
// else written to the same terminal meanwhile (a notice on stderr, text held
// back and released, a warning) would land in the middle of it and leave the
// painter's idea of the screen wrong. So every such write goes through
// `writeAbovePrompt`: the open prompt erases itself, the text is written on
// the prompt's first row (a line start), and the prompt draws itself again
// below it, intact, cursor where the user left it.
//
// The prompt side is a small interface any widget can implement (today's
// inline reply; the inquirer-based prompts plug in the same way: claim on
// render, release on settle). The printer is the main writer; anything else
// that must print while a prompt may be open calls writeAbovePrompt itself.
//
// On globalThis: oclif can load this module twice (src and dist).

export interface OpenPrompt {
  /** Erases the prompt's frame and leaves the cursor at column 0 of its first row. */
  clear(): void
  /** Draws the prompt again from the cursor (after something was printed above it). */
  redraw(): void
  /**
   * The terminal was changed behind jp's back after an editor returned (a
   * server tearing the client's terminal down late): re-apply raw mode and
   * the prompt's modes, and redraw at the place saved before the editor.
   */
  repairAfterEditor?(): void
  /**
   * The process is leaving with the prompt still open (SIGQUIT, a third
   * Ctrl+C, a crash): draw its last picture (without what only a live prompt
   * shows, such as the help line) and leave the cursor on a fresh line below,
   * so the shell's prompt does not land inside it. Synchronous.
   */
  leave?(): void
}

interface Owner {
  stack: OpenPrompt[]
  /** Told just before a prompt takes the screen (the status line erases itself). */
  claimListeners: Set<() => void>
}

const KEY = Symbol.for('jp.terminalOwner')

function owner(): Owner {
  const g = globalThis as unknown as Record<symbol, Owner | undefined>
  const o = (g[KEY] ??= {stack: [], claimListeners: new Set()})
  o.claimListeners ??= new Set()
  return o
}

/**
 * A prompt is on the screen; returns the function that releases it. Nested
 * claims (a prompt over a prompt) stack: the newest is the one redrawn.
 */
export function claimPromptArea(prompt: OpenPrompt): () => void {
  const o = owner()
  for (const listener of o.claimListeners) listener()
  o.stack.push(prompt)
  return () => {
    const i = o.stack.lastIndexOf(prompt)
    if (i >= 0) o.stack.splice(i, 1)
  }
}

/** Calls `listener` whenever a prompt is about to take the screen; returns the unsubscribe. */
export function onPromptClaim(listener: () => void): () => void {
  const o = owner()
  o.claimListeners.add(listener)
  return () => o.claimListeners.delete(listener)
}

/** Every open prompt leaves the screen tidy (newest first): the process is exiting under them. */
export function leaveOpenPrompts(): void {
  const o = owner()
  for (const prompt of o.stack.splice(0).reverse()) {
    try {
      prompt.leave?.()
    } catch {
      // exit paths are best effort
    }
  }
}

/** The prompt on the screen now, if any. */
export function openPrompt(): OpenPrompt | undefined {
  const {stack} = owner()
  return stack.at(-1)
}

/**
 * Runs `write` (which must write synchronously: terminal streams do) above
 * the open prompt: erase, write, redraw. With no prompt open it just writes.
 * `write` must end its output with a newline.
 */
export function writeAbovePrompt(write: () => void): void {
  const prompt = openPrompt()
  if (!prompt) {
    write()
    return
  }
  prompt.clear()
  try {
    write()
  } finally {
    prompt.redraw()
  }
}
