// The streaming markdown renderer: sanitized model text in, terminal bytes
// out. The block splitter (splitter.ts) says when a block may be shown;
// markdown-it parses each block (a block is a valid document); this walks
// the tokens and lays them out for the terminal at the width read when the
// block starts (so blocks after a resize use the new width).
//
// Byte identity: the output depends on the text only, never on how it was
// chunked, because every decision — block boundaries (splitter), paragraph
// segments (segmenter), word placement (wrap) — is made from the text alone,
// and the one-shot render runs this same code on the whole text.
//
// Escape sequences: the renderer writes SGR and OSC 8 of its own (style.ts);
// model text reaches it sanitized with every control sequence removed, so
// none of its bytes can become a sequence (test/markdown/escapes.test.ts).
import type MarkdownIt from 'markdown-it'

export type Parser = InstanceType<typeof MarkdownIt>

import {BlockSplitter, type SplitEvent} from './splitter.js'
import {ParagraphSegmenter, type Segment} from './segmenter.js'
import {cells, hardSplit, LineWrapper, longestWord, paintPieces, PaintedWords, type InlineSink, type Piece} from './wrap.js'
import {CODE_THEMES, ELEMENT, merge, paint, PLAIN, safeUrl, type CodeThemeName, type Style} from './style.js'
import type {Highlighter} from './highlight.js'
import {layoutTable, type TableCell} from './table.js'
import {isPlainAscii, quickInline, quickTable} from './quick-inline.js'
import {showFormatChars} from './rendered-format-chars.js'

type Token = ReturnType<Parser['parse']>[number]

export interface MarkdownRenderOptions {
  /** The parser (markdown-it, configured by createParser). */
  md: Parser
  /** The terminal's width, read when a block starts. */
  columns: () => number
  /** SGR colours (false under NO_COLOR: attributes and layout stay). */
  color: boolean
  /** OSC 8 links around link text (`style.hyperlinks`). */
  hyperlinks: boolean
  codeTheme: CodeThemeName
  /** Applied under every style (reasoning: dim). */
  base?: Style
  /**
   * Loads the highlighter when a fence with a language first appears; until
   * it resolves the renderer holds its input (see `waiting`). Absent: plain code.
   */
  loadHighlighter?: () => Promise<Highlighter>
  /**
   * false: every heading, list item and inline segment goes through
   * markdown-it, and every table cell through a LineWrapper, none through
   * the quick paths that give the same bytes (the reference
   * test/markdown/quick-inline.test.ts and quick-blocks.test.ts compare them with).
   */
  quick?: boolean
  /**
   * The answer so far was rendered by another renderer, which was `idle()`
   * when this one took over: its next block starts after a blank line.
   */
  continues?: boolean
  /** ...and it had loaded its highlighter (code in a later list item or quote is highlighted): this one loads it first. */
  highlighted?: boolean
  /** ...and had highlighted this many characters of code (HIGHLIGHT_ANSWER_MAX counts on from there). */
  highlightSpent?: number
  /**
   * Written before each code line (never part of what is shown): lets a
   * caller that indents the rendered text (`jp conversation show`) leave
   * code lines bare. A character sanitized text cannot hold (NUL).
   */
  codeMark?: string
}

