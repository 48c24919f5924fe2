// Syntax highlighting of fenced code (highlight.js, its common languages),
// loaded only when an answer has a fence with a language. highlight.js
// returns HTML; this turns it into styled pieces, one list per line.
//
// A block streams line by line, and highlight.js has no public way to carry
// its state from one call to the next: a line is highlighted together with
// the lines before it back to the last one that ended outside any construct
// (highlight.js's result says so: its mode stack was back at the language's
// root), at most CONTEXT_LINES, so a comment or string opened on an earlier
// line still colours it while ordinary code costs one line a line.
import hljs from 'highlight.js/lib/common'

import {merge, PLAIN, type CodeTheme, type Style} from './style.js'
import type {Piece} from './wrap.js'

export const CONTEXT_LINES = 20

export interface Highlighter {
  /** The canonical name for a fence's language word, or undefined when unknown. */
  language(info: string): string | undefined
  /**
   * The pieces of `lines[lines.length - 1]`, highlighted after `lines[from..]`;
   * `ground` when the line ends outside any construct (the next line needs no context).
   */
  lastLine(language: string, lines: readonly string[], from: number, theme: CodeTheme): {pieces: Piece[]; ground: boolean}
}

export function createHighlighter(): Highlighter {
  return {
    language(info) {
      const word = info.split(/[\s{,]/)[0].toLowerCase()
      if (word === '') return undefined
      const lang = hljs.getLanguage(word)
      return lang ? word : undefined
    },
    lastLine(language, lines, from, theme) {
      const start = Math.max(from, lines.length - 1 - CONTEXT_LINES)
      const code = lines.slice(start).join('\n')
      const result = hljs.highlight(code, {language, ignoreIllegals: true}) as ReturnType<typeof hljs.highlight> & {_top?: {parent?: unknown}}
      return {pieces: lastHtmlLine(result.value, theme), ground: result._top === undefined || result._top.parent === undefined}
    },
  }
}

const ENTITY: Record<string, string> = {'&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'"}

/** The pieces of the last line of highlight.js HTML (the lines before it only open and close spans). */
function lastHtmlLine(html: string, theme: CodeTheme): Piece[] {
  const nl = html.lastIndexOf('\n')
  if (nl < 0) return htmlLines(html, theme)[0]
  // The styles open at the last line's start: the spans opened and not closed before it.
  const stack: Style[] = [PLAIN]
  const re = /<span class="([^"]*)">|<\/span>/g
  let m: RegExpExecArray | null
  const head = html.slice(0, nl)
  while ((m = re.exec(head)) !== null) {
    if (m[1] !== undefined) stack.push(merge(stack[stack.length - 1], themeStyle(theme, m[1])))
    else if (stack.length > 1) stack.pop()
  }
  return htmlLines(html.slice(nl + 1), theme, stack)[0]
}

function themeStyle(theme: CodeTheme, classes: string): Style | undefined {
  const scope = classes.split(' ')[0].replace(/^hljs-/, '')
  return theme[scope] ?? theme[scope.split('.')[0]]
}

/** highlight.js HTML (`<span class="hljs-x">`, entities) → styled pieces per line; `stack`: the styles open where it starts. */
export function htmlLines(html: string, theme: CodeTheme, stack: Style[] = [PLAIN]): Piece[][] {
  const lines: Piece[][] = [[]]
  const re = /<span class="([^"]*)">|<\/span>|&[#\w]+;|\n|[^<&\n]+/g
  let m: RegExpExecArray | null
  while ((m = re.exec(html)) !== null) {
    const t = m[0]
    if (m[1] !== undefined) {
      stack.push(merge(stack[stack.length - 1], themeStyle(theme, m[1])))
    } else if (t === '</span>') {
      if (stack.length > 1) stack.pop()
    } else if (t === '\n') {
      lines.push([])
    } else {
      const text = t[0] === '&' ? (ENTITY[t] ?? t) : t
      const line = lines[lines.length - 1]
      const style = stack[stack.length - 1]
      const last = line[line.length - 1]
      if (last && last.style === style) last.text += text
      else line.push({text, style})
    }
  }
  return lines
}
