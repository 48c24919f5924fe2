// The block splitter (JP RFD 004/089): decides, as the answer streams in,
// where one markdown block ends and the next begins, and how much of a block
// may be shown before it ends. The CommonMark parser (markdown-it) needs
// whole input; a block is a valid document, so each block the splitter
// emits is parsed on its own. This file knows just enough block grammar to
// find the boundaries; inline syntax is the renderer's and the parser's.
//
// What streams, and when:
// - a fenced code block: its opening line, each content line, its close;
// - a top-level paragraph: its text as soon as it is known to be paragraph
//   text (a line whose lead cannot start a block is a paragraph from its first
//   character; after a newline the next line's lead must rule out every block
//   that can interrupt a paragraph) and the paragraph is past SETEXT_GATE
//   bytes, so that a short `Title` + `===` still becomes a heading;
// - a list: item by item (an item ends where the next one starts);
// - everything else (headings, rules, tables, quotes, indented code) once its
//   last line is known.
//
// Every decision is a function of the text alone, never of where a chunk
// ended: the splitter only waits when the text so far cannot decide, and
// then decides exactly as it would on the whole text. That is what makes the
// rendered bytes identical at any chunking (test/markdown/streaming.test.ts).

/** A paragraph's first bytes are held until it is longer than this (a setext heading is shorter). */
export const SETEXT_GATE = 40

export type BlockKind = 'heading' | 'hr' | 'table' | 'quote' | 'code' | 'definition'

export type SplitEvent =
  /** A whole block, to be parsed and rendered at once. */
  | {type: 'block'; kind: BlockKind; source: string}
  /** More source of the current top-level paragraph (lines joined by \n, no final newline). */
  | {type: 'para'; text: string}
  | {type: 'para-end'}
  | {type: 'fence-open'; info: string}
  | {type: 'fence-line'; text: string}
  /** `closed` is false for a fence the answer never closed. */
  | {type: 'fence-close'; closed: boolean}
  /** One whole list item (marker included); `loose` when a blank line separated it from the previous one. */
  | {type: 'list-item'; source: string; ordered: boolean; start: number; first: boolean; loose: boolean}
  | {type: 'list-end'}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/
const ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/
const HR = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/
const LIST_MARKER = /^( {0,3})([-+*]|\d{1,9}[.)])(?=[ \t]|$)/
const QUOTE = /^ {0,3}>/
const INDENTED = /^(?: {4}|\t| {0,3}\t)/
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/
const DEFINITION = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:/
const TABLE_LEAD = /^ {0,3}\|/
const BLANK = /^[ \t]*$/
/** A line whose first non-blank character is one of these may start a block: decided only at its newline. */
const BLOCK_LEAD = /^[ \t]*(?:[#`~\-*_+>[|0-9]|$)/
/** ...and after a paragraph line, one of these may interrupt the paragraph (or underline it). */
const INTERRUPT_LEAD = /^[ \t]*(?:[#`~\-*_+>|=0-9]|$)/

/** A top-level paragraph: its lines so far, what of it is shown, and where its first line's first `|` is (-1: none in its first `barScanned` characters). */
interface Para {
  kind: 'para'
  lines: number
  held: string
  shown: number
  firstLine: string
  bar: number
  barScanned: number
}

const newPara = (): Para => ({kind: 'para', lines: 0, held: '', shown: 0, firstLine: '', bar: -1, barScanned: 0})

type Mode =
  | {kind: 'none'}
  | Para
  | {kind: 'fence'; char: string; length: number; indent: number}
  | {kind: 'lines'; block: 'table' | 'quote' | 'code'; lines: string[]}
  | {kind: 'table-head'; line: string}
  | {kind: 'list'; ordered: boolean; marker: string; start: number; item: string[]; indent: number; first: boolean; loose: boolean; blank: boolean; fence?: {char: string; length: number}}

export class BlockSplitter {
  private text = ''
  private pos = 0
  private mode: Mode = {kind: 'none'}
  private out: SplitEvent[] = []
  /** In paragraph mode: how much of the current (unfinished) line is known to be paragraph text. */
  private partialShown = 0

  /** Feeds more of the answer; returns the events it completes. */
  push(chunk: string): SplitEvent[] {
    if (this.paraLineGoesOn(chunk)) return this.take()
    const kind = this.mode.kind
    if (kind !== 'para' && kind !== 'none' && kind !== 'list' && !chunk.includes('\n')) {
      // Inside a block whose unfinished line shows nothing (a code line): kept until its newline without reading
      // (and so flattening) the line again at every chunk, which took time growing with the square of a long line.
      this.text += chunk
      return this.take()
    }
    const rest = this.pos === 0 ? this.text : this.text.slice(this.pos)
    this.text = rest + chunk
    this.pos = 0
    // What was left holds no newline (pump() stopped there).
    this.pump(rest.length)
    return this.take()
  }

  /**
   * The common case of a long paragraph line, decided from the chunk alone:
   * what pump() and partial() do when a chunk without a newline continues a
   * paragraph's first line that is shown so far, without reading (and so
   * copying) the whole line again at every chunk. False when it is not that
   * case (nothing done).
   */
  private paraLineGoesOn(chunk: string): boolean {
    const p = this.mode
    if (p.kind !== 'para' || p.lines !== 0 || p.held !== '' || chunk === '' || chunk.includes('\n')) return false
    const line = this.pos === 0 ? this.text : this.text.slice(this.pos)
    const before = line.length
    // Shown up to the line's end, its `|` search up to there too (so only the chunk is new).
    if (this.partialShown !== before || p.shown !== before || (p.bar < 0 && p.barScanned !== before)) return false
    this.text = line + chunk
    this.pos = 0
    const length = before + chunk.length
    this.partialShown = length
    // release(p, line + chunk): the first `|` (a table's header may still come), then the new text up to it.
    if (p.bar < 0) {
      const k = chunk.indexOf('|')
      p.bar = k < 0 ? -1 : before + k
      p.barScanned = length
    }
    const allowed = p.bar >= 0 ? Math.min(length, p.bar) : length
    if (allowed <= SETEXT_GATE || allowed <= p.shown) return true
    this.out.push({type: 'para', text: chunk.slice(0, allowed - before)})
    p.shown = allowed
    return true
  }

  /** The answer ended: everything still open is closed as it stands. */
  end(): SplitEvent[] {
    const rest = this.text.slice(this.pos)
    this.text = ''
    this.pos = 0
    if (rest !== '') this.line(rest)
    this.close()
    return this.take()
  }

  /**
   * Between blocks with nothing pending: every event so far is taken, no block
   * is open and no text is waiting for its line's end. A new splitter fed the
   * rest of the answer from here splits it exactly as this one would.
   */
  idle(): boolean {
    return this.mode.kind === 'none' && this.pos === this.text.length && this.out.length === 0
  }

  /**
   * The table being read, as its source so far (its complete lines, and the
   * unfinished one when it starts as a row does), for a preview drawn while
   * it streams (render.ts `preview`); undefined when no table is open.
   */
  openTable(): string | undefined {
    const m = this.mode
    if (m.kind !== 'lines' || m.block !== 'table') return undefined
    const rest = this.text.slice(this.pos)
    return TABLE_LEAD.test(rest) ? m.lines.join('\n') + '\n' + rest : m.lines.join('\n')
  }

  private take(): SplitEvent[] {
    const out = this.out
    this.out = []
    return out
  }

  /** Takes the complete lines; the first newline is not before `from`. */
  private pump(from = 0): void {
    for (;;) {
      const nl = this.text.indexOf('\n', Math.max(this.pos, from))
      if (nl < 0) break
      const line = this.text.slice(this.pos, nl)
      this.pos = nl + 1
      this.line(line)
    }
    this.partial(this.text.slice(this.pos))
  }

  /** The unfinished last line: only a paragraph's text can be shown before its newline. */
  private partial(rest: string): void {
    let m = this.mode
    if (rest === '') return
    if (m.kind === 'list' && m.blank && !m.fence && !/^[ \t]/.test(rest) && !BLOCK_LEAD.test(rest)) {
      // After a blank line, an unindented line that starts no block ends the list (as listLine decides).
      this.emitItem(m)
      this.out.push({type: 'list-end'})
      this.mode = m = {kind: 'none'}
    }
    if (m.kind === 'none') {
      if (BLOCK_LEAD.test(rest) || INDENTED.test(rest)) return
      this.mode = newPara()
      this.partialShown = 0
    } else if (m.kind !== 'para') return
    const p = this.mode as Para
    // A continuation line is paragraph text once its lead rules out an interruption.
    if (p.lines > 0 && INTERRUPT_LEAD.test(rest)) return
    if (rest.length > this.partialShown) {
      this.partialShown = rest.length
      this.release(p, p.lines > 0 ? '\n' + rest : rest)
    }
  }

  /** One complete line (without its newline). */
  private line(line: string): void {
    const m = this.mode
    switch (m.kind) {
      case 'none':
        return this.startBlock(line)
      case 'para':
        return this.paraLine(m, line)
      case 'fence':
        return this.fenceLine(m, line)
      case 'lines':
        return this.blockLine(m, line)
      case 'table-head':
        return this.tableHead(m, line)
      case 'list':
        return this.listLine(m, line)
    }
  }

  private startBlock(line: string): void {
    if (BLANK.test(line)) return
    let f: RegExpExecArray | null
    if ((f = FENCE_OPEN.exec(line)) && !(f[2][0] === '`' && f[3].includes('`'))) {
      this.mode = {kind: 'fence', char: f[2][0], length: f[2].length, indent: f[1].length}
      this.out.push({type: 'fence-open', info: f[3].trim()})
      return
    }
    if (ATX.test(line)) return void this.out.push({type: 'block', kind: 'heading', source: line})
    if (HR.test(line)) return void this.out.push({type: 'block', kind: 'hr', source: line})
    const li = LIST_MARKER.exec(line)
    if (li) return this.startList(line, li)
    if (QUOTE.test(line)) return void (this.mode = {kind: 'lines', block: 'quote', lines: [line]})
    if (INDENTED.test(line)) return void (this.mode = {kind: 'lines', block: 'code', lines: [line]})
    if (TABLE_LEAD.test(line)) return void (this.mode = {kind: 'table-head', line})
    if (DEFINITION.test(line)) return void this.out.push({type: 'block', kind: 'definition', source: line})
    const p = newPara()
    this.mode = p
    this.addParaLine(p, line)
  }

  private addParaLine(p: Para, line: string): void {
    const text = p.lines === 0 ? line : '\n' + line
    if (p.lines === 0) p.firstLine = line
    p.lines++
    this.partialShown = 0
    this.release(p, text, true)
  }

  /**
   * Paragraph text known so far: `text` is the current line's known part
   * (whole when `complete`). Shown once the paragraph is past the setext
   * gate; a first line holding a `|` is held whole (it may be a table's
   * header) until the next line decides.
   */
  private release(p: Para, text: string, complete = false): void {
    // `known` = everything of the paragraph decided to be paragraph text: held + text (not built unless needed).
    const held = p.held
    if (complete) p.held = held + text
    let allowed = held.length + text.length
    if (p.lines <= 1) {
      const bar = p.lines === 0 || complete ? firstBar(p, complete ? p.firstLine : text) : text.indexOf('|')
      if (bar >= 0) allowed = Math.min(allowed, bar)
    }
    if (allowed <= SETEXT_GATE || allowed <= p.shown) return
    const piece = p.shown >= held.length ? text.slice(p.shown - held.length, allowed - held.length) : (held + text).slice(p.shown, allowed)
    this.out.push({type: 'para', text: piece})
    p.shown = allowed
  }

  private paraLine(p: Para, line: string): void {
    if (p.lines === 0) {
      // The first line was streaming while partial; now it is whole.
      this.addParaLine(p, line)
      return
    }
    if (BLANK.test(line)) return this.endPara(p)
    if (SETEXT.test(line)) {
      if (p.shown === 0) {
        // Still held whole: a setext heading.
        this.mode = {kind: 'none'}
        this.out.push({type: 'block', kind: 'heading', source: p.held + '\n' + line})
        return
      }
      // Already shown as prose: `===` is more prose, `---` a rule after it.
      if (line.trim()[0] === '=') return this.addParaLine(p, line)
      this.endPara(p)
      this.out.push({type: 'block', kind: 'hr', source: line})
      return
    }
    if (p.lines === 1 && p.shown === 0 && p.firstLine.includes('|') && isDelimiterRow(line, p.firstLine)) {
      // The held first line is a table's header.
      this.mode = {kind: 'lines', block: 'table', lines: [p.firstLine, line]}
      return
    }
    if (interrupts(line)) {
      this.endPara(p)
      return this.startBlock(line)
    }
    this.addParaLine(p, line)
  }

  private endPara(p: Para): void {
    this.mode = {kind: 'none'}
    if (p.held.length > p.shown) this.out.push({type: 'para', text: p.held.slice(p.shown)})
    this.out.push({type: 'para-end'})
  }

  private fenceLine(m: Extract<Mode, {kind: 'fence'}>, line: string): void {
    const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(line)
    if (close && close[1][0] === m.char && close[1].length >= m.length) {
      this.mode = {kind: 'none'}
      this.out.push({type: 'fence-close', closed: true})
      return
    }
    // Content loses up to the opening fence's indentation.
    let strip = 0
    while (strip < m.indent && line[strip] === ' ') strip++
    this.out.push({type: 'fence-line', text: line.slice(strip)})
  }

  private blockLine(m: Extract<Mode, {kind: 'lines'}>, line: string): void {
    const last = m.lines[m.lines.length - 1]
    let keep: boolean
    if (m.block === 'code') keep = BLANK.test(line) || INDENTED.test(line)
    else if (BLANK.test(line)) keep = false
    else if (m.block === 'quote') keep = QUOTE.test(line) || (!BLANK.test(last) && !interrupts(line) && !/^ {0,3}>[ \t]*$/.test(last))
    else keep = line.includes('|') && (TABLE_LEAD.test(line) || !interrupts(line))
    if (keep) return void m.lines.push(line)
    this.flushLines(m)
    this.startBlock(line)
  }

  private flushLines(m: Extract<Mode, {kind: 'lines'}>): void {
    this.mode = {kind: 'none'}
    const lines = m.lines
    while (lines.length > 0 && BLANK.test(lines[lines.length - 1])) lines.pop()
    this.out.push({type: 'block', kind: m.block, source: lines.join('\n')})
  }

  private tableHead(m: Extract<Mode, {kind: 'table-head'}>, line: string): void {
    if (isDelimiterRow(line, m.line)) {
      this.mode = {kind: 'lines', block: 'table', lines: [m.line, line]}
      return
    }
    // Not a table: the held line starts a paragraph, and this line follows it.
    this.mode = newPara()
    this.addParaLine(this.mode, m.line)
    this.line(line)
  }

  private startList(line: string, li: RegExpExecArray, loose = false, first = true): void {
    const marker = li[2]
    const ordered = /\d/.test(marker[0])
    // Content starts after the marker and 1–4 spaces (one if more: indented code).
    const after = line.slice(li[0].length)
    const spaces = /^[ \t]*/.exec(after)![0].length
    const indent = li[0].length + (after.trim() === '' || spaces > 4 ? 1 : spaces)
    const start = ordered ? Number.parseInt(marker, 10) : 1
    const m: Extract<Mode, {kind: 'list'}> = {kind: 'list', ordered, marker: ordered ? marker[marker.length - 1] : marker, start, item: [line], indent, first, loose, blank: false}
    const fence = FENCE_OPEN.exec(after.replace(/^[ \t]*/, ''))
    if (fence) m.fence = {char: fence[2][0], length: fence[2].length}
    this.mode = m
  }

  private listLine(m: Extract<Mode, {kind: 'list'}>, line: string): void {
    if (m.fence) {
      m.item.push(line)
      const close = /^[ \t]*(`+|~+)[ \t]*$/.exec(line)
      if (close && close[1][0] === m.fence.char && close[1].length >= m.fence.length) m.fence = undefined
      return
    }
    if (BLANK.test(line)) {
      m.item.push(line)
      m.blank = true
      return
    }
    const indent = /^ */.exec(line)![0].length
    if (indent >= m.indent) {
      m.item.push(line)
      m.blank = false
      const fence = FENCE_OPEN.exec(line.slice(m.indent))
      if (fence) m.fence = {char: fence[2][0], length: fence[2].length}
      return
    }
    const li = LIST_MARKER.exec(line)
    if (li && !HR.test(line)) {
      const marker = li[2]
      const ordered = /\d/.test(marker[0])
      const same = ordered === m.ordered && (ordered ? marker[marker.length - 1] === m.marker : marker === m.marker)
      if (same) {
        this.emitItem(m)
        this.startList(line, li, m.blank, false)
        return
      }
    }
    if (!m.blank && !interrupts(line)) {
      // A lazy continuation of the item's last paragraph.
      m.item.push(line)
      return
    }
    this.emitItem(m)
    this.out.push({type: 'list-end'})
    this.mode = {kind: 'none'}
    this.startBlock(line)
  }

  private emitItem(m: Extract<Mode, {kind: 'list'}>): void {
    const lines = m.item
    while (lines.length > 0 && BLANK.test(lines[lines.length - 1])) lines.pop()
    this.out.push({type: 'list-item', source: lines.join('\n'), ordered: m.ordered, start: m.start, first: m.first, loose: m.loose})
  }

  /** Closes whatever is open at the end of the answer. */
  private close(): void {
    const m = this.mode
    this.mode = {kind: 'none'}
    switch (m.kind) {
      case 'para':
        if (m.lines === 0) return
        this.endPara(m)
        return
      case 'fence':
        this.out.push({type: 'fence-close', closed: false})
        return
      case 'lines':
        this.flushLines(m)
        return
      case 'table-head':
        this.mode = newPara()
        this.addParaLine(this.mode, m.line)
        this.close()
        return
      case 'list':
        this.emitItem(m)
        this.out.push({type: 'list-end'})
        return
      case 'none':
        return
    }
  }
}

/** The first `|` of a paragraph's first line (`line`: the line, or as much of it as has come), scanning only what was not scanned before. */
function firstBar(p: Para, line: string): number {
  if (p.bar < 0 && line.length > p.barScanned) {
    p.bar = line.indexOf('|', p.barScanned)
    p.barScanned = line.length
  }
  return p.bar
}

/** Whether `line` starts a block that ends a paragraph (or a lazy continuation) before it. */
function interrupts(line: string): boolean {
  if (FENCE_OPEN.test(line) || ATX.test(line) || HR.test(line) || QUOTE.test(line) || TABLE_LEAD.test(line)) return true
  const li = LIST_MARKER.exec(line)
  if (!li) return false
  // An empty item, or an ordered one not starting at 1, cannot interrupt a paragraph.
  if (line.slice(li[0].length).trim() === '') return false
  return !/\d/.test(li[2][0]) || Number.parseInt(li[2], 10) === 1
}

/** The cells of a table row, by its unescaped pipes. */
export function tableCells(line: string): string[] {
  let s = line.trim()
  if (s.startsWith('|')) s = s.slice(1)
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1)
  const cells: string[] = []
  let cell = ''
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') {
      cell += '\\|'
      i++
    } else if (s[i] === '|') {
      cells.push(cell)
      cell = ''
    } else cell += s[i]
  }
  cells.push(cell)
  return cells
}

/** A GFM delimiter row (`|---|:-:|`) with as many cells as `header`. */
function isDelimiterRow(line: string, header: string): boolean {
  if (!/^ {0,3}[|:-][|:\- \t]*$/.test(line) || !line.includes('-')) return false
  const cells = tableCells(line)
  if (!cells.every((c) => /^[ \t]*:?-+:?[ \t]*$/.test(c))) return false
  if (cells.length === 1 && !line.includes('|')) return false
  return cells.length === tableCells(header).length
}
