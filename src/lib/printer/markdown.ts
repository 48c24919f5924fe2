// Whether, and how, the printer renders the model's markdown (SPEC §18):
// only on a terminal, in text format, with `style.markdown` on and a terminal
// that can show it (TERM=dumb gets the raw text). The renderer itself
// (src/lib/markdown/) is imported here lazily, so piped output, json and
// `--help` never load the parser: when stdout is a terminal it loads (and
// warms) before the request, so the first token renders at once; when only
// stderr is one (`jp query > file`), at the first reasoning text, which most
// answers never send.
import type {StyleSection} from '../config/types.js'
import type {RendererOptions} from '../markdown/index.js'
import {showFormatChars} from '../text/format-chars.js'

/** A streaming transform from sanitized model text to terminal bytes (src/lib/markdown/render.ts). */
export interface MarkdownStream {
  push(text: string): string
  end(): string
  take(): string
  /** Set while the renderer waits for its highlighter; resolves when `take()` has the rest. */
  readonly waiting: Promise<void> | undefined
  lineBroken(): void
  /** An interrupt cut the answer: what the renderer held back is rendered now (markdown/render.ts `cut`). */
  cut?(): string
  /** ...and goes on after all: as if it had not been cut, on a fresh line (markdown/render.ts `goOn`). */
  goOn?(): void
  /** Rendering elsewhere: blocks until all output so far has gone to the sink, briefly (hand-off.ts HURRIED_MS), then shows the rest plain. */
  syncBriefly?(): void
  /** Rendering elsewhere (hand-off.ts): blocks until all output so far has gone to the sink. */
  sync?(): void
  /** While set, a signal or key is being answered: rendering elsewhere is not waited for (hand-off.ts HURRIED_MS). */
  hurry?(how: Hurry): void
  /** The answer will not go on (the printer closed). */
  stop?(): void
  /** What a table being read would show if it ended now, for the printer's live region ('' when none: markdown/render.ts `preview`). */
  preview?(): string
}

/**
 * A signal or key is being answered: `menu` (the interrupt menu opens; the
 * answer's end or cut waits for a render worker briefly), `exit` (shutdown:
 * nothing waits for it), false (neither).
 */
export type Hurry = false | 'menu' | 'exit'

/** What the printer renders with: one stream per answer and per reasoning block. */
export interface PrinterMarkdown {
  /**
   * For assistant text on stdout. Given a sink, a long answer may be
   * rendered on a second thread, its output then written to the sink as it
   * comes rather than returned (hand-off.ts).
   */
  assistant?: (sink?: (text: string) => void) => MarkdownStream
  /** For reasoning on stderr (dimmed). */
  reasoning?: () => MarkdownStream
  /** Ends every style the renderer may have opened (registered for every exit path); a promise when the renderer loads later. */
  reset?: string | Promise<string>
  /** The printer closed: what rendering kept for later answers (the render worker) goes. */
  close?: () => void
}

export interface MarkdownSetupOptions {
  style: Pick<StyleSection, 'markdown' | 'hyperlinks' | 'code_theme'>
  format: 'text' | 'json'
  stdout?: NodeJS.WritableStream
  stderr?: NodeJS.WritableStream
  env?: NodeJS.ProcessEnv
  /** Before each code line of the answers (MarkdownRenderOptions.codeMark). */
  codeMark?: string
  /**
   * A prompt opens before any answer (`jp query` with nothing to ask yet):
   * on a terminal the renderer loads and warms when `warm()` is called (the
   * prompt has closed) or at the first text, not before the prompt is drawn.
   */
  loadLater?: boolean
}

/** PrinterMarkdown with `warm`, for `loadLater`: load and warm the renderer now (idempotent). */
export type DeferredMarkdown = PrinterMarkdown & {warm?: () => void}

interface TerminalStream {
  isTTY?: boolean
  columns?: number
}

