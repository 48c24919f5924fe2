// Rendering a long answer on a second thread (issue 25's speed): the main
// thread reads the stream, sanitizes and writes; a worker
// (markdown/render-thread.ts, built as dist/render-worker.cjs) renders. The answer
// starts on the main thread's own renderer, so the first token is shown at
// once; the worker boots meanwhile, and once it is ready the rest of the
// answer is handed to it where the main renderer is idle (between blocks,
// nothing pending: markdown/render.ts `idle()`), which keeps every byte the
// same (test/markdown/hand-off.test.ts).
//
// Order is kept by waiting: before anything else is written to the terminal
// (chrome, a prompt, the status line, the answer's end) the printer calls
// `sync()`, which blocks until the worker has rendered and returned all it
// was given (Atomics.wait on a shared counter, the replies taken with
// receiveMessageOnPort: no event loop turn, so nothing can slip between).
// In between, the worker's output is written as it comes.
import {existsSync} from 'node:fs'
import {availableParallelism} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {MessageChannel, receiveMessageOnPort, Worker, type MessagePort} from 'node:worker_threads'

import type {Hurry, MarkdownStream} from './markdown.js'
import {showFormatChars} from '../text/format-chars.js'
import type {MarkdownRenderer, RendererOptions} from '../markdown/index.js'
import type {RenderReply, RenderRequest} from '../markdown/render-thread.js'

// The shared words (markdown/render-thread.ts): not imported, so the main thread never loads the worker's module.
const REPLIES = 0
const READY = 1
const FAILED = 2

/** The main renderer hands off only after this much of the answer: short answers never pay the round trips. */
export const HAND_OFF_AFTER = 16 * 1024
/**
 * A worker that shows no sign of life for this long while the printer waits
 * for it is taken for dead, and what it was given is shown as it came: the
 * main thread blocks no longer than this for a stalled render, so signals
 * and keys are answered (SPEC §19). It bumps the reply count after every
 * 1 kB it renders and every 20 ms its event loop runs (markdown/render-thread.ts).
 * Not 100 ms: on a loaded machine a live worker can go unscheduled that
 * long, and one taken for dead shows the rest of its answer plain
 * (test/printer/render-worker.test.ts failed so under load at 100 ms).
 */
const STALLED_MS = 1000
/**
 * While a signal or key is being answered (a menu opening, shutdown:
 * `HandOffStream.hurry`), the worker is not waited for at all, except for
 * the end or cut of the answer, for at most this long: a live worker has
 * long rendered what it had by the time a key is read from the menu, and
 * one stuck for longer is given up (what it had not rendered is shown
 * plain), so the menu, the reply or the exit never waits for a render.
 */
const HURRIED_MS = 100
/** Input is sent once per event-loop turn, or at once past this much. */
const SEND_AT = 64 * 1024

/** The built worker, wherever this module was bundled (dist/jp.cjs, dist/lib/chunks/) or run from source. */
function workerFile(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  for (const file of [join(here, 'render-worker.cjs'), join(here, '..', 'render-worker.cjs'), join(here, '..', '..', 'render-worker.cjs'), join(here, '..', '..', '..', 'dist', 'render-worker.cjs')]) {
    if (existsSync(file)) return file
  }
  return undefined
}

/** Where an answer's stream gets the render worker: one per printer, booted for its first answer, stopped when the printer closes. */
export type WorkerSource = () => RenderWorker | undefined

/** The render worker for a run's answers, started when first asked for. */
export function sharedWorker(): WorkerSource & {stop(): void} {
  let worker: RenderWorker | null | undefined
  const source = () => {
    if (worker === undefined) worker = RenderWorker.start() ?? null
    return worker ?? undefined
  }
  return Object.assign(source, {stop: () => worker?.stop()})
}

/** A booting or ready render worker (one thread, one answer at a time). */
export class RenderWorker {
  private readonly worker: Worker
  private readonly port: MessagePort
  private readonly words: Int32Array
  private nextId = 1
  private done = 0
  /** The answer being rendered: output of any other is dropped. */
  private answer = 0
  /** Where the current answer's output goes (the printer's stdout channel). */
  private sink: (text: string, preview: string) => void = () => {}
  private exited = false

  /** Undefined where a second thread cannot help (one core) or the built worker is missing. */
  static start(file = workerFile()): RenderWorker | undefined {
    if (availableParallelism() < 2) return undefined
    if (!file) return undefined
    try {
      return new RenderWorker(file)
    } catch {
      return undefined
    }
  }

