// Vendored from @inquirer/core 12.0.6 (dist/lib/create-prompt.js), MIT, see
// LICENSE. PATCHED at its two I/O seams (see PATCHES.md):
//   1. key source — no readline interface: the project's runPrompt claims
//      the terminal (fresh /dev/tty unless the context gives streams, raw
//      mode, restore on every exit path) and decodes keys with KeyDecoder;
//      keypress handlers receive those keys. The first render and its
//      effects run synchronously before input is read, so keys typed ahead
//      of the prompt are handled, not discarded (and their echo, written
//      before raw mode, is erased).
//   2. renderer — no ScreenManager: a view returns text or a Frame, and
//      PromptScreen paints only what changed (the diffing Painter); while
//      open, the prompt owns the terminal (other writes print above it).
// Ctrl+C is a key like any other (the prompt decides); a terminating signal,
// a hang-up or an abort reject with ExitPromptError / AbortPromptError as
// upstream. Upstream's call-site capture (for its "must return a string"
// message) and `clearPromptOnDone` are dropped.
import {AsyncResource} from 'node:async_hooks'
import type {KeyListener, PromptTerminal} from '../../prompt-terminal.js'
import {PromptScreen, type View} from '../../screen.js'
import {runPrompt, type Settle} from '../../prompt-io.js'
import type {PromptContext} from '../../types.js'
import {AbortPromptError, CancelPromptError, ExitPromptError} from './errors.js'
import {effectScheduler, handleChange, withHooks} from './hook-engine.js'

export type ViewFunction<Value, Config> = (config: Config, done: (value: Value) => void) => View

export interface CreatePromptContext extends PromptContext {
  /** Defaults to process.env (TERM=dumb → no cursor addressing). */
  env?: NodeJS.ProcessEnv
  /** Printed once before the first frame (e.g. the body of a multi-line message). */
  preamble?: string
}

export type Prompt<Value, Config> = (config: Config, context?: CreatePromptContext) => Promise<Value> & {cancel: () => void}

export function createPrompt<Value, Config>(view: ViewFunction<Value, Config>): Prompt<Value, Config> {
  const prompt = (config: Config, context: CreatePromptContext = {}) => {
    // Aborted before it opened: an abort, as upstream (not a cancel, which is the user's Esc).
    if (context.signal?.aborted) return Object.assign(Promise.reject(new AbortPromptError({cause: context.signal.reason})), {cancel: () => {}})
    let cancel = () => {}
    const promise = runPrompt<Value>(context, (io, settleIO) => {
      const env = context.env ?? process.env
      const dumb = env.TERM === 'dumb'
      const screen = new PromptScreen(io, io, dumb)
      const listeners = new Set<KeyListener>()
      const term: PromptTerminal = {
        env,
        dumb,
        columns: io.columns,
        rows: io.rows,
        enable: (mode) => io.session.enable(mode),
        screen,
        onKey(listener) {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      }
      // The prompt owns the terminal from before its first byte until it
      // settles: whoever else writes there (an unfinished line of the
      // answer) steps aside first.
      if (io.isTerminal) io.onClose(screen.own())
      // Keys typed while jp started were echoed by the terminal (it was not
      // raw yet) on this line: the prompt starts at column 0 of an erased
      // line, and draws those keys itself once it reads them.
      screen.eraseLine()
      if (context.preamble) io.write(context.preamble)

      // Upstream settles in `promise.finally` (a microtask after the key
      // handler): the final render triggered by the handler's state changes
      // lands first, then the screen is left and the terminal released.
      let settled = false
      const finish: Settle<Value> = (result) => {
        if (settled) return
        settled = true
        void Promise.resolve().then(() => {
          try {
            screen.done()
          } finally {
            settleIO(result)
          }
        })
      }

      return withHooks(term, (cycle) => {
        // Clear hook effects synchronously before the prompt settles: keys
        // arrive synchronously within a single data event, so a
        // microtask-deferred cleanup would let same-tick input keep driving
        // a settled prompt.
        const clearEffects = AsyncResource.bind(() => effectScheduler.clearAll())
        // If a hook cleanup throws, the cleanup error supersedes the settlement.
        const settlePrompt = (result: {value: Value} | {error: unknown}) => {
          try {
            clearEffects()
            finish(result)
          } catch (error) {
            finish({error})
          }
        }
        const resolvePrompt = (value: Value) => settlePrompt({value})
        const rejectPrompt = (error: unknown) => settlePrompt({error})
        cancel = () => rejectPrompt(new CancelPromptError())

        let pendingDone: {value: Value} | null = null
        cycle(() => {
          let effectsSettled = false
          try {
            const nextView = view(config, (value) => {
              if (effectsSettled) {
                // After the cycle completes (async validation path), the "done"
                // render already flushed via setStatus → handleChange, so resolve
                // immediately.
                resolvePrompt(value)
              } else {
                pendingDone = {value}
              }
            })
            if (nextView === undefined) throw new Error('Prompt functions must return a string or a frame.')
            screen.render(nextView)
            effectScheduler.run()
          } catch (error) {
            rejectPrompt(error)
          }
          effectsSettled = true
          if (pendingDone !== null) {
            const {value} = pendingDone
            pendingDone = null
            resolvePrompt(value)
          }
        })

        return {
          onKey(key) {
            for (const listener of [...listeners]) listener(key)
          },
          // A new size: erase the frame and render again at the new width.
          onResize: AsyncResource.bind(() => {
            if (dumb) return
            screen.resize()
            handleChange()
          }),
          // Keys after the answer are not this prompt's: the next reader gets them.
          ended: () => settled,
          onTerminate() {
            rejectPrompt(
              context.signal?.aborted
                ? new AbortPromptError({cause: context.signal.reason})
                : new ExitPromptError('User force closed the prompt'),
            )
          },
        }
      })
    })
    return Object.assign(promise, {cancel: () => cancel()})
  }
  return prompt
}
