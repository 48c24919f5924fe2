// The markdown renderer's entry: builds the parser and the renderer. Imported
// lazily (`await import`) by whoever renders an answer on a terminal, so
// `jp --help` and piped output never load markdown-it; the highlighter is
// loaded later still, by the first fence with a language.
import MarkdownIt from 'markdown-it'
import {setFlagsFromString} from 'node:v8'

import {MarkdownRenderer, type MarkdownRenderOptions, type Parser} from './render.js'
import type {Highlighter} from './highlight.js'

export {MarkdownRenderer, type MarkdownRenderOptions} from './render.js'
export {CODE_THEME_NAMES, STYLE_RESET, type CodeThemeName} from './style.js'

/** markdown-it as the renderer expects it: CommonMark + GFM tables and strikethrough, no raw HTML, links need a scheme. */
export function createParser(): Parser {
  const md = new MarkdownIt('default', {html: false, linkify: true, typographer: false})
  md.linkify.set({fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false})
  return md
}

let parser: Parser | undefined

export function loadHighlighter(): Promise<Highlighter> {
  return import('./highlight.js').then((m) => m.createHighlighter())
}

export type RendererOptions = Omit<MarkdownRenderOptions, 'md' | 'loadHighlighter'> & {highlight?: boolean}

/** A renderer for one answer (or one reasoning stream). */
export function createRenderer(options: RendererOptions): MarkdownRenderer {
  parser ??= createParser()
  return new MarkdownRenderer({...options, md: parser, loadHighlighter: options.highlight === false ? undefined : loadHighlighter})
}

/**
 * How much TurboFan may inline into one function (V8's default: 920 bytes
 * of bytecode). jp renders an answer and exits: compiling the renderer's
 * and highlight.js's hot functions with that much inlined took ~a third of
 * the CPU of a 2 MB answer (background threads, on a machine whose two
 * cores the reader of the terminal also needs) before the code paid it
 * back; with less inlined they compile sooner and cheaper, and a 20 MB
 * answer renders no slower (bench/markdown-render.ts, issue 25).
 */
export const INLINE_BUDGET = '--max-inlined-bytecode-size-cumulative=200'

/**
 * Sets the compiler for rendering (INLINE_BUDGET). A V8 flag is the
 * process's: called where an answer is rendered on a terminal (the printer's
 * setup, the render worker), never for piped or raw output, and not by the
 * build's code cache run (V8 rejects cached code made under other flags).
 */
export function tuneCompiler(): void {
  setFlagsFromString(INLINE_BUDGET)
}

/**
 * Builds the parser and renders a small answer of every common block kind,
 * so the first real token finds the parser's rules and ours compiled.
 */
export function prewarm(): void {
  const warm = createRenderer({color: true, hyperlinks: false, codeTheme: 'ansi', columns: () => 80, highlight: false})
  warm.push('# Warm\n\nSome **text** with `code`, a [link](https://example.com) and more words.\n\n- a list\n\n| a | b |\n|---|---|\n| 1 | 2 |\n')
  warm.end()
}
