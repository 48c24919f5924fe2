// Syntax highlighting of fenced code (highlight.js, its common languages),
// loaded only when an answer has a fence with a language. highlight.js
// reports what it finds to an emitter (its `__emitter` option); ours keeps
// the scopes and text as they come and turns them into styled pieces, one
// list per line, with no HTML built and read back.
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

/** What highlight.js reported, in order: text, a scope opened (its name), a scope closed, an embedded language's emitter. */
type Op = string | {open: string} | typeof CLOSE | {sub: PieceEmitter}
const CLOSE = 0

/**
 * highlight.js's emitter interface (what its TokenTreeEmitter implements,
 * openNode/closeNode included: the parser calls them directly), recording
 * the calls. As in its token tree, a close with nothing open is ignored.
 */
class PieceEmitter {
  readonly ops: Op[] = []
  private depth = 0

  addText(text: string): void {
    if (text !== '') this.ops.push(text)
  }

  startScope(scope: string): void {
    this.openNode(scope)
  }

  endScope(): void {
    this.closeNode()
  }

  openNode(scope: string): void {
    this.ops.push({open: scope})
    this.depth++
  }

  closeNode(): void {
    if (this.depth === 0) return
    this.depth--
    this.ops.push(CLOSE)
  }

  __addSublanguage(emitter: PieceEmitter, name: string): void {
    // Its scope (`language:NAME`) styles nothing: only its content counts.
    void name
    this.ops.push({sub: emitter})
  }

  finalize(): boolean {
    while (this.depth > 0) this.closeNode()
    return true
  }

  toHTML(): string {
    return ''
  }
}

let configured = false

export function createHighlighter(): Highlighter {
  if (!configured) {
    // jp's only use of highlight.js: its shared instance reports to our emitter.
    hljs.configure({__emitter: PieceEmitter as unknown as NonNullable<Parameters<typeof hljs.configure>[0]['__emitter']>})
    configured = true
  }
  return {
    language(info) {
      const word = info.split(/[\s{,]/)[0].toLowerCase()
      if (word === '') return undefined
      const lang = hljs.getLanguage(word)
      return lang ? word : undefined
    },
    lastLine(language, lines, from, theme) {
      const start = Math.max(from, lines.length - 1 - CONTEXT_LINES)
      // With its newline: a construct that ends at the line's end (a `//` comment) is then closed.
      const code = start === lines.length - 1 ? lines[start] + '\n' : lines.slice(start).join('\n') + '\n'
      const result = hljs.highlight(code, {language, ignoreIllegals: true}) as ReturnType<typeof hljs.highlight> & {_top?: {parent?: unknown}; _emitter: PieceEmitter}
      return {pieces: lastLinePieces(result._emitter, theme), ground: result._top === undefined || result._top.parent === undefined}
    },
  }
}

/**
 * Compiles every grammar highlight.js holds. Each is compiled at its first
 * use, 2–30 ms apiece (TypeScript's the most), and a fence whose language is
 * compiled then holds its first line, and every token behind it, that long
 * (bench/render-latency.ts: the code lines' lag). The render worker does it
 * before it says it is ready (markdown/render-thread.ts), on its own thread,
 * so no fence it renders waits for a compile.
 */
export function compileLanguages(): void {
  createHighlighter()
  for (const name of hljs.listLanguages()) hljs.highlight('', {language: name, ignoreIllegals: true})
}

/**
 * The styled pieces of the last whole line an emitter recorded (the code ends with a newline). Each scope opened
 * is its parent's style merged with the theme's for it, and adjacent text of
 * the same style object makes one piece (what painting highlight.js's HTML
 * span by span gave).
 */
function lastLinePieces(emitter: PieceEmitter, theme: CodeTheme): Piece[] {
  const stack: Style[] = [PLAIN]
  let line: Piece[] = []
  let done: Piece[] = []
  const walk = (ops: readonly Op[]): void => {
    for (const op of ops) {
      if (typeof op === 'string') {
        const style = stack[stack.length - 1]
        let from = 0
        for (;;) {
          const nl = op.indexOf('\n', from)
          const text = nl < 0 ? op.slice(from) : op.slice(from, nl)
          if (text !== '') {
            const last = line[line.length - 1]
            if (last && last.style === style) last.text += text
            else line.push({text, style})
          }
          if (nl < 0) break
          done = line
          line = []
          from = nl + 1
        }
      } else if (op === CLOSE) {
        if (stack.length > 1) stack.pop()
      } else if ('open' in op) {
        stack.push(merge(stack[stack.length - 1], scopeStyle(theme, op.open)))
      } else walk(op.sub.ops)
    }
  }
  walk(emitter.ops)
  return done
}

const SCOPES = new WeakMap<CodeTheme, Map<string, Style | undefined>>()

/** The theme's style for a scope: by its first word (`title.function` → `title`); an embedded language's has none. */
function scopeStyle(theme: CodeTheme, scope: string): Style | undefined {
  let known = SCOPES.get(theme)
  if (!known) SCOPES.set(theme, (known = new Map()))
  let style = known.get(scope)
  if (style === undefined && !known.has(scope)) {
    style = scope.startsWith('language:') ? undefined : theme[scope.split('.')[0].split(' ')[0]]
    known.set(scope, style)
  }
  return style
}
