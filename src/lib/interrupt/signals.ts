// The signal router (SPEC §7): jp's one owner of SIGINT, SIGTERM, SIGHUP and
// SIGQUIT. Interrupt listeners (streaming, tool, turn) are pushed on a LIFO
// stack and only the top one hears a Ctrl+C. Escalation decisions come from
// the pure EscalationPolicy; this file only wires them to the process.
//
// Graceful shutdown: `shutdownSignal` aborts, the `onShutdown` callbacks run
// in registration order (commit partial output, save the conversation), the
// terminal is restored and the process exits. A Ctrl+C during that exits 130
// at once, after restoring the terminal. A watchdog bounds the whole
// shutdown: if the steps hang (a provider that never answers, a full disk),
// jp exits anyway after `shutdownTimeoutMs`. Every exit path also SIGKILLs
// the process groups of tools still running (process/child-groups.ts).
import {killChildGroups} from '../process/child-groups.js'
import {listenToSignal} from '../process/lifecycle.js'
import {isSigintIgnored} from '../process/sigint-guard.js'
import {peekSlot, setSlot} from '../process/slots.js'
import {claimTerminatingSignals, installTerminalRestoreHooks, restoreTerminal, terminateRegistered, TERMINATING_SIGNALS} from '../terminal/restore.js'
import {detachStdioAtExit, noteHangupSignal, onTerminalGone, shieldStdioFromHangup, terminalGone} from '../terminal/gone.js'
import {confirmHangup, hasTty} from '../terminal/tty.js'
import {EscalationPolicy, type RoutedSignal, type SignalDecision, SIGNAL_EXIT_CODES} from './escalation.js'
import {errorLine} from '../text/one-line.js'

export {EscalationPolicy, SIGNAL_EXIT_CODES, type RoutedSignal, type SignalContext, type SignalDecision} from './escalation.js'

export interface InterruptEvent {
  signal: 'SIGINT'
  /** When it arrived, on the router's clock (ms). */
  at: number
}

/** Told about a Ctrl+C while it is the top of the stack. Must not throw. */
export type InterruptListener = (event: InterruptEvent) => void

export interface ShutdownReason {
  /** The signal that started it, or 'request' for `router.shutdown()`. */
  cause: RoutedSignal | 'request'
  exitCode: number
}

export type ShutdownCallback = (reason: ShutdownReason) => void | Promise<void>

export interface SignalRouterOptions {
  /** `interrupt.escalation_cooldown_secs`. Default 2. */
  escalationCooldownSecs?: number
  /** Whether a menu can be shown. Default: a controlling terminal exists. */
  isInteractive?: () => boolean
  /** Clock in ms. Default performance.now. */
  now?: () => number
  /** Ends the process. Default process.exit. */
  exit?: (code: number) => void
  /** One-line chrome ("Shutting down..."). Default: stderr. */
  notice?: (line: string) => void
  /** The shutdown watchdog: exit anyway after this long. Default 5000 ms. */
  shutdownTimeoutMs?: number
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000

/** What jp says when a graceful shutdown begins from the keyboard. */
export function shutdownNotice(timeoutMs: number): string {
  return `Shutting down: saving what arrived (Ctrl+C again to quit now; jp quits anyway in ${Math.ceil(timeoutMs / 1000)} s)...`
}

const ROUTED: RoutedSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']

export class SignalRouter {
  private readonly policy: EscalationPolicy
  private readonly stack: {listener: InterruptListener}[] = []
  private readonly callbacks: {cb: ShutdownCallback}[] = []
  private readonly controller = new AbortController()
  /** Each routed signal's stop (the listeners go through the process lifecycle). */
  private readonly listeners = new Map<RoutedSignal, () => void>()
  private readonly isInteractive: () => boolean
  private readonly now: () => number
  private readonly exit: (code: number) => void
  private readonly notice: (line: string) => void
  private readonly shutdownTimeoutMs: number
  private shutdownPromise: Promise<void> | undefined
  private watchdog: NodeJS.Timeout | undefined
  private releaseSignals: (() => void) | undefined
  private unsubscribeGone: (() => void) | undefined

  constructor(options: SignalRouterOptions = {}) {
    const secs = options.escalationCooldownSecs ?? 2
    this.policy = new EscalationPolicy(Math.max(0, secs) * 1000)
    this.isInteractive = options.isInteractive ?? hasTty
    this.now = options.now ?? (() => performance.now())
    this.exit = options.exit ?? ((code) => process.exit(code))
    this.notice = options.notice ?? ((line) => process.stderr.write(line + '\n'))
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
  }

  /** `interrupt.escalation_cooldown_secs`, applied once the config is loaded (the router exists before it). */
  setEscalationCooldown(secs: number): void {
    this.policy.setCooldown(Math.max(0, secs) * 1000)
  }

  /**
   * A menu was answered (any choice): the next Ctrl+C is a first press again,
   * however soon it comes.
   */
  resetLadder(): void {
    this.policy.reset()
  }

  /** Aborts when graceful shutdown starts; its reason is a ShutdownReason. */
  get shutdownSignal(): AbortSignal {
    return this.controller.signal
  }

  get shuttingDown(): boolean {
    return this.policy.isShuttingDown
  }

