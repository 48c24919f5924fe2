// The pure decision logic of the signal router (SPEC §7): a state machine fed
// with signals and the time they arrived, no timers and no process. The
// router in signals.ts does the wiring.
//
// SIGINT: the first press notifies the top handler; another press within the
// cooldown of the last notified one starts graceful shutdown; any press
// during shutdown exits 130 at once. With no handler or no terminal there is
// nobody to ask, so SIGINT starts graceful shutdown directly. While an editor
// owns the terminal, SIGINT belongs to it and is ignored here.
// SIGTERM and SIGHUP start graceful shutdown; a second SIGTERM during
// shutdown exits 143 (the sender insists), a SIGHUP during shutdown is
// ignored (the terminal is gone; saving must finish). SIGQUIT exits 131.

export type RoutedSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'SIGQUIT'

export type SignalDecision =
  | {type: 'notify'} // tell the top handler
  | {type: 'shutdown'; reason: RoutedSignal; exitCode: number} // graceful
  | {type: 'exit'; exitCode: number} // restore the terminal and exit now
  | {type: 'ignore'}

export interface SignalContext {
  /** Milliseconds, from any monotonic clock. */
  now: number
  /** A handler is pushed on the router's stack. */
  hasHandler: boolean
  /** A terminal is there to show a menu on. */
  interactive: boolean
  /** isSigintIgnored(): an editor owns Ctrl+C. */
  sigintIgnored: boolean
}

/** Exit codes: 128 + the signal number, as shells report them. */
export const SIGNAL_EXIT_CODES: Record<RoutedSignal, number> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGQUIT: 131,
  SIGTERM: 143,
}

export class EscalationPolicy {
  private lastNotifiedAt: number | undefined
  private shuttingDown = false

  constructor(private cooldownMs: number) {}

  /** The cooldown once the config is known (a router exists before it is). */
  setCooldown(ms: number): void {
    this.cooldownMs = ms
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown
  }

  /** A menu was answered: the next press is a first press again. */
  reset(): void {
    this.lastNotifiedAt = undefined
  }

  /** Records a shutdown started by other means (e.g. Ctrl+C at the menu). */
  markShuttingDown(): void {
    this.shuttingDown = true
  }

  decide(signal: RoutedSignal, ctx: SignalContext): SignalDecision {
    switch (signal) {
      case 'SIGQUIT':
        return {type: 'exit', exitCode: SIGNAL_EXIT_CODES.SIGQUIT}
      case 'SIGHUP':
        return this.shuttingDown ? {type: 'ignore'} : this.startShutdown('SIGHUP')
      case 'SIGTERM':
        return this.shuttingDown ? {type: 'exit', exitCode: SIGNAL_EXIT_CODES.SIGTERM} : this.startShutdown('SIGTERM')
      case 'SIGINT':
        return this.decideSigint(ctx)
    }
  }

  private decideSigint(ctx: SignalContext): SignalDecision {
    if (ctx.sigintIgnored) return {type: 'ignore'}
    if (this.shuttingDown) return {type: 'exit', exitCode: SIGNAL_EXIT_CODES.SIGINT}
    if (!ctx.hasHandler || !ctx.interactive) return this.startShutdown('SIGINT')
    const last = this.lastNotifiedAt
    if (last !== undefined && ctx.now - last <= this.cooldownMs) return this.startShutdown('SIGINT')
    this.lastNotifiedAt = ctx.now
    return {type: 'notify'}
  }

  private startShutdown(reason: RoutedSignal): SignalDecision {
    this.shuttingDown = true
    return {type: 'shutdown', reason, exitCode: SIGNAL_EXIT_CODES[reason]}
  }
}