/** A segment needs the parser only when it holds one of these (else it is plain text). */
const INLINE_SYNTAX = /[\\`*_~[\]<&:!]/
const MAX_WIDTH = 1000
/** How much of the block being rendered is kept so a cut can be taken back (`goOn`). */
const SINCE_IDLE_MAX = 256 * 1024

export class MarkdownRenderer {
  private splitter = new BlockSplitter()
  private readonly base: Style
  private out = ''
  /** Something was written: the next top-level block starts after a blank line. */
  private wrote = false
  private para: {segmenter: ParagraphSegmenter; wrapper: LineWrapper} | undefined
  private fence: (Code & {width: number; info: string}) | undefined
  private list: {number: number; ordered: boolean} | undefined
  private highlighter: Highlighter | undefined
  private loading: Promise<void> | undefined
  /** Events waiting for the highlighter. */
  private held: SplitEvent[] = []
  private ended = false

  constructor(private readonly opts: MarkdownRenderOptions) {
    this.base = opts.base ?? PLAIN
    this.wrote = opts.continues === true
    this.highlightSpent = opts.highlightSpent ?? 0
    if (opts.highlighted && opts.loadHighlighter) {
      // Held until it is loaded, as at a first fence.
      this.loading = opts.loadHighlighter().then(
        (h) => this.loaded(h),
        () => this.loaded(undefined),
      )
    }
  }

  /**
   * Between blocks, with everything rendered returned: the options with which
   * a new renderer fed the rest of the answer renders exactly what this one
   * would (test/markdown/hand-off.test.ts); undefined when not between blocks.
   */
  idle(): {continues: boolean; highlighted: boolean; highlightSpent: number} | undefined {
    const idle = this.splitter.idle() && !this.para && !this.fence && !this.list && !this.loading && this.held.length === 0 && this.out === ''
    return idle ? {continues: this.wrote, highlighted: this.highlighter !== undefined, highlightSpent: this.highlightSpent} : undefined
  }

  /** Characters of code highlighted so far in this answer (HIGHLIGHT_ANSWER_MAX). */
  private highlightSpent: number

  /** Feeds more (sanitized) text; returns the bytes it renders. */
  push(text: string): string {
    this.keepSinceIdle(text)
    this.run(this.splitter.push(text))
    return this.take()
  }

  /**
   * The text since the renderer was last idle (between blocks), and whether
   * it had written by then: what `goOn` needs to undo a cut. Undefined past
   * SINCE_IDLE_MAX of it (decided by the text, so any chunking agrees).
   */
  private sinceIdle: {text: string; wrote: boolean; spent: number} | undefined = {text: '', wrote: false, spent: 0}

  private keepSinceIdle(text: string): void {
    if (this.idle()) this.sinceIdle = {text: '', wrote: this.wrote, spent: this.highlightSpent}
    if (!this.sinceIdle) return
    if (this.sinceIdle.text.length + text.length > SINCE_IDLE_MAX) this.sinceIdle = undefined
    else this.sinceIdle.text += text
  }

  /** The text ended: renders what is still open. */
  end(): string {
    this.ended = true
    this.run(this.splitter.end())
    return this.take()
  }

  /**
   * Resolves when the renderer no longer waits for its highlighter
   * (immediately when it does not); `take()` then returns what was held.
   */
  get waiting(): Promise<void> | undefined {
    return this.loading
  }

  /** Output not yet returned by push/end (after `waiting` resolved). */
  take(): string {
    const s = this.out
    this.out = ''
    return showFormatChars(s)
  }

  /**
   * An interrupt cut the answer here (a menu opens): everything held back
   * (a partial word, a line not yet known to be a paragraph) is rendered as
   * if the text ended, so the screen shows all the text the store keeps;
   * text after it, if the answer goes on, starts a new block. Not while
   * waiting for the highlighter (the held events come first).
   */
  cut(): string {
    if (this.loading) return ''
    this.beforeCut = this.sinceIdle
    this.run(this.splitter.end())
    this.splitter = new BlockSplitter()
    this.list = undefined
    this.sinceIdle = undefined
    return this.take()
  }

  /** What `sinceIdle` was when the answer was cut (undefined: not cut, or too long to go back to). */
  private beforeCut: {text: string; wrote: boolean; spent: number} | undefined

  /**
   * The cut answer goes on after all (`c` at the menu), on a line below
   * the menu: the renderer is put back as it was before the cut (a renderer
   * fed the text since the last idle point again, its output dropped: it
   * was shown), so a word the cut showed in part is shown whole again and
   * a list or paragraph goes on as one. Where that text is too long to
   * keep (or a highlighter would have to load first), the rest starts a
   * new block, as after any cut.
   */
  goOn(): void {
    const before = this.beforeCut
    this.beforeCut = undefined
    if (!before || this.loading) return
    const again = new MarkdownRenderer({...this.opts, continues: before.wrote, highlighted: false, highlightSpent: before.spent})
    again.highlighter = this.highlighter
    again.push(before.text)
    if (again.loading) return
    again.lineBroken()
    again.out = ''
    Object.assign(this, again)
  }

  /** The terminal line was ended by other output (chrome, a menu): go on on a fresh line. */
  lineBroken(): void {
    if (this.para) {
      this.out += this.para.wrapper.take()
      this.para.wrapper.lineBroken()
    }
  }

  private run(events: SplitEvent[]): void {
    for (const ev of events) {
      if (this.loading || this.held.length > 0) {
        this.held.push(ev)
        continue
      }
      this.event(ev)
    }
  }

  private event(ev: SplitEvent): void {
    switch (ev.type) {
      case 'para':
        return this.paraText(ev.text)
      case 'para-end':
        return this.paraEnd()
      case 'fence-open':
        return this.fenceOpen(ev.info)
      case 'fence-line':
        return this.fenceLine(ev.text)
      case 'fence-close':
        return this.fenceClose()
      case 'list-item':
        return this.listItem(ev)
      case 'list-end':
        this.list = undefined
        return
      case 'block':
        return this.block(ev.kind, ev.source)
    }
  }

  private width(): number {
    const c = Math.floor(this.opts.columns())
    return Math.min(MAX_WIDTH, Math.max(8, Number.isFinite(c) && c > 0 ? c : 80))
  }

  private gap(): void {
    if (this.wrote) this.out += '\n'
    this.wrote = true
  }

  private style(s: Style | undefined): Style {
    return merge(this.base, s)
  }

  // ---- paragraphs (streamed) ----

  private paraText(text: string): void {
    if (!this.para) {
      this.gap()
      this.para = {segmenter: new ParagraphSegmenter(), wrapper: new LineWrapper({width: this.width(), color: this.opts.color})}
    }
    this.segments(this.para.segmenter.push(text), this.para.wrapper)
    this.out += this.para.wrapper.take()
  }

  private paraEnd(): void {
    if (!this.para) return
    const {segmenter, wrapper} = this.para
    this.segments(segmenter.end(), wrapper)
    wrapper.finish()
    this.out += wrapper.take()
    this.para = undefined
  }

  private segments(segments: Segment[], w: LineWrapper): void {
    for (const seg of segments) {
      let text = seg.text
      if (seg.plain !== undefined && this.base === PLAIN) {
        w.plainSegment(text, true, seg.plain === 'ascii')
        continue
      }
      const softEnd = seg.space === '' || !seg.space.includes('\n')
      if (softEnd && this.base === PLAIN && !INLINE_SYNTAX.test(text)) {
        // Plain words (no inline syntax, so no tab or double space either) and a soft space.
        w.plainSegment(text, seg.space !== '')
        continue
      }
      // A backslash before the newline is a hard break: the segment ends at it.
      const backslashBreak = seg.space.startsWith('\n') && /(^|[^\\])(\\\\)*\\$/.test(text)
      if (backslashBreak) text = text.slice(0, -1)
      this.inlineSource(text, w, this.base)
      if (seg.space === '') continue
      const nl = seg.space.indexOf('\n')
      if (backslashBreak || (nl >= 2 && /^ {2,}$/.test(seg.space.slice(0, nl).replace(/\t/g, '  ')))) w.hardBreak()
      else w.space()
    }
  }

  /** Inline markdown source into `w`: plain text directly, anything else through the parser. */
  private inlineSource(src: string, w: LineWrapper, style: Style): void {
    if (src === '') return
    if (!INLINE_SYNTAX.test(src)) {
      w.text(src.replace(/\t/g, ' '), style)
      return
    }
    this.inline(this.inlineTokens(src), w, style)
  }

  /** Inline tokens into a wrapper. */
  private inline(tokens: readonly Token[], w: InlineSink, style: Style): void {
    const stack: Style[] = [style]
    let cur = style
    let link: {href: string; auto: boolean; text: string; url: string | undefined} | undefined
    for (const t of tokens) {
      switch (t.type) {
        case 'text':
        case 'text_special':
        case 'html_inline':
          if (link) link.text += t.content
          w.text(spaced(t.content), cur, link?.url)
          break
        case 'code_inline':
          if (link) link.text += t.content
          w.text(spaced(t.content), merge(cur, ELEMENT.code), link?.url)
          break
        case 'softbreak':
          w.space()
          break
        case 'hardbreak':
          w.hardBreak()
          break
        case 'strong_open':
          stack.push((cur = merge(cur, ELEMENT.strong)))
          break
        case 'em_open':
          stack.push((cur = merge(cur, ELEMENT.em)))
          break
        case 's_open':
          stack.push((cur = merge(cur, ELEMENT.strike)))
          break
        case 'strong_close':
        case 'em_close':
        case 's_close':
          if (stack.length > 1) stack.pop()
          cur = stack[stack.length - 1]
          break
        case 'link_open': {
          const href = String(t.attrGet('href') ?? '')
          link = {href, auto: t.markup === 'autolink' || t.markup === 'linkify', text: '', url: this.opts.hyperlinks ? safeUrl(href) : undefined}
          stack.push((cur = merge(cur, ELEMENT.link)))
          break
        }
        case 'link_close':
          if (stack.length > 1) stack.pop()
          cur = stack[stack.length - 1]
          if (link && !link.auto && link.href !== '' && link.href !== link.text && link.href !== `mailto:${link.text}`) {
            w.space()
            w.text(`(${link.href})`, merge(cur, ELEMENT.url))
          }
          link = undefined
          break
        case 'image': {
          const alt = t.content || 'image'
          const src = String(t.attrGet('src') ?? '')
          w.text(`[image: ${alt}]`, merge(cur, ELEMENT.link), this.opts.hyperlinks && src ? safeUrl(src) : undefined)
          if (src !== '') {
            w.space()
            w.text(`(${src})`, merge(cur, ELEMENT.url))
          }
          break
        }
        default:
          if (t.children) this.inline(t.children, w, cur)
          else if (t.content) w.text(t.content, cur)
      }
    }
  }

  // ---- fenced code (streamed line by line) ----

  private fenceOpen(info: string): void {
    this.gap()
    const width = this.width()
    this.fence = {info, lines: [], from: 0, width}
    if (info !== '' && this.opts.loadHighlighter && !this.highlighter) {
      // Hold everything from here until the highlighter is ready.
      const load = this.opts.loadHighlighter()
      this.loading = load.then(
        (h) => this.resumeWith(h),
        () => this.resumeWith(undefined),
      )
      return
    }
    this.openFrame()
  }

  private resumeWith(h: Highlighter | undefined): void {
    this.loaded(h, () => this.openFrame())
  }

  /** The highlighter is loaded (or failed to): `first` (the fence that asked for it), then what was held. */
  private loaded(h: Highlighter | undefined, first?: () => void): void {
    this.highlighter = h
    this.loading = undefined
    // Without a highlighter (it failed to load) code is plain: never again try.
    if (!h) this.opts.loadHighlighter = undefined
    first?.()
    const held = this.held
    this.held = []
    this.run(held)
  }

  private openFrame(): void {
    const f = this.fence!
    f.language = f.info !== '' ? this.highlighter?.language(f.info) : undefined
    const label = f.info.split(/\s/)[0]
    const head = label === '' ? '┌' : `┌─ ${label} `
    this.out += this.framed(head + '─'.repeat(Math.max(0, f.width - cells(head))), f.width) + '\n'
  }

  private framed(rule: string, width: number): string {
    return paint(cells(rule) <= width ? rule : hardSplit(rule, width)[0], this.style(ELEMENT.codeFrame), this.opts.color)
  }

  private fenceLine(text: string): void {
    const f = this.fence!
    f.lines.push(text)
    if (f.lines.length > 64) {
      const drop = f.lines.length - 64
      f.lines.splice(0, drop)
      f.from = Math.max(0, f.from - drop)
    }
    this.out += this.codeLine(this.codePieces(f, text))
  }

  /** The pieces of `text`, the block's newest line (already in `f.lines`). */
  private codePieces(f: Code, text: string): Piece[] {
    if (f.language && this.highlighter && (text.length > HIGHLIGHT_LINE_MAX || this.highlightSpent >= HIGHLIGHT_ANSWER_MAX)) {
      // Too long to highlight in time (some grammars take time growing with the square of a line), or past
      // the answer's budget: plain, and the next line starts afresh.
      f.from = f.lines.length
    } else if (f.language && this.highlighter) {
      this.highlightSpent += text.length
      f.from = withinHighlightBudget(f.lines, f.from)
      const lines = f.from === f.lines.length - 1 ? [text] : f.lines.slice(f.from)
      const {pieces, ground} = this.highlighter.lastLine(f.language, lines, 0, CODE_THEMES[this.opts.codeTheme])
      if (ground) f.from = f.lines.length
      // The highlighter's pieces are new: with no base style they are what is painted.
      return this.base === PLAIN ? pieces : pieces.map((p) => ({text: p.text, style: this.style(p.style)}))
    }
    return [{text, style: this.base}]
  }

  /**
   * One code line as it is copied (SPEC §19): nothing before or after it on
   * its line, never cut (the terminal soft-wraps a long one), tabs kept (the
   * terminal's stops are the source's: the line starts at column 0). Each
   * piece ends with a reset, so nothing painted runs on past the code.
   */
  private codeLine(pieces: Piece[]): string {
    return (this.opts.codeMark ?? '') + paintPieces(pieces, this.opts.color) + '\n'
  }

  private fenceClose(): void {
    const f = this.fence
    if (!f) return
    this.out += this.framed('└' + '─'.repeat(Math.max(0, f.width - 1)), f.width) + '\n'
    this.fence = undefined
  }

  // ---- lists (item by item) ----

  private listItem(ev: Extract<SplitEvent, {type: 'list-item'}>): void {
    if (ev.first || !this.list) {
      this.gap()
      this.list = {number: ev.start, ordered: ev.ordered}
    } else if (ev.loose) this.out += '\n'
    const q = this.opts.quick !== false ? QUICK_ITEM.exec(ev.source) : null
    if (q) {
      // One line of paragraph text after the marker: what item() does with markdown-it's tokens for it.
      const marker = this.list.ordered ? `${this.list.number}.` : '•'
      this.list.number++
      const markerStyle = this.style(ELEMENT.marker)
      const width = this.width()
      const text = asciiTrim(q[1])
      const plain = this.base === PLAIN && isPlainAscii(text)
      const markerWidth = cells(marker)
      if (plain && markerWidth + 1 + text.length <= width) {
        // Plain words that fit on the marker's line: what the wrapper below writes for them.
        this.out += paint(marker, markerStyle, this.opts.color) + ' ' + text + '\n'
        return
      }
      const first: Piece[] = [{text: marker, style: markerStyle}, {text: ' ', style: PLAIN}]
      const w = new LineWrapper({width, first, rest: [{text: ' '.repeat(markerWidth + 1), style: PLAIN}], color: this.opts.color})
      // Plain words: what inline() does with the one text token, without it.
      if (plain) w.plainSegment(text, false, true)
      else this.inline(this.inlineTokens(text), w, this.base)
      w.finish()
      this.out += w.take()
      return
    }
    const tokens = this.opts.md.parse(ev.source, {})
    const open = tokens.findIndex((t) => t.type === 'list_item_open')
    if (open < 0) {
      // The parser saw no list (cannot happen for a marker line): show it as a paragraph.
      this.blockTokens(tokens, 0, tokens.length, {width: this.width(), first: [], rest: []})
      return
    }
    const close = matching(tokens, open)
    const marker = this.list.ordered ? `${this.list.number}.` : '•'
    this.list.number++
    this.item(tokens, open, close, marker, {width: this.width(), first: [], rest: []}, 1, true)
  }

  // ---- whole blocks ----

  private block(kind: string, source: string): void {
    this.gap()
    const width = this.width()
    if (kind === 'definition') {
      const w = new LineWrapper({width, color: this.opts.color})
      w.text(source.trim(), this.style(ELEMENT.url))
      w.finish()
      this.out += w.take()
      return
    }
    const h = kind === 'heading' && this.opts.quick !== false ? QUICK_HEADING.exec(source) : null
    if (h) {
      const text = asciiTrim(h[2])
      if (!this.oneLineHeading(h[1].length, text, width)) this.heading(h[1].length, this.inlineTokens(text), {width, first: [], rest: []})
      return
    }
    if (kind === 'table') {
      this.out += this.tableText(source, width)
      return
    }
    const tokens = this.opts.md.parse(source, {})
    this.blockTokens(tokens, 0, tokens.length, {width, first: [], rest: []})
  }

  /** A table block's bytes at `width` (nothing else rendered is touched: the preview uses it too). */
  private tableText(source: string, width: number): string {
    const ctx: Ctx = {width, first: [], rest: []}
    const t = this.opts.quick !== false ? quickTable(source) : undefined
    if (t) {
      const rows = t.rows.map((row, r) => row.map((content, k) => ({children: this.inlineTokens(content), header: r === 0, align: t.aligns[k]})))
      return this.tableRows(rows, ctx)
    }
    const before = this.out
    this.out = ''
    const tokens = this.opts.md.parse(source, {})
    this.blockTokens(tokens, 0, tokens.length, ctx)
    const out = this.out
    this.out = before
    return out
  }

  /** The last preview, kept while the table's source is the same. */
  private previewed: {source: string; width: number; out: string} | undefined

  /**
   * What a table being read would show if it ended now (its blank line
   * before it included), for a live region the printer draws below the
   * output and erases before anything else is written (printer.ts
   * `setLive`): its rows show as they come, at the widths they give so far,
   * while what `push` returns stays the table drawn once, when its last
   * line is known (so the bytes do not depend on chunking, and what is
   * copied is the finished table). '' when no table is open, or while the
   * renderer waits for its highlighter.
   */
  preview(): string {
    if (this.loading || this.held.length > 0) return ''
    const source = this.splitter.openTable()
    if (source === undefined) return ''
    const width = this.width()
    if (this.previewed?.source === source && this.previewed.width === width) return this.previewed.out
    const out = showFormatChars((this.wrote ? '\n' : '') + this.tableText(source, width))
    this.previewed = {source, width, out}
    return out
  }

  /** The inline tokens markdown-it gives `src` as a paragraph's, heading's or item's content (src trimmed, one line). */
  private inlineTokens(src: string): readonly Token[] {
    // Past the layout budget (a delimiter run no answer needs: 50,000 nested emphases), the text as it is.
    if (DELIMITER_RUN.test(src)) return [plainToken(src)]
    return (this.opts.quick !== false ? quickInline(src, this.opts.md) : undefined) ?? this.opts.md.parseInline(src, {})[0]?.children ?? []
  }

  /** Renders the block tokens in [from, to) one after another, each starting on its own line. */
  private blockTokens(tokens: Token[], from: number, to: number, ctx: Ctx, depth = 0, tight = false): void {
    let first = true
    for (let i = from; i < to; ) {
      const t = tokens[i]
      const end = t.nesting === 1 ? matching(tokens, i) : i
      const c: Ctx = first ? ctx : {...ctx, first: ctx.rest}
      if (!first && !tight) this.out += paintPieces(trimEnd(ctx.rest), this.opts.color) + '\n'
      this.blockToken(tokens, i, end, c, depth)
      first = false
      i = end + 1
    }
  }

  private blockToken(tokens: Token[], i: number, end: number, ctx: Ctx, depth: number): void {
    const t = tokens[i]
    switch (t.type) {
      case 'paragraph_open': {
        const w = new LineWrapper({width: ctx.width, first: ctx.first, rest: ctx.rest, color: this.opts.color})
        this.inline(tokens[i + 1].children ?? [], w, this.base)
        w.finish()
        this.out += w.take()
        return
      }
      case 'heading_open':
        return this.heading(Number(t.tag.slice(1)), tokens[i + 1].children ?? [], ctx)
      case 'hr': {
        const room = Math.max(1, ctx.width - piecesWidth(ctx.first))
        this.out += paintPieces(ctx.first, this.opts.color) + paint('─'.repeat(room), this.style(ELEMENT.rule), this.opts.color) + '\n'
        return
      }
      case 'fence':
      case 'code_block': {
        const info = t.type === 'fence' ? t.info.trim() : ''
        const language = info !== '' ? this.highlighter?.language(info) : undefined
        const lines = t.content.replace(/\n$/, '').split('\n')
        const label = info.split(/\s/)[0]
        const room = Math.max(2, ctx.width - piecesWidth(ctx.first))
        const head = label === '' ? '┌' : `┌─ ${label} `
        this.out += paintPieces(ctx.first, this.opts.color) + this.framed(head + '─'.repeat(Math.max(0, room - cells(head))), room) + '\n'
        const f: Code = {language, lines: [], from: 0}
        for (const line of lines) {
          f.lines.push(line)
          this.out += this.codeLine(this.codePieces(f, line))
        }
        this.out += paintPieces(ctx.rest, this.opts.color) + this.framed('└' + '─'.repeat(room - 1), room) + '\n'
        return
      }
      case 'blockquote_open': {
        const bar: Piece = {text: '│ ', style: this.style(ELEMENT.quote)}
        this.blockTokens(tokens, i + 1, end, {width: ctx.width, first: [...ctx.first, bar], rest: [...ctx.rest, bar]}, depth)
        return
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = t.type === 'ordered_list_open'
        let n = ordered ? Number(t.attrGet('start') ?? 1) : 0
        const tight = tokens[i + 2]?.type === 'paragraph_open' ? tokens[i + 2].hidden : true
        let first = true
        for (let j = i + 1; j < end; ) {
          const close = matching(tokens, j)
          const c: Ctx = first ? ctx : {...ctx, first: ctx.rest}
          if (!first && !tight) this.out += paintPieces(trimEnd(ctx.rest), this.opts.color) + '\n'
          this.item(tokens, j, close, ordered ? `${n++}.` : BULLETS[depth % BULLETS.length], c, depth + 1, tight)
          first = false
          j = close + 1
        }
        return
      }
      case 'table_open':
        this.out += this.table(tokens, i, end, ctx)
        return
      default:
        // Anything else with content (html_block with html off cannot occur): as text.
        if (t.content) {
          const w = new LineWrapper({width: ctx.width, first: ctx.first, rest: ctx.rest, color: this.opts.color})
          w.text(t.content.replace(/\s+/g, ' '), this.base)
          w.finish()
          this.out += w.take()
        }
    }
  }

  private heading(level: number, children: readonly Token[], ctx: Ctx): void {
    const marker: Piece = {text: '#'.repeat(level) + ' ', style: this.style(ELEMENT.headingMarker)}
    const w = new LineWrapper({width: ctx.width, first: [...ctx.first, marker], rest: [...ctx.rest, {text: ' '.repeat(level + 1), style: PLAIN}], color: this.opts.color})
    this.inline(children, w, this.style(ELEMENT.heading[level - 1]))
    w.finish()
    this.out += w.take()
  }

  /**
   * A top-level heading of plain words that fits on its line, written as
   * heading() writes it (each word painted alone) without a LineWrapper;
   * false when it is not that.
   */
  private oneLineHeading(level: number, text: string, width: number): boolean {
    if (text === '' || level + 1 + text.length > width || !isPlainAscii(text)) return false
    const style = this.style(ELEMENT.heading[level - 1])
    let out = paint('#'.repeat(level) + ' ', this.style(ELEMENT.headingMarker), this.opts.color)
    for (let from = 0; ; ) {
      const sp = text.indexOf(' ', from)
      out += paint(sp < 0 ? text.slice(from) : text.slice(from, sp), style, this.opts.color)
      if (sp < 0) break
      out += ' '
      from = sp + 1
    }
    this.out += out + '\n'
    return true
  }

  /** A list item (tokens [open, close]) behind its marker. */
  private item(tokens: Token[], open: number, close: number, marker: string, ctx: Ctx, depth: number, tight = true): void {
    let markerText = marker
    let markerStyle = this.style(ELEMENT.marker)
    // A task list item: `[ ]` / `[x]` at the start of its first paragraph.
    const inl = tokens[open + 2]
    if (tokens[open + 1]?.type === 'paragraph_open' && inl?.type === 'inline' && inl.children && inl.children[0]?.type === 'text') {
      const m = /^\[([ xX])\](?: |$)/.exec(inl.children[0].content)
      if (m) {
        const done = m[1] !== ' '
        markerText = done ? '☑' : '☐'
        if (done) markerStyle = this.style(ELEMENT.taskDone)
        inl.children = [{...inl.children[0], content: inl.children[0].content.slice(m[0].length)} as Token, ...inl.children.slice(1)]
      }
    }
    const pad = ' '.repeat(cells(markerText) + 1)
    const c: Ctx = {width: ctx.width, first: [...ctx.first, {text: markerText, style: markerStyle}, {text: ' ', style: PLAIN}], rest: [...ctx.rest, {text: pad, style: PLAIN}]}
    if (open + 1 === close) {
      this.out += paintPieces(c.first, this.opts.color).trimEnd() + '\n'
      return
    }
    this.blockTokens(tokens, open + 1, close, c, depth, tight)
  }

  private table(tokens: Token[], open: number, close: number, ctx: Ctx): string {
    const rows: SourceCell[][] = []
    let row: SourceCell[] | undefined
    for (let j = open; j < close; j++) {
      const t = tokens[j]
      if (t.type === 'tr_open') row = []
      else if (t.type === 'tr_close' && row) rows.push(row)
      else if ((t.type === 'th_open' || t.type === 'td_open') && row) {
        const align = /text-align:(left|right|center)/.exec(String(t.attrGet('style') ?? ''))?.[1] as TableCell['align']
        const children = tokens[j + 1]?.type === 'inline' ? (tokens[j + 1].children ?? []) : []
        row.push({children, header: t.type === 'th_open', align})
      }
    }
    return this.tableRows(rows, ctx)
  }

  private tableRows(source: SourceCell[][], ctx: Ctx): string {
    const rows: TableCell[][] = source.map((row) =>
      row.map((source) => {
        const glued = glueUnits(source.children)
        const cell = glued === source.children ? source : {...source, children: glued}
        const laid = (this.opts.quick !== false ? this.quickCell(cell) : undefined) ?? this.wrappedCell(cell)
        return glued === source.children ? laid : unglued(laid)
      }),
    )
    const room = Math.max(4, ctx.width - piecesWidth(ctx.first))
    const lines = layoutTable(rows, room, {border: this.style(ELEMENT.tableBorder), color: this.opts.color})
    if (lines.length === 0) return ''
    const rest = paintPieces(ctx.rest, this.opts.color)
    let out = paintPieces(ctx.first, this.opts.color) + lines[0] + '\n'
    for (let k = 1; k < lines.length; k++) out += rest + lines[k] + '\n'
    return out
  }

  /** A cell laid out by a LineWrapper at each width asked. */
  private wrappedCell({children, header, align}: SourceCell): TableCell {
    const one = this.cellLines(children, MAX_WIDTH, header)
    const natural = one.reduce((n, l) => Math.max(n, l.width), 0)
    let longest = 0
    for (const l of one) longest = Math.max(longest, longestWord(unpainted(l.text)))
    // Lines that fit the width are what wrapping at it gives: no second layout.
    return {render: (width: number) => (width >= natural ? one : this.cellLines(children, width, header)), natural, min: longest, align}
  }

  /**
   * A cell of one-cell characters (most cells): its words painted once, then
   * laid out at each width without a LineWrapper (the same lines); undefined
   * when that cannot be exact.
   */
  private quickCell({children, header, align}: SourceCell): TableCell | undefined {
    const words = new PaintedWords(this.opts.color)
    this.inline(children, words, this.style(header ? ELEMENT.tableHeader : undefined))
    const one = words.lines(MAX_WIDTH)
    if (!words.exact || !one || one.length > 1) return undefined
    const natural = one.length === 0 ? 0 : one[0].width
    return {render: (width: number) => (width >= natural ? one : (words.lines(width) ?? this.cellLines(children, width, header))), natural, min: words.longest, align}
  }

  /** A cell's inline content wrapped to `width`: its lines, painted, each with its width. */
  private cellLines(children: readonly Token[], width: number, header: boolean): {text: string; width: number}[] {
    const w = new LineWrapper({width, color: this.opts.color})
    this.inline(children, w, this.style(header ? ELEMENT.tableHeader : undefined))
    w.finish()
    const out = w.take()
    if (out === '') return []
    const body = out.endsWith('\n') ? out.slice(0, -1) : out
    const lines = body.includes('\n') ? body.split('\n') : [body]
    const result: {text: string; width: number}[] = []
    for (const text of lines) result.push({text, width: visibleWidth(text)})
    return result
  }
}

/**
 * The highlighting budget (SPEC §19: a block whose highlighting would be too
 * slow is shown plain, never late). Decided by the text alone — a line's
 * length, the length of the context highlighted with it — never by a clock,
 * so the bytes are the same under any chunking (docs/decisions.md). A line
 * longer than this is shown plain: highlight.js takes time growing with the
 * square of such a line in some grammars (Perl's `s/` over 200,000 `a`s took
 * minutes; 1,000 characters take milliseconds).
 */
export const HIGHLIGHT_LINE_MAX = 1000
/** The lines a line is highlighted after (its context, at most highlight.ts CONTEXT_LINES) hold at most this many characters. */
export const HIGHLIGHT_CONTEXT_MAX = 4000
/**
 * An answer's code lines are highlighted until they have held this many
 * characters; code after that is plain. highlight.js takes ~0.1 ms a line
 * of TypeScript (its joined expression tried at every token), so a
 * megabyte of code took a render worker over a second more than showing it
 * raw; 256 kB (~6,000 lines: far more code than an answer holds) bounds
 * that to a quarter while no ordinary answer reaches it.
 */
export const HIGHLIGHT_ANSWER_MAX = 256 * 1024

/** Where a line's context starts so that it and the line hold at most HIGHLIGHT_CONTEXT_MAX characters. */
function withinHighlightBudget(lines: readonly string[], from: number): number {
  let start = lines.length - 1
  let size = lines[start].length
  while (start > from && size + lines[start - 1].length <= HIGHLIGHT_CONTEXT_MAX) size += lines[--start].length
  return start
}

/**
 * The layout budget of inline text, decided by the text (as the highlighting
 * budget is): a run of more emphasis or strike delimiters than this is not
 * emphasis anyone writes, and markdown-it takes a second over 100 kB of it.
 */
const DELIMITER_RUN = /[*_~]{65}/

/** A text token of `content` (what inline() reads of one). */
function plainToken(content: string): Token {
  return {type: 'text', content, children: null} as unknown as Token
}

/**
 * A number and the unit after it (`0.01 ms`, `120 MB`, `0.2 %`): in a table
 * cell they are one word, never put on two lines.
 */
const NUMBER_UNIT = /(\d) (?=(?:[kKMGTP]i?B|B|[mµun]?s|min|h|%|px|em|°[CF]|[kMG]?Hz|x|×|req\/s|ops\/s)(?![\p{L}\p{N}_]))/gu
const NO_BREAK = '\u00a0'

/** The cell's inline tokens with a no-break space between each number and its unit (the same tokens when there is none). */
function glueUnits(children: readonly Token[]): readonly Token[] {
  let changed = false
  const out = children.map((t) => {
    if (t.type !== 'text' || !/\d /.test(t.content)) return t
    const content = t.content.replace(NUMBER_UNIT, `$1${NO_BREAK}`)
    if (content === t.content) return t
    changed = true
    return Object.assign(Object.create(Object.getPrototypeOf(t) as object) as Token, t, {content})
  })
  return changed ? out : children
}

/** A cell laid out with glued units, shown with ordinary spaces again (the copy of a cell is its text). */
function unglued(cell: TableCell): TableCell {
  const plainSpace = (lines: {text: string; width: number}[]) => lines.map((l) => (l.text.includes(NO_BREAK) ? {text: l.text.replaceAll(NO_BREAK, ' '), width: l.width} : l))
  return {...cell, render: (width) => plainSpace(cell.render(width))}
}

/** A code block's highlighting state: its recent lines, and where the next line's context starts. */
interface Code {
  language?: string
  lines: string[]
  from: number
}

/** A table cell as parsed: its inline tokens. */
interface SourceCell {
  children: readonly Token[]
  header: boolean
  align: TableCell['align']
}

interface Ctx {
  width: number
  first: Piece[]
  rest: Piece[]
}

const BULLETS = ['•', '◦', '▪']

/**
 * Blocks markdown-it reads one way only, rendered without its block parser:
 * an ATX heading of one line with no `#` after its marker (no closing
 * sequence to strip: the content is the rest, trimmed), and a list item of
 * one line whose text starts with a letter or a quote (no nested block, no
 * task box, no definition can start there) one to four spaces after its
 * marker (more is indented code). No CR or NUL (markdown-it normalises them).
 */