  /** Takes over the signals and becomes the process's current router. */
  install(): this {
    if (this.listeners.size > 0) return this
    installTerminalRestoreHooks()
    // The restore registry's stand-in stops listening: this router decides.
    this.releaseSignals = claimTerminatingSignals()
    for (const sig of ROUTED) {
      const terminating = (TERMINATING_SIGNALS as readonly string[]).includes(sig)
      const l = () => {
        // A SIGHUP with the terminal gone (a closed window): nothing may be
        // written to it or reset any more (terminal/gone.ts).
        if (sig === 'SIGHUP') {
          noteHangupSignal()
          confirmHangup()
        }
        this.handle(sig)
        // What registered its undo (an open prompt) ends now; the terminal
        // is restored when this router exits.
        if (terminating) terminateRegistered()
      }
      this.listeners.set(sig, listenToSignal(sig, l))
    }
    // A read of the terminal that hit its hang-up before the SIGHUP did.
    this.unsubscribeGone = onTerminalGone(() => this.handle('SIGHUP'))
    shieldStdioFromHangup(() => confirmHangup())
    // Asked now, while the terminal (if any) is there: whether one can be lost later.
    hasTty()
    setSlot('signalRouter', this)
    return this
  }

  /** Gives the signals back (Node's defaults apply again). */
  uninstall(): void {
    for (const stop of this.listeners.values()) stop()
    this.listeners.clear()
    this.releaseSignals?.()
    this.releaseSignals = undefined
    this.unsubscribeGone?.()
    this.unsubscribeGone = undefined
    if (peekSlot('signalRouter') === this) setSlot('signalRouter', undefined)
  }

  /** Pushes a listener on the stack; the returned function pops exactly it. */
  push(listener: InterruptListener): () => void {
    const entry = {listener}
    this.stack.push(entry)
    return () => {
      const i = this.stack.lastIndexOf(entry)
      if (i >= 0) this.stack.splice(i, 1)
    }
  }

  get depth(): number {
    return this.stack.length
  }

  /** Registers a graceful-shutdown step; the returned function removes it. */
  onShutdown(cb: ShutdownCallback): () => void {
    const entry = {cb}
    this.callbacks.push(entry)
    return () => {
      const i = this.callbacks.indexOf(entry)
      if (i >= 0) this.callbacks.splice(i, 1)
    }
  }

  /**
   * Feeds one signal through the policy and acts on the decision. With
   * `notify: false` a first press is only counted (a Ctrl+C that a prompt
   * already answered by closing: the next press soon after escalates).
   */
  handle(signal: RoutedSignal, options: {notify?: boolean} = {}): SignalDecision {
    const at = this.now()
    const decision = this.policy.decide(signal, {
      now: at,
      hasHandler: this.stack.length > 0,
      interactive: signal === 'SIGINT' ? this.isInteractive() : false,
      sigintIgnored: isSigintIgnored(),
    })
    switch (decision.type) {
      case 'notify': {
        if (options.notify === false) break
        const top = this.stack[this.stack.length - 1]
        try {
          top.listener({signal: 'SIGINT', at})
        } catch (error) {
          this.notice(`jp: interrupt handler failed: ${errorLine(error)}`)
        }
        break
      }
      case 'shutdown':
        // A hung-up terminal (SIGHUP) or a supervisor (SIGTERM) reads no chrome.
        if (signal === 'SIGINT') this.notice(shutdownNotice(this.shutdownTimeoutMs))
        void this.runShutdown({cause: decision.reason, exitCode: decision.exitCode})
        break
      case 'exit':
        this.exitNow(decision.exitCode)
        break
      case 'ignore':
        break
    }
    return decision
  }

  /**
   * Starts graceful shutdown on request (a Ctrl+C at the interrupt menu is an
   * escalation). Resolves when the process is about to exit; returns the
   * running shutdown if one already started.
   */
  shutdown(exitCode: number = SIGNAL_EXIT_CODES.SIGINT, options: {quiet?: boolean} = {}): Promise<void> {
    if (this.shutdownPromise) return this.shutdownPromise
    this.policy.markShuttingDown()
    if (!options.quiet) this.notice(shutdownNotice(this.shutdownTimeoutMs))
    return this.runShutdown({cause: 'request', exitCode})
  }

  private runShutdown(reason: ShutdownReason): Promise<void> {
    this.shutdownPromise ??= (async () => {
      // Armed before anything can hang; kept referenced so it fires even if
      // a step leaves nothing else on the event loop.
      this.watchdog = setTimeout(() => {
        this.notice(`jp: the shutdown did not finish within ${Math.ceil(this.shutdownTimeoutMs / 1000)} s; quitting now.`)
        this.exitNow(reason.exitCode)
      }, this.shutdownTimeoutMs)
      this.controller.abort(reason)
      for (const {cb} of [...this.callbacks]) {
        try {
          await cb(reason)
        } catch (error) {
          this.notice(`jp: shutdown step failed: ${errorLine(error)}`)
        }
      }
      this.exitNow(reason.exitCode)
    })()
    return this.shutdownPromise
  }

  private exitNow(code: number): void {
    clearTimeout(this.watchdog)
    restoreTerminal()
    // Node's own exit-time reset of a dead terminal aborts the process.
    detachStdioAtExit()
    // The 'exit' hook does this too; doing it first means a test's fake
    // exit (or an exit that throws) still leaves no tool behind.
    killChildGroups()
    this.exit(code)
  }
}

/** The router installed in this process, if any (shared across module copies). */
export function currentSignalRouter(): SignalRouter | undefined {
  return peekSlot('signalRouter') as SignalRouter | undefined
}
