// Whether, and how, the printer renders the model's markdown (SPEC §18):
// only on a terminal, in text format, with `style.markdown` on and a terminal
// that can show it (TERM=dumb gets the raw text). The renderer itself
// (src/lib/markdown/) is imported here lazily, so piped output, json and
// `--help` never load the parser.
import type {StyleSection} from '../config/types.js'

/** A streaming transform from sanitized model text to terminal bytes (src/lib/markdown/render.ts). */
export interface MarkdownStream {
  push(text: string): string
  end(): string
  take(): string
  /** Set while the renderer waits for its highlighter; resolves when `take()` has the rest. */
  readonly waiting: Promise<void> | undefined
  lineBroken(): void
}

/** What the printer renders with: one stream per answer and per reasoning block. */
export interface PrinterMarkdown {
  /** For assistant text on stdout. */
  assistant?: () => MarkdownStream
  /** For reasoning on stderr (dimmed). */
  reasoning?: () => MarkdownStream
  /** Ends every style the renderer may have opened (registered for every exit path). */
  reset?: string
}

export interface MarkdownSetupOptions {
  style: Pick<StyleSection, 'markdown' | 'hyperlinks' | 'code_theme'>
  format: 'text' | 'json'
  stdout?: NodeJS.WritableStream
  stderr?: NodeJS.WritableStream
  env?: NodeJS.ProcessEnv
}

interface TerminalStream {
  isTTY?: boolean
  columns?: number
}

/** The renderers for this run, or undefined when nothing is rendered. */
export async function markdownFor(opts: MarkdownSetupOptions): Promise<PrinterMarkdown | undefined> {
  const env = opts.env ?? process.env
  if (!opts.style.markdown || opts.format !== 'text' || env.TERM === 'dumb') return undefined
  const stdout = (opts.stdout ?? process.stdout) as TerminalStream
  const stderr = (opts.stderr ?? process.stderr) as TerminalStream
  if (!stdout.isTTY && !stderr.isTTY) return undefined
  const {createRenderer, prewarm, STYLE_RESET} = await import('../markdown/index.js')
  // A first render now (parser built, its rules and ours compiled) keeps that cost off the first token.
  prewarm()
  const color = !(env.NO_COLOR !== undefined && env.NO_COLOR !== '')
  const common = {color, hyperlinks: opts.style.hyperlinks, codeTheme: opts.style.code_theme}
  const columns = (s: TerminalStream) => () => s.columns ?? 80
  return {
    assistant: stdout.isTTY ? () => createRenderer({...common, columns: columns(stdout)}) : undefined,
    reasoning: stderr.isTTY ? () => createRenderer({...common, columns: columns(stderr), base: {dim: true}}) : undefined,
    reset: STYLE_RESET,
  }
}
