// The markdown renderer's entry: builds the parser and the renderer. Imported
// lazily (`await import`) by whoever renders an answer on a terminal, so
// `jp --help` and piped output never load markdown-it; the highlighter is
// loaded later still, by the first fence with a language.
import MarkdownIt from 'markdown-it'

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
 * Builds the parser and renders a small answer of every common block kind,
 * so the first real token finds the parser's rules and ours compiled.
 */
export function prewarm(): void {
  const warm = createRenderer({color: true, hyperlinks: false, codeTheme: 'ansi', columns: () => 80, highlight: false})
  warm.push('# Warm\n\nSome **text** with `code`, a [link](https://example.com) and more words.\n\n- a list\n\n| a | b |\n|---|---|\n| 1 | 2 |\n')
  warm.end()
}
