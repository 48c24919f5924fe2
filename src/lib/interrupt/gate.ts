// A menu for the moments between phases (SPEC §17: the first Ctrl+C always
// opens a menu). A press in a gap — persisting, building the next request,
// between two tool calls — must not start a prompt while another is about to
// open, so the gate opens the menu at once but the work only looks at the
// answer at its next checkpoint, where it waits for the user. At most one
// menu is open; further presses while it is open are the menu's business
// (Ctrl+C there is a key, not a signal).
import {unreachable} from '../text/unreachable.js'
import type {FallbackInterruptAction} from './handler.js'

export class MenuGate<T> {
  private open: Promise<T> | undefined
  private answer: {value: T} | undefined

  constructor(private readonly openMenu: () => Promise<T>) {}

  /** True while a menu opened by `interrupt()` is on the screen. */
  get isOpen(): boolean {
    return this.open !== undefined
  }

  /**
   * A Ctrl+C arrived: open the menu unless one is open. Once answered, the
   * menu is closed even if the work has not reached a checkpoint yet (it may
   * be stuck in the very gap), so the next press opens a new one.
   */
  interrupt(): void {
    if (this.open) return
    const p = this.openMenu()
    this.open = p
    p.then(
      (value) => {
        this.answer = {value}
      },
      () => {},
    ).finally(() => {
      if (this.open === p) this.open = undefined
    })
  }

  /**
   * Waits for the open menu's answer, if any, and hands over the latest
   * answer not yet consumed; undefined when nothing was pressed.
   */
  async checkpoint(): Promise<T | undefined> {
    while (this.open) await this.open.catch(() => {}).then(() => new Promise((r) => setImmediate(r)))
    const a = this.answer
    this.answer = undefined
    return a?.value
  }
}

/** What the fallback menu needs: a router to push on and shut down, a handler to ask. */
export interface FallbackDeps {
  router: {push(listener: () => void): () => void; shutdown(): Promise<void>}
  interrupts: {handleFallbackInterrupt(): Promise<FallbackInterruptAction>}
}

/**
 * The floor of the ladder (RFD 092): pushed first, so a Ctrl+C that no
 * more specific scope claims opens `Interrupted [c,s,?]`. `s` stops
 * gracefully (nothing was sent); Ctrl+C at it escalates (the handler's onEscalate). The answer
 * is acted on as it comes; `checkpoint()` lets work that is about to open a
 * prompt of its own (or send a request) wait while the menu is open.
 */
export function pushFallbackMenu(deps: FallbackDeps): {pop: () => void; checkpoint: () => Promise<FallbackInterruptAnswer | undefined>} {
  const gate = new MenuGate<FallbackInterruptAnswer>(async () => {
    const action = await deps.interrupts.handleFallbackInterrupt()
    switch (action.type) {
      case 'stop': {
        void deps.router.shutdown()
        break
      }

      // Continue: nothing to do. Escalate: the handler's onEscalate began the shutdown.
      case 'continue':
      case 'escalate': {
        break
      }

      default: {
        return unreachable(action, 'fallback menu action')
      }
    }
    return action
  })
  return {pop: deps.router.push(() => gate.interrupt()), checkpoint: () => gate.checkpoint()}
}

type FallbackInterruptAnswer = {type: 'continue' | 'stop' | 'escalate'}