const QUICK_HEADING = /^(#{1,6}) ([^#\r\n\u0000]*)$/
/** markdown-it's trim of heading and paragraph content: ASCII blanks only (a no-break space stays). */
function isBlank(c: number): boolean {
  return c === 32 || c === 9
}

function asciiTrim(s: string): string {
  let from = 0
  let to = s.length
  while (from < to && isBlank(s.charCodeAt(from))) from++
  while (to > from && isBlank(s.charCodeAt(to - 1))) to--
  return from === 0 && to === s.length ? s : s.slice(from, to)
}
const QUICK_ITEM = /^(?:[-+*]|\d{1,9}[.)]) {1,4}([A-Za-z"'(][^\r\n\u0000]*)$/

function matching(tokens: Token[], open: number): number {
  const t = tokens[open]
  if (t.nesting !== 1) return open
  const closeType = t.type.replace(/_open$/, '_close')
  for (let j = open + 1; j < tokens.length; j++) if (tokens[j].type === closeType && tokens[j].level === t.level) return j
  return tokens.length - 1
}

const TAB_OR_NEWLINE = /[\t\n]/
const TABS_AND_NEWLINES = /[\t\n]/g

/** Inline text with its tabs and newlines as spaces (the wrapper breaks at spaces only). */
function spaced(text: string): string {
  return TAB_OR_NEWLINE.test(text) ? text.replace(TABS_AND_NEWLINES, ' ') : text
}

function piecesWidth(pieces: readonly Piece[]): number {
  return pieces.reduce((n, p) => n + cells(p.text), 0)
}

function trimEnd(pieces: readonly Piece[]): Piece[] {
  const out = pieces.map((p) => ({...p}))
  while (out.length > 0) {
    const last = out[out.length - 1]
    last.text = last.text.trimEnd()
    if (last.text !== '') break
    out.pop()
  }
  return out
}

// eslint-disable-next-line no-control-regex
const SGR_OR_OSC = /\u001b\[[0-9;]*m|\u001b\]8;;[^\u001b]*\u001b\\/g

/** Painted text without its SGR and OSC 8 (ours: they take no cells). */
function unpainted(text: string): string {
  return text.includes('\u001b') ? text.replace(SGR_OR_OSC, '') : text
}

/** Cells of painted text. */
function visibleWidth(text: string): number {
  return cells(unpainted(text))
}
