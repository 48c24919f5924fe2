// The render worker's thread (built as dist/render-worker.cjs): the rest of
// an answer, handed over by the printer where its own renderer was idle
// (printer/hand-off.ts), rendered here in order while the main thread
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
/** `preview`: the renderer's `preview()` after this output (a table being read). */
export type RenderReply = {out: string; answer: number; pushes: number; preview: string} | {done: number}

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
 * worker from a stalled one within printer/hand-off.ts STALLED_MS.
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

/** One worker's rendering: the answer it renders, the output it gathers, the replies it counts. */
class Session {
  private renderer: MarkdownRenderer | undefined
  private columns = 80
  private out = ''
  private pushes = 0
  private answer = 0

  constructor(
    private readonly port: MessagePort,
    private readonly words: Int32Array,
  ) {}

  /** A sign of life for the main thread, blocked waiting for output (printer/hand-off.ts STALLED_MS). */
  readonly beat = (): void => {
    Atomics.add(this.words, REPLIES, 1)
    Atomics.notify(this.words, REPLIES)
  }

  private reply(message: RenderReply): void {
    this.port.postMessage(message)
    this.beat()
  }

  /** The preview last sent. */
  private preview = ''

  /** What is rendered and not yet sent goes now, with the preview when either changed. */
  send(): void {
    const preview = this.renderer?.preview() ?? ''
    if (this.out === '' && preview === this.preview) return
    const text = this.out
    this.out = ''
    this.preview = preview
    this.reply({out: text, answer: this.answer, pushes: this.pushes, preview})
  }

  private async settle(r: MarkdownRenderer): Promise<void> {
    while (r.waiting) {
      await r.waiting
      this.out += r.take()
    }
  }

  async handle(req: RenderRequest): Promise<void> {
    switch (req.type) {
      case 'start':
        // What the answer before left unsent was cut short with it.
        this.out = ''
        this.preview = ''
        this.pushes = 0
        this.answer = req.answer
        this.columns = req.columns
        this.renderer = createRenderer({...req.options, columns: () => this.columns})
        return
      case 'push':
        return this.push(req.text, req.columns)
      case 'broken':
        this.renderer?.lineBroken()
        this.out += this.renderer?.take() ?? ''
        return
      case 'cut':
        this.out += this.renderer?.cut() ?? ''
        return
      case 'go-on':
        this.renderer?.goOn()
        return
      case 'sync':
      case 'end':
        if (this.renderer && req.type === 'end') {
          this.out += this.renderer.end()
          await this.settle(this.renderer)
          this.renderer = undefined
        }
        this.send()
        this.reply({done: req.id})
    }
  }

  private async push(text: string, columns: number): Promise<void> {
    this.pushes++
    const renderer = this.renderer
    if (!renderer) return
    stallIfAsked(this.beat)
    this.columns = columns
    for (let at = 0, end = 0; at < text.length; at = end) {
      end = sliceEnd(text, at)
      this.out += renderer.push(text.slice(at, end))
      await this.settle(renderer)
      this.beat()
    }
    if (this.out.length >= SEND_AT) this.send()
  }
}

export function serve(port: MessagePort, words: Int32Array): void {
  const session = new Session(port, words)
  setInterval(session.beat, HEARTBEAT_MS).unref()
  let queue: Promise<void> = Promise.resolve()
  let pending = 0
  let failed = false
  port.on('message', (req: RenderRequest) => {
    pending++
    // In order, each after the one before (a fence may wait for the highlighter).
    queue = queue.then(async () => {
      try {
        if (!failed) await session.handle(req)
      } catch {
        failed = true
        Atomics.store(words, FAILED, 1)
        Atomics.notify(words, REPLIES)
      }
      // Nothing else has come in behind it: what is rendered goes now rather than with more.
      if (--pending === 0 && !failed) session.send()
    })
  })
  tuneCompiler()
  prewarm()
  // Ready once every grammar is compiled (highlight.ts compileLanguages): a fence handed over never waits for one.
  const ready = () => Atomics.store(words, READY, 1)
  import('./highlight.js').then((m) => m.compileLanguages()).then(ready, ready)
}

if (workerData?.jpRenderWorker) serve(workerData.port as MessagePort, new Int32Array(workerData.words as SharedArrayBuffer))