  private constructor(file: string) {
    const shared = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)
    this.words = new Int32Array(shared)
    const {port1, port2} = new MessageChannel()
    this.port = port1
    this.worker = new Worker(file, {workerData: {jpRenderWorker: true, port: port2, words: shared}, transferList: [port2], stdout: false, stderr: false})
    // Neither keeps jp running: the printer waits for what it needs with sync().
    this.worker.unref()
    this.port.on('message', (m: RenderReply) => this.reply(m))
    this.port.unref()
    this.worker.on('error', () => this.fail())
    this.worker.on('exit', () => this.fail())
  }

  get ready(): boolean {
    return Atomics.load(this.words, READY) === 1 && !this.failed
  }

  get failed(): boolean {
    return this.exited || Atomics.load(this.words, FAILED) === 1
  }

  post(req: RenderRequest): void {
    this.port.postMessage(req)
  }

  /**
   * Asks for everything so far and blocks until it is back (given to
   * `sink`), for at most `limitMs`; false if the worker failed or was given
   * up (then stopped: what it was rendering is not waited for again).
   */
  wait(type: 'sync' | 'end', limitMs = Infinity): boolean {
    const id = this.nextId++
    this.post({type, id})
    const start = performance.now()
    let quietSince = start
    for (let last = -1; ; ) {
      const seen = Atomics.load(this.words, REPLIES)
      this.poll()
      if (this.done >= id) return true
      if (this.failed) return false
      // A worker that died outside its own error handling cannot say so while this thread waits (its
      // 'exit' event needs the event loop): one that sends nothing for STALLED_MS is taken for dead.
      const now = performance.now()
      if (seen !== last) {
        last = seen
        quietSince = now
      } else if (now - quietSince > STALLED_MS) {
        this.stop()
        return false
      }
      if (now - start > limitMs) {
        this.stop()
        return false
      }
      Atomics.wait(this.words, REPLIES, seen, Math.min(100, Math.max(1, limitMs - (now - start))))
    }
  }

  /** Takes the replies already sent, without waiting for any. */
  poll(): void {
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) this.reply(m.message as RenderReply)
  }

  /** Told how many pushes of the current answer the worker has rendered, whenever it sends output. */
  private rendered: (pushes: number) => void = () => {}

  /** A new answer from here: the sink and the count of what is rendered are its own. */
  begin(options: Omit<RendererOptions, 'columns'>, columns: number, sink: (text: string, preview: string) => void, rendered: (pushes: number) => void): void {
    this.answer++
    this.sink = sink
    this.rendered = rendered
    this.post({type: 'start', answer: this.answer, options, columns})
  }

  private reply(m: RenderReply): void {
    if ('out' in m) {
      if (m.answer !== this.answer) return
      this.rendered(m.pushes)
      this.sink(m.out, m.preview)
    } else this.done = Math.max(this.done, m.done)
  }

  private fail(): void {
    this.exited = true
  }

  stop(): void {
    this.exited = true
    void this.worker.terminate()
  }
}

/**
 * The printer's stream for an answer: the main renderer until the hand-off,
 * then the worker. Before the hand-off, output is returned as a renderer
 * returns it; after it, output goes to `sink` (push returns '').
 */
export class HandOffStream implements MarkdownStream {
  /** null: none could be started. */
  private worker: RenderWorker | null | undefined
  private booting: NodeJS.Immediate | undefined
  private remote = false
  private given = 0
  private input = ''
  private sending: NodeJS.Immediate | undefined
  /** Text the worker was given and has not rendered (as far as its replies say): written as it is if the worker fails. */
  private unanswered: string[] = []
  /** How many pushes `unanswered[0]` comes after. */
  private answered = 0
  /** The worker's last preview (a table being read: markdown/render.ts `preview`). */
  private remotePreview = ''
  /** Nothing was sent to the worker since it last gave everything back (a sync then has nothing to wait for). */
  private settled = true

  constructor(
    private readonly local: MarkdownRenderer,
    private readonly options: Omit<RendererOptions, 'columns'>,
    private readonly columns: () => number,
    private readonly sink: (text: string) => void,
    private readonly startWorker: WorkerSource,
  ) {}

