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
// Below the answer, when no prompt is open, the owner may keep one footer
// (the queued reply's line, SPEC §19): a picture at the bottom that text is
// printed above, exactly as above a prompt; it steps aside while a prompt
// is open and comes back when the last one is gone.
//
// In a process-wide slot (process/slots.ts): oclif can load this module twice (src and dist).
import {slot} from '../process/slots.js'

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

/** How a prompt left the screen when it released it. */
export interface PromptRelease {
  /** The prompt erased its frame: the cursor is back on its first row, column 0 (else it is below the frame, on a fresh line). */
  erased: boolean
}

/** A picture kept at the bottom while no prompt is open (the queued reply's line). */
export interface Footer {
  /** Erases the picture and leaves the cursor at column 0 of its first row. */
  clear(): void
  /** Draws the picture from the cursor (column 0 of a fresh row). */
  redraw(): void
  /** The status line's text (`⏱ …`) to show above the footer's own row; undefined: none. */
  setStatus?(text: string | undefined): void
}

interface Owner {
  stack: OpenPrompt[]
  footer?: Footer
  /**
   * Told just before a prompt takes the screen (the status line erases
   * itself; the printer moves an unfinished line's cursor to a fresh row).
   */
  claimListeners: Set<() => void>
  /** Told when the last open prompt released the screen (the printer goes back to its line). */
  releaseListeners: Set<(release: PromptRelease) => void>
}

function owner(): Owner {
  // A process-wide slot (process/slots.ts): its prompts and footer are this module's types.
  const o = slot('terminalOwner', () => ({stack: [], claimListeners: new Set(), releaseListeners: new Set()})) as Owner
  o.claimListeners ??= new Set()
  o.releaseListeners ??= new Set()
  return o
}

/**
 * A prompt is on the screen; returns the function that releases it (saying
 * whether the prompt erased its frame). Nested claims (a prompt over a
 * prompt) stack: the newest is the one redrawn.
 */
export function claimPromptArea(prompt: OpenPrompt): (release?: PromptRelease) => void {
  const o = owner()
  // Only the first claim takes the screen from the other writers (the footer steps aside first: the prompt draws where it was).
  if (o.stack.length === 0) {
    o.footer?.clear()
    for (const listener of [...o.claimListeners]) listener()
  }
  o.stack.push(prompt)
  return (release = {erased: false}) => {
    const i = o.stack.lastIndexOf(prompt)
    if (i < 0) return
    o.stack.splice(i, 1)
    if (o.stack.length > 0) return
    for (const listener of [...o.releaseListeners]) listener(release)
    if (o.footer) takeBottom(o, o.footer)
  }
}

/**
 * Shows `footer` at the bottom until the returned function takes it away
 * (drawn now unless a prompt is open; then when the last prompt is gone).
 * One footer at a time: a new one replaces the old.
 */
export function showFooter(footer: Footer): () => void {
  const o = owner()
  if (o.footer) hideFooter(o)
  o.footer = footer
  if (o.stack.length === 0) takeBottom(o, footer)
  return () => {
    if (o.footer === footer) hideFooter(o)
  }
}

/** The footer shown now, when no prompt hides it. */
export function shownFooter(): Footer | undefined {
  const o = owner()
  return o.stack.length === 0 ? o.footer : undefined
}

/** The footer takes the bottom: the other writers make room as for a prompt (an unfinished line lifts), then it draws. */
function takeBottom(o: Owner, footer: Footer): void {
  for (const listener of [...o.claimListeners]) listener()
  footer.redraw()
}

function hideFooter(o: Owner): void {
  const footer = o.footer
  o.footer = undefined
  if (!footer || o.stack.length > 0) return
  footer.clear()
  for (const listener of [...o.releaseListeners]) listener({erased: true})
}

/** Calls `listener` whenever the last open prompt gives the screen back; returns the unsubscribe. */
export function onPromptRelease(listener: (release: PromptRelease) => void): () => void {
  const o = owner()
  o.releaseListeners.add(listener)
  return () => o.releaseListeners.delete(listener)
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
  if (o.footer) {
    const footer = o.footer
    o.footer = undefined
    if (o.stack.length === 0) {
      try {
        footer.clear()
      } catch {
        // exit paths are best effort
      }
    }
  }
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
  const prompt = openPrompt() ?? shownFooter()
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
