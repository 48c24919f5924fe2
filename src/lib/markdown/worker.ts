// The render worker's thread (built as dist/render-worker.cjs): the rest of
// an answer, handed over by the printer where its own renderer was idle
// (printer/render-worker.ts), rendered here in order while the main thread
// reads the stream. Input comes as messages on the port it is given; output
// goes back on it, and each reply is counted in the shared words so the main
// thread can wait for one without its event loop (Atomics.wait):
//   words[0]  replies posted so far
//   words[1]  1 once the renderer is loaded and warm
//   words[2]  1 once the worker failed (it renders nothing more)
import {workerData, type MessagePort} from 'node:worker_threads'

import {createRenderer, prewarm, tuneCompiler, type MarkdownRenderer, type RendererOptions} from './index.js'

export type RenderRequest =
  /** A new answer (numbered: replies say which answer they belong to, and one cut short is dropped). */
  | {type: 'start'; answer: number; options: Omit<RendererOptions, 'columns'>; columns: number}
  | {type: 'push'; text: string; columns: number}
  | {type: 'broken'}
  | {type: 'cut'}
  /** The cut answer goes on (markdown/render.ts `goOn`). */
  | {type: 'go-on'}
  /** Replies `{done: id}` once everything before it is rendered and sent. */
  | {type: 'sync'; id: number}
  | {type: 'end'; id: number}

/** `pushes`: how many pushes of `answer` are rendered, this output included. */
export type RenderReply = {out: string; answer: number; pushes: number} | {done: number}

export const REPLIES = 0
export const READY = 1
export const FAILED = 2

/**
 * Output gathered before it is sent: one message per this much, or per
 * request handled. Sending flattens the output (a rope of the renderer's
 * small pieces) into one string, and a rope of 16 kB flattens while its
 * pieces are still in the cache: flattening and posting a 20 MB answer took
 * ~150–180 ms in 16 kB messages against ~270–310 ms in 64 kB ones (in
 * process), for ~1,400 messages instead of ~350.
 */
const SEND_AT = 16 * 1024

/**
 * A push is rendered this much at a time (the same bytes: rendering is the
 * same under any chunking), the shared reply count bumped after each piece,
 * and every HEARTBEAT_MS while the thread's event loop runs (a highlighter
 * loading): the main thread, blocked waiting for output, tells a busy
 * worker from a stalled one within printer/render-worker.ts STALLED_MS.
 */
const SLICE = 1024
const HEARTBEAT_MS = 20

/**
 * Fault injection for the output-path tests (issue 34): with
 * JP_TEST_STALL_RENDER=1 in the environment, the worker stops forever at
 * its first push, as a render that never ends would — alive (still
 * beating, as a long highlight does between its slices), so the main
 * thread can never take it for dead: anything that waits for it waits
 * forever. Read only here.
 */
function stallIfAsked(beat: () => void): void {
  if (process.env.JP_TEST_STALL_RENDER !== '1') return
  const still = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    beat()
    Atomics.wait(still, 0, 0, HEARTBEAT_MS)
  }
}

/** Where the slice of `text` from `at` ends: SLICE on, never between the halves of a surrogate pair. */
function sliceEnd(text: string, at: number): number {
  let end = Math.min(text.length, at + SLICE)
  const c = text.charCodeAt(end)
  if (end < text.length && c >= 0xdc00 && c <= 0xdfff) end++
  return end
}

export function serve(port: MessagePort, words: Int32Array): void {
  let renderer: MarkdownRenderer | undefined
  let columns = 80
  let out = ''
  let pushes = 0
  let answer = 0
  let queue: Promise<void> = Promise.resolve()

  const beat = () => {
    Atomics.add(words, REPLIES, 1)
    Atomics.notify(words, REPLIES)
  }
  const reply = (message: RenderReply) => {
    port.postMessage(message)
    beat()
  }
  setInterval(beat, HEARTBEAT_MS).unref()
  const send = () => {
    if (out === '') return
    const text = out
    out = ''
    reply({out: text, answer, pushes})
  }
  const settle = async (r: MarkdownRenderer) => {
    while (r.waiting) {
      await r.waiting
      out += r.take()
    }
  }
  const handle = async (req: RenderRequest) => {
    switch (req.type) {
      case 'start':
        // What the answer before left unsent was cut short with it.
        out = ''
        pushes = 0
        answer = req.answer
        columns = req.columns
        renderer = createRenderer({...req.options, columns: () => columns})
        return
      case 'push':
        pushes++
        if (!renderer) return
        stallIfAsked(beat)
        columns = req.columns
        for (let at = 0, end = 0; at < req.text.length; at = end) {
          end = sliceEnd(req.text, at)
          out += renderer.push(req.text.slice(at, end))
          await settle(renderer)
          beat()
        }
        if (out.length >= SEND_AT) send()
        return
      case 'broken':
        renderer?.lineBroken()
        out += renderer?.take() ?? ''
        return
      case 'cut':
        out += renderer?.cut() ?? ''
        return
      case 'go-on':
        renderer?.goOn()
        return
      case 'sync':
      case 'end':
        if (renderer && req.type === 'end') {
          out += renderer.end()
          await settle(renderer)
          renderer = undefined
        }
        send()
        reply({done: req.id})
    }
  }

  let pending = 0
  let failed = false
  port.on('message', (req: RenderRequest) => {
    pending++
    // In order, each after the one before (a fence may wait for the highlighter).
    queue = queue.then(async () => {
      try {
        if (!failed) await handle(req)
      } catch {
        failed = true
        Atomics.store(words, FAILED, 1)
        Atomics.notify(words, REPLIES)
      }
      // Nothing else has come in behind it: what is rendered goes now rather than with more.
      if (--pending === 0 && !failed) send()
    })
  })
  tuneCompiler()
  prewarm()
  Atomics.store(words, READY, 1)
}

if (workerData?.jpRenderWorker) serve(workerData.port as MessagePort, new Int32Array(workerData.words as SharedArrayBuffer))