  push(text: string): string {
    if (this.remote) {
      this.give(text)
      return ''
    }
    this.given += text.length
    if (this.worker === undefined) {
      if (this.given >= HAND_OFF_AFTER) {
        // Long past the first output (a run's later answers find the worker already booted).
        if (this.booting) clearImmediate(this.booting)
        this.booting = undefined
        this.worker = this.startWorker() ?? null
      } else {
        // Booted after this turn's output is out: starting a thread is not free, and the first token is what the user waits for.
        this.booting ??= setImmediate(() => (this.worker ??= this.startWorker() ?? null))
      }
    }
    if (!this.worker?.ready || this.given < HAND_OFF_AFTER || this.local.waiting) return this.local.push(text)
    // Hand off at the first blank line after which the main renderer is idle.
    let out = ''
    let rest = text
    for (let nl = rest.indexOf('\n\n'); nl >= 0; nl = rest.indexOf('\n\n')) {
      out += this.local.push(rest.slice(0, nl + 2))
      rest = rest.slice(nl + 2)
      if (this.local.waiting) break
      const idle = this.local.idle()
      if (idle) {
        this.handOff(idle)
        this.give(rest)
        return out
      }
    }
    return out + this.local.push(rest)
  }

  end(): string {
    if (!this.remote) {
      this.stop()
      return this.local.end()
    }
    this.flushInput()
    // Shutting down, the rest is not waited for at all: what the worker has not rendered is shown plain.
    const limit = this.hurried === 'exit' ? 0 : this.hurried === 'menu' ? HURRIED_MS : Infinity
    return this.worker!.wait('end', limit) ? '' : this.lost()
  }

  /** Set while a signal or key is answered (a menu opening, shutdown): the worker is not waited for (see HURRIED_MS). */
  private hurried: Hurry = false

  hurry(how: Hurry): void {
    this.hurried = how
  }

  /** Whether the rest of the answer went to the worker. */
  get handedOff(): boolean {
    return this.remote
  }

  take(): string {
    return this.remote ? '' : this.local.take()
  }

  preview(): string {
    return this.remote ? this.remotePreview : this.local.preview()
  }

  get waiting(): Promise<void> | undefined {
    return this.remote ? undefined : this.local.waiting
  }

  cut(): string {
    if (!this.remote) return this.local.cut()
    this.tell({type: 'cut'})
    return ''
  }

  goOn(): void {
    if (!this.remote) return this.local.goOn()
    this.tell({type: 'go-on'})
  }

  syncBriefly(): void {
    if (!this.remote || this.worker!.failed) return
    this.flushInput()
    if (!this.settled) this.settle(HURRIED_MS)
  }

  lineBroken(): void {
    if (!this.remote) return this.local.lineBroken()
    this.tell({type: 'broken'})
  }

  /** A request after the input so far (its output comes as it comes). */
  private tell(req: RenderRequest): void {
    if (this.worker!.failed) return
    this.flushInput()
    this.worker!.post(req)
    this.settled = false
  }

  /** Blocks until everything given so far is rendered and written (a no-op before the hand-off). */
  sync(): void {
    if (!this.remote || this.worker!.failed) return
    this.flushInput()
    if (this.settled) return
    // Answering a signal: what the worker gave back so far goes out, the rest lands when it comes (above a prompt).
    if (this.hurried) return this.worker!.poll()
    this.settle(Infinity)
  }

  private settle(limitMs: number): void {
    if (this.worker!.wait('sync', limitMs)) this.settled = true
    else this.sink(this.lost())
  }

  /** The answer ended or was cut short: a worker not yet asked for is not booted for it (the worker itself is its source's). */
  stop(): void {
    if (this.booting) clearImmediate(this.booting)
    this.booting = undefined
  }

  private handOff(idle: NonNullable<ReturnType<MarkdownRenderer['idle']>>): void {
    this.remote = true
    this.worker!.begin(
      {...this.options, ...idle},
      this.columns(),
      (text, preview) => {
        this.remotePreview = preview
        this.sink(text)
      },
      (pushes) => {
        if (pushes <= this.answered) return
        this.unanswered.splice(0, pushes - this.answered)
        this.answered = pushes
      },
    )
  }

  private give(text: string): void {
    if (text === '') return
    if (this.worker!.failed) return this.sink(this.lost() + text)
    this.input += text
    if (this.input.length >= SEND_AT) this.flushInput()
    else this.sending ??= setImmediate(() => this.flushInput())
  }

  private flushInput(): void {
    if (this.sending) clearImmediate(this.sending)
    this.sending = undefined
    if (this.input === '') return
    this.unanswered.push(this.input)
    this.worker!.post({type: 'push', text: this.input, columns: this.columns()})
    this.input = ''
    this.settled = false
  }

  /** The worker failed: the text it had not answered for, as it came (as when the renderer cannot load). */
  private lost(): string {
    this.remotePreview = ''
    const text = this.unanswered.join('') + this.input
    this.unanswered = []
    this.input = ''
    return showFormatChars(text, true)
  }
}
