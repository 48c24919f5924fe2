// The query's Ctrl+C ladder from its first line (SPEC §18, RFD 092 "Where
// the properties hold"): the signal router is installed before the input is
// read, the config loaded or the conversation's lock awaited, with the
// fallback menu at the bottom of its stack, so a Ctrl+C in any of those is a
// first press (the menu), a second one a graceful shutdown — never Node's
// default exit in the middle of a status line. The router starts with the
// default cooldown; the configured one applies once the config is loaded.
// The menu's prompt modules load on the first press only.
import {defaultConfig} from '../config/defaults.js'
import {pushFallbackMenu} from '../interrupt/gate.js'
import {SignalRouter} from '../interrupt/signals.js'
import {hasTty} from '../terminal/tty.js'

export interface QueryLadder {
  router: SignalRouter
  /**
   * Waits for the fallback menu if it is open (the work does not go on to a
   * prompt or a request under it); true when its answer (or a second press)
   * began the shutdown: the caller then stops.
   */
  settle(): Promise<boolean>
  /** Chrome from now on goes through the printer, in order with its other output. */
  useNotice(notice: (line: string) => void): void
  /** The query is over (or never got going): the signals go back, unless a shutdown owns the exit. */
  close(): void
}

/** `say`: the command's chrome sink, for the notices of the time before the printer exists. */
export function installQueryLadder(say: (line: string) => void): QueryLadder {
  let notice = say
  const interactive = hasTty()
  const router = new SignalRouter({isInteractive: () => interactive, notice: (line) => notice(line)}).install()
  const fallback = pushFallbackMenu({
    router,
    interrupts: {
      async handleFallbackInterrupt() {
        const [{TerminalPromptBackend}, {InterruptHandler}] = await Promise.all([
          import('../inquire/terminal-backend.js'),
          import('../interrupt/handler.js'),
        ])
        // The fallback menu has no configuration (RFD 092: the floor of the ladder).
        const handler = new InterruptHandler({
          backend: new TerminalPromptBackend({context: {signal: router.shutdownSignal}}),
          editor: undefined,
          config: defaultConfig(process.env).interrupt,
          editMode: 'emacs',
          notice: (line) => notice(line),
          onMenuAnswered: () => router.resetLadder(),
          onEscalate: () => void router.shutdown(),
        })
        return handler.handleFallbackInterrupt()
      },
    },
  })
  return {
    router,
    async settle() {
      await fallback.checkpoint()
      return router.shuttingDown
    },
    useNotice(fn) {
      notice = fn
    },
    close() {
      fallback.pop()
      if (!router.shuttingDown) router.uninstall()
    },
  }
}
