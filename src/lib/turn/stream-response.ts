// One model response of a turn, streamed to the printer (SPEC §7). A Ctrl+C
// opens the streaming menu while the stream keeps arriving in the background;
// its output is held back until the user chooses, then shown (resume,
// continue) or dropped with the stream (reply, stop, abort).
import type {StreamingInterruptAction} from '../interrupt/handler.js'
import type {SignalRouter} from '../interrupt/signals.js'
import {isAbortError, type ChatRequest, type Provider, type StreamEvent} from '../llm/types.js'
import type {Printer} from '../printer/printer.js'
import {errorMessage} from '../text/one-line.js'
import {AnswerRecorder} from './answer-recorder.js'
import {keepsStream} from './menu-effect.js'
import {eventsToMessages} from './messages.js'
import type {RequestPort, ScreenPort, StorePort, ToolsPort} from './ports.js'
import {finishNotice, ResponseParts} from './response.js'

export interface StreamResult {
  partial: ResponseParts
  /** The answer's text, recorded as it streamed. */
  recorder: AnswerRecorder
  /** The interrupt decision, when the user opened the menu. */
  decision?: StreamingInterruptAction
  /** Set when the stream failed (not by our own abort). */
  error?: unknown
  /** The stream ended because graceful shutdown started. */
  shutdown: boolean
}

/** The streaming menu's state, shared by the stream loop and the Ctrl+C handler. */
interface MenuState {
  /** Rendering held while the menu is open (undefined: show at once). */
  held?: Array<() => void>
  menu?: Promise<StreamingInterruptAction>
  decision?: StreamingInterruptAction
  /** The stream has ended (the menu then offers no resume). */
  ended: boolean
  /**
   * Whether what was shown so far ends a line: the menu must start on its
   * own. `printer`: as the printer says when asked (assistant text, whose
   * rendering may still be under way on another thread).
   */
  atLineStart: boolean | 'printer'
}

/** The request of one step: the conversation so far, with the tools ready now. */
function chatRequest(request: RequestPort, tools: ToolsPort, store: StorePort): ChatRequest {
  return {
    model: request.model,
    system: request.system,
    messages: eventsToMessages(store.events),
    tools: tools.definitions,
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    reasoning: request.reasoning,
  }
}

/** Streams one model response to the screen, recording it in the store as it is shown. */
export async function streamResponse(request: RequestPort, tools: ToolsPort, store: StorePort, screen: ScreenPort): Promise<StreamResult> {
  const {printer, router} = screen
  const controller = new AbortController()
  const recorder: AnswerRecorder = new AnswerRecorder({
    events: store.events,
    persist: store.persist,
    appendText: store.appendText,
    takeClosedReasoning: () => partial.takeClosedReasoning(),
    everyMs: store.recordEveryMs ?? 1000,
    onFailure: () => controller.abort(),
  })
  const partial = new ResponseParts((piece) => recorder.add(piece))
  // Shutdown is answered at once: from here the answer's renderer is not waited for.
  const onShutdown = () => (printer.hurry('exit'), controller.abort())
  router?.shutdownSignal.addEventListener('abort', onShutdown)

  const state: MenuState = {ended: false, atLineStart: true}
  const pop = router?.push(() => openStreamingMenu(screen, state, controller))
  // Typing while the answer comes opens `Queue:` below it (not while a menu is on its way).
  const disarm = screen.queue?.armTyping(() => state.menu === undefined)
  const error = await readStream(chatRequest(request, tools, store), {printer, state, partial, recorder, controller, provider: request.provider})

  await waitForMenu(state, router)
  disarm?.()
  pop?.()
  router?.shutdownSignal.removeEventListener('abort', onShutdown)
  const shutdown = router?.shutdownSignal.aborted ?? false
  endShown(printer, state, {shutdown, aborted: controller.signal.aborted, failed: error !== undefined})
  return {partial, recorder, decision: state.decision, error, shutdown}
}

/** Reads the stream to its end, showing (or holding) each event; the error it failed with, unless our own abort ended it. */
async function readStream(
  req: ChatRequest,
  p: {
    printer: Printer
    state: MenuState
    partial: ResponseParts
    recorder: AnswerRecorder
    controller: AbortController
    provider: Provider
  },
): Promise<unknown> {
  const {printer, state, partial, recorder, controller} = p
  const show = (fn: () => void) => (state.held ? state.held.push(fn) : fn())
  // Until the first rendered text (pings and empty deltas render nothing).
  const stopWaiting = printer.startStatus('Waiting')
  try {
    for await (const ev of p.provider.stream(req, controller.signal)) {
      // Recorded when shown, not when received: what arrives while the menu
      // is open is held, and a reply, stop or shutdown drops it unseen, so
      // what is saved is what the user saw (docs/decisions.md).
      show(() => partial.add(ev))
      const render = renderEvent(printer, ev, state)
      if (render) show(render)
      await printer.writable()
      await recorder.writable()
    }
    return undefined
  } catch (e) {
    return isAbortError(e) && controller.signal.aborted ? undefined : e
  } finally {
    stopWaiting()
    state.ended = true
  }
}

