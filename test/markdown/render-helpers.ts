// Rendering a text through the streaming renderer the way the printer does:
// chunk by chunk, waiting for the highlighter when the renderer asks.
import {createRenderer, type RendererOptions} from '../../src/lib/markdown/index.js'

export const DEFAULTS: RendererOptions = {columns: () => 80, color: true, hyperlinks: false, codeTheme: 'ansi'}

export function renderChunks(pieces: string[], opts: Partial<RendererOptions> = {}): Promise<string> {
  return renderThrough(createRenderer({...DEFAULTS, ...opts}), pieces)
}

/** What a streaming renderer (or one still loading: printer/markdown.ts LoadingStream) gives for `pieces`. */
export async function renderThrough(r: {push(text: string): string; end(): string; take(): string; readonly waiting: Promise<void> | undefined}, pieces: string[]): Promise<string> {
  let out = ''
  const settle = async () => {
    while (r.waiting) {
      await r.waiting
      out += r.take()
    }
  }
  for (const p of pieces) {
    out += r.push(p)
    await settle()
  }
  out += r.end()
  await settle()
  return out
}

export function render(text: string, opts: Partial<RendererOptions> = {}): Promise<string> {
  return renderChunks([text], opts)
}

/** `text` cut every `size` UTF-16 units (a surrogate pair is never split: the stream carries whole characters). */
export function chunksOf(text: string, size: number): string[] {
  const out: string[] = []
  let i = 0
  while (i < text.length) {
    let j = Math.min(text.length, i + size)
    if (j < text.length && /[\ud800-\udbff]/.test(text[j - 1])) j++
    out.push(text.slice(i, j))
    i = j
  }
  return out
}

/** `text` cut at the given offsets (sorted, deduplicated, surrogate-safe). */
export function cutAt(text: string, offsets: number[]): string[] {
  const points = [...new Set(offsets.map((o) => Math.min(o, text.length)))].sort((a, b) => a - b)
  const out: string[] = []
  let prev = 0
  for (let p of points) {
    if (p > 0 && p < text.length && /[\ud800-\udbff]/.test(text[p - 1])) p++
    if (p <= prev) continue
    out.push(text.slice(prev, p))
    prev = p
  }
  out.push(text.slice(prev))
  return out
}

/** What a terminal shows: SGR and OSC 8 removed. */
export function plain(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '').replace(/\u001b\]8;;[^\u001b]*\u001b\\/g, '')
}