/** The renderers for this run, or undefined when nothing is rendered. */
export async function markdownFor(opts: MarkdownSetupOptions): Promise<DeferredMarkdown | undefined> {
  const env = opts.env ?? process.env
  if (!opts.style.markdown || opts.format !== 'text' || env.TERM === 'dumb') return undefined
  const stdout = (opts.stdout ?? process.stdout) as TerminalStream
  const stderr = (opts.stderr ?? process.stderr) as TerminalStream
  if (!stdout.isTTY && !stderr.isTTY) return undefined
  const color = !(env.NO_COLOR !== undefined && env.NO_COLOR !== '')
  const common = {color, hyperlinks: opts.style.hyperlinks, codeTheme: opts.style.code_theme, ...(opts.codeMark === undefined ? {} : {codeMark: opts.codeMark})}
  const columns = (s: TerminalStream) => () => s.columns ?? 80
  const reasoning = {...common, columns: columns(stderr), base: {dim: true}}
  if (!stdout.isTTY) {
    let loaded!: (reset: string) => void
    const reset = new Promise<string>((resolve) => (loaded = resolve))
    const load = () =>
      import('../markdown/index.js').then((m) => {
        // Known, and registered by the printer, before anything rendered is written.
        loaded(m.STYLE_RESET)
        return m.createRenderer(reasoning)
      })
    return {reasoning: () => new LoadingStream(load), reset}
  }
  const load = warmRenderers()
  if (!opts.loadLater) {
    const r = await load()
    return {
      assistant: (sink) => assistantStream(r, common, columns(stdout), sink),
      close: r.worker.stop,
      reasoning: stderr.isTTY ? () => r.markdown.createRenderer(reasoning) : undefined,
      reset: r.markdown.STYLE_RESET,
    }
  }
  let stop: (() => void) | undefined
  let loaded!: (reset: string) => void
  const reset = new Promise<string>((resolve) => (loaded = resolve))
  const warm = () =>
    load().then((r) => {
      stop = r.worker.stop
      loaded(r.markdown.STYLE_RESET)
      return r
    })
  return {
    assistant: (sink) => new LoadingStream(() => warm().then((r) => assistantStream(r, common, columns(stdout), sink))),
    close: () => stop?.(),
    reasoning: stderr.isTTY ? () => new LoadingStream(() => warm().then(({markdown}) => markdown.createRenderer(reasoning))) : undefined,
    reset,
    warm: () => void warm(),
  }
}

/** The renderer's module, loaded and warmed, and the run's render worker. */
interface LoadedRenderers {
  markdown: typeof import('../markdown/index.js')
  worker: ReturnType<typeof import('./hand-off.js').sharedWorker>
  handOff: typeof import('./hand-off.js').HandOffStream
}

/** The assistant's stream: rendered here, or handed to the worker for a long answer when given a sink. */
function assistantStream(r: LoadedRenderers, common: Omit<RendererOptions, 'columns'>, columns: () => number, sink?: (text: string) => void): MarkdownStream {
  const local = r.markdown.createRenderer({...common, columns})
  return sink ? new r.handOff(local, common, columns, sink, r.worker) : local
}

/** Loads the renderer once: the compiler set for it and a first render done (prewarm), so the first token renders at once. */
function warmRenderers(): () => Promise<LoadedRenderers> {
  let loading: Promise<LoadedRenderers> | undefined
  return () =>
    (loading ??= Promise.all([import('../markdown/index.js'), import('./hand-off.js')]).then(([markdown, {HandOffStream, sharedWorker}]) => {
      markdown.tuneCompiler()
      markdown.prewarm()
      // One thread for all the run's answers (a tool loop answers many times), booted for the first.
      return {markdown, worker: sharedWorker(), handOff: HandOffStream}
    }))
}

/**
 * A renderer whose module loads at its first text: what comes before it is
 * loaded is kept, and `waiting` holds the printer's later writes behind it
 * (as a highlighter being loaded does), so nothing is shown out of order.
 */
export class LoadingStream implements MarkdownStream {
  private inner: MarkdownStream | undefined
  private input = ''
  private ended = false
  private out = ''
  private loading: Promise<void> | undefined

  constructor(private readonly create: () => Promise<MarkdownStream>) {}

  push(text: string): string {
    if (this.inner) return this.inner.push(text)
    this.input += text
    this.load()
    return ''
  }

  end(): string {
    if (this.inner) return this.inner.end()
    this.ended = true
    this.load()
    return ''
  }

  take(): string {
    const out = this.out + (this.inner?.take() ?? '')
    this.out = ''
    return out
  }

  get waiting(): Promise<void> | undefined {
    return this.loading ?? this.inner?.waiting
  }

  /** Before it loads it has shown nothing, so no line of its own was broken. */
  lineBroken(): void {
    this.inner?.lineBroken()
  }

  preview(): string {
    return this.inner?.preview?.() ?? ''
  }

  /** A render worker's stream (once loaded) gives back what it holds. */
  sync(): void {
    this.inner?.sync?.()
  }

  private load(): void {
    this.loading ??= this.create().then(
      async (inner) => {
        this.inner = inner
        this.out = inner.push(this.input) + (this.ended ? inner.end() : '')
        this.input = ''
        // Done when everything given so far can be taken (a fence may have it wait for the highlighter).
        while (inner.waiting) await inner.waiting
        this.loading = undefined
      },
      () => {
        // The renderer could not load: the (sanitized) text as it came, its format characters shown.
        this.out = showFormatChars(this.input, true)
        this.input = ''
        this.loading = undefined
        this.inner = PLAIN_STREAM
      },
    )
  }
}

/** Text as it comes (a renderer that failed to load). */
const PLAIN_STREAM: MarkdownStream = {push: (text) => showFormatChars(text, true), end: () => '', take: () => '', waiting: undefined, lineBroken: () => {}}
