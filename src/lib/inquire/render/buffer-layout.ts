// The buffer as lines, each laid out only when a frame needs it: a line
// index that follows the editor's changes (LineEditor.changesSince) instead
// of splitting the whole text on every key, and per-line layouts
// (./layout.ts) made lazily and kept until their line changes or the widths
// do. A frame then touches the lines it shows, the cursor's and a viewport's
// worth around them — not the whole buffer — so a keystroke costs the same at
// 100 or 100,000 characters, and a 1 MB paste lays out one screen.
import type {ChangeSource, TextChange} from '../core/line-editor.js'
import {extendLine, lastAtOrBefore, type LineLayout, wrapLine} from './layout.js'

export class BufferLayout {
  /** The text the lines were made from (kept for the next sync without a change source). */
  private text = ''
  private length = 0
  private lines: string[] = ['']
  /** Offset of each line's first character. */
  private starts: number[] = [0]
  private layouts: (LineLayout | undefined)[] = [undefined]
  private source: ChangeSource | undefined
  private revision = 0
  /** The widths every layout was made for: line 0's first row, every other row. */
  private widths = ''

  private readonly memo = new Map<string, {text: string; width: number}>()

  /** A measured piece of the frame around the buffer (the message, the help line), kept across frames. */
  remember(key: string, make: () => {text: string; width: number}): {text: string; width: number} {
    let hit = this.memo.get(key)
    if (!hit) {
      if (this.memo.size >= 32) this.memo.clear()
      hit = make()
      this.memo.set(key, hit)
    }
    return hit
  }

  /** Brings the lines up to `text`, following `source`'s changes when it can. */
  sync(text: string, source?: ChangeSource): void {
    if (source && source === this.source) {
      const changes = source.changesSince(this.revision)
      this.revision = source.revision
      if (changes) {
        for (const c of changes) this.apply(c)
        // The text is not compared (that would read all of it on every key);
        // a change log that does not even add up in length is a full rebuild.
        if (this.length === text.length) {
          this.text = text
          return
        }
      }
    } else {
      this.source = source
      this.revision = source?.revision ?? 0
    }
    if (text !== this.text || this.lines.length === 0) this.rebuild(text)
  }

  get lineCount(): number {
    return this.lines.length
  }

  lineStart(li: number): number {
    return this.starts[li]
  }

  /** The line holding offset `at` (the first one starting after `at` is the next line). */
  lineAt(at: number): number {
    return lastAtOrBefore(this.starts, at)
  }

  /** Line `li` laid out for these widths (line 0's first row has `firstWidth`, every other row `restWidth`). */
  layout(li: number, firstWidth: number, restWidth: number): LineLayout {
    const widths = `${firstWidth}:${restWidth}`
    if (widths !== this.widths) {
      this.widths = widths
      this.layouts = this.lines.map(() => undefined)
    }
    let l = this.layouts[li]
    if (!l) {
      l = wrapLine(this.lines[li], li === 0 ? firstWidth : restWidth, restWidth)
      this.layouts[li] = l
    }
    return l
  }

  private rebuild(text: string): void {
    this.text = text
    this.length = text.length
    this.lines = text.split('\n')
    this.starts = new Array<number>(this.lines.length)
    let at = 0
    for (let i = 0; i < this.lines.length; i++) {
      this.starts[i] = at
      at += this.lines[i].length + 1
    }
    this.layouts = new Array<LineLayout | undefined>(this.lines.length).fill(undefined)
  }

  /** One editor change: the lines it touched are replaced, later lines move by the length difference. */
  private apply(c: TextChange): void {
    const a = this.lineAt(c.start)
    const b = this.lineAt(c.end)
    const head = this.lines[a].slice(0, c.start - this.starts[a])
    const tail = this.lines[b].slice(c.end - this.starts[b])
    const delta = c.text.length - (c.end - c.start)
    this.length += delta
    if (a === b && !c.text.includes('\n')) {
      const layout = this.layouts[a]
      // Typing at the end of a line: extend its layout instead of wrapping it again.
      if (layout && tail === '' && c.start === c.end) extendLine(layout, c.text)
      else this.layouts[a] = undefined
      this.lines[a] = head + c.text + tail
      for (let i = a + 1; i < this.starts.length; i++) this.starts[i] += delta
      return
    }
    const parts = c.text.split('\n')
    parts[0] = head + parts[0]
    parts[parts.length - 1] += tail
    const starts = new Array<number>(parts.length)
    let at = this.starts[a]
    for (let i = 0; i < parts.length; i++) {
      starts[i] = at
      at += parts[i].length + 1
    }
    const after = this.starts.slice(b + 1).map((s) => s + delta)
    this.lines = this.lines.slice(0, a).concat(parts, this.lines.slice(b + 1))
    this.starts = this.starts.slice(0, a).concat(starts, after)
    this.layouts = this.layouts.slice(0, a).concat(new Array<LineLayout | undefined>(parts.length).fill(undefined), this.layouts.slice(b + 1))
  }
}