/** The answer's end on the screen, once the stream and its menu are over. */
function endShown(printer: Printer, state: MenuState, how: {shutdown: boolean; aborted: boolean; failed: boolean}): void {
  // A shutdown that cut the answer with no menu open (SIGTERM, SIGHUP, a
  // second press before the menu was drawn) still ends its line: the shell's
  // prompt must not land after half a sentence. An open menu began a line of its own.
  const cutMidLine = how.shutdown && state.held === undefined
  if (state.held) {
    // Resumed after the end: show what was held (nothing to show if aborted).
    if (!how.aborted) for (const fn of state.held) fn()
    state.held = undefined
  }

  // The menu's answer ended the cut answer (r, s, a, a second Ctrl+C): what a render worker still had of it
  // is shown now (its held-back word was shown before the menu opened).
  if (how.aborted && !cutMidLine && state.decision !== undefined) printer.endCutAssistant()
  if (cutMidLine) printer.endReasoning()
  if ((!how.shutdown && !how.aborted) || cutMidLine) printer.endAssistant()
  if (!how.shutdown) printer.hurry(false)
  if (how.failed && state.decision === undefined) {
    printer.endAssistant()
  }
}

/** Ctrl+C while the answer streams: hold the output and open the menu (once). */
function openStreamingMenu(screen: ScreenPort, state: MenuState, controller: AbortController): void {
  const {printer, router} = screen
  if (state.menu || !screen.interactive) return
  state.held = []
  const handler = screen.interactive.interrupts
  // The menu opens now, whatever a render worker still has to draw (it lands above the menu), below all
  // the text the partial answer would store: what the renderer held back (a partial word, a line it had not
  // placed) is shown first, so the stored answer is what was shown and the next output starts on its own line.
  printer.hurry('menu')
  printer.cutAssistant()
  const menu = (async () => {
    await printer.flush()
    if (!(state.atLineStart === 'printer' ? printer.atLineStart() : state.atLineStart)) {
      printer.ttyLine('')
      printer.lineBroken()
    }
    return handler.handleStreamingInterrupt(!state.ended)
  })()
  state.menu = menu
  void menu.then(
    (d) => {
      // Shutdown closed the menu's prompt: its answer means nothing now.
      if (router?.shutdownSignal.aborted) return
      state.decision = d
      if (!keepsStream(d)) {
        // Every other answer ends this stream.
        controller.abort()
        return
      }
      // The stream goes on (or, ended, is continued after it): release what was held.
      // As if the answer had not been cut: a word shown in part goes on whole below the menu.
      printer.goOnAssistant()
      printer.hurry(false)
      const h = state.held ?? []
      state.held = undefined
      state.menu = undefined
      if (d.type === 'resume') state.decision = undefined
      for (const fn of h) fn()
    },
    (error: unknown) => {
      printer.warn(`The interrupt menu failed: ${errorMessage(error)}`)
      state.decision = {type: 'stop'}
      controller.abort()
    },
  )
}

/** What showing one stream event does on the printer (undefined: nothing to show). */
function renderEvent(printer: Printer, ev: StreamEvent, state: MenuState): (() => void) | undefined {
  switch (ev.type) {
    case 'text':
      return () => {
        printer.assistant(ev)
        // What the terminal shows (rendered markdown holds a partial word back), asked when the menu opens.
        state.atLineStart = 'printer'
      }
    case 'reasoning':
      return () => {
        printer.reasoning(ev.text)
        if (ev.text !== '') state.atLineStart = ev.text.endsWith('\n')
      }
    case 'usage':
      return () => printer.event({type: 'usage', input_tokens: ev.inputTokens, output_tokens: ev.outputTokens, cached_tokens: ev.cachedTokens})
    case 'finish': {
      // How the answer ended: always an event in json, and a notice
      // whenever it is not a normal end or a tool call.
      const notice = finishNotice(ev.reason, ev.raw)
      return () => {
        printer.event({type: 'finish', reason: ev.reason, raw: ev.raw ?? null})
        if (notice) printer.warn(notice)
      }
    }
    default:
      return undefined
  }
}

/**
 * The stream may end (or fail) while the menu is still open: the user's
 * choice decides what happens to what arrived — unless graceful shutdown
 * (SIGTERM, SIGHUP) starts meanwhile: then nobody is left to answer, and
 * waiting would keep the process alive with a prompt on the screen.
 */
async function waitForMenu(state: MenuState, router: SignalRouter | undefined): Promise<void> {
  // Every response passes here: the listener goes when the wait does (one
  // left per request was Node's MaxListenersExceededWarning on the terminal
  // from the eleventh step of a tool loop on; found by the pty fuzzer).
  const done = new AbortController()
  const shutdownStarted = router && state.menu ? abortPromise(router.shutdownSignal, done.signal) : undefined
  try {
    while (state.menu) {
      const open: Promise<StreamingInterruptAction> = state.menu
      await (shutdownStarted ? Promise.race([open.catch(() => {}), shutdownStarted]) : open.catch(() => {}))
      if (router?.shutdownSignal.aborted) {
        state.menu = undefined
        break
      }
      if (state.menu === open) state.menu = undefined
    }
  } finally {
    done.abort()
  }
}

/** Resolves when `signal` aborts; its listener is removed when `until` aborts. */
function abortPromise(signal: AbortSignal, until: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), {once: true, signal: until}))
}
