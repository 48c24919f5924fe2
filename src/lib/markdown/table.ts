// GFM tables fitted to the terminal (SPEC §19 "Code and tables"): columns
// at their natural width when the table fits, else shrunk towards their
// longest word (cells wrap at words; the rows are then separated by rules);
// a table that cannot give every column its longest word is shown as
// records, `Header: value` lines per row, where a word is cut only when it
// is longer than the whole line. No line is ever wider than the room given.
import {paint, type Style} from './style.js'

export interface TableCell {
  /** The cell's content wrapped to `width`: painted lines with their widths. */
  render(width: number): {text: string; width: number}[]
  /** Its width on one line. */
  natural: number
  /** Its longest word (a column shrinks to this before words are cut). */
  min: number
  align?: 'left' | 'right' | 'center'
}

/** A column of short cells still gets this many cells (or its natural width, if less). */
const MIN_COLUMN = 3

type Lines = {text: string; width: number}[]

export function layoutTable(rows: TableCell[][], room: number, opts: {border: Style; color: boolean}): string[] {
  const n = rows.reduce((k, r) => Math.max(k, r.length), 0)
  if (n === 0) return []
  const natural = new Array<number>(n).fill(1)
  const need = new Array<number>(n).fill(1)
  for (const row of rows) {
    for (let k = 0; k < row.length; k++) {
      const c = row[k]
      if (c.natural > natural[k]) natural[k] = c.natural
      if (c.min > need[k]) need[k] = c.min
    }
  }
  for (let k = 0; k < n; k++) need[k] = Math.max(need[k], Math.min(MIN_COLUMN, natural[k]))
  const avail = room - (3 * n + 1)
  // Every column gets its longest word, or the table is read as records: a word is never cut in a grid.
  if (sum(need) > avail) return records(rows, room, opts)
  const widths = fit(natural, need, avail)
  const rule = (l: string, m: string, r: string) => {
    let s = l
    for (let k = 0; k < n; k++) s += (k > 0 ? m : '') + '─'.repeat(widths[k] + 2)
    return paint(s + r, opts.border, opts.color)
  }
  const bar = paint('│', opts.border, opts.color)
  const laid: Lines[][] = rows.map((row) => widths.map((w, k) => (row[k] ? row[k].render(w) : [])))
  // A body row of more than one line: rules between the rows, so no row's last line reads as the next one's first.
  const ruled = laid.some((row, r) => r > 0 && row.some((lines) => lines.length > 1))
  const out = [rule('┌', '┬', '┐')]
  for (let r = 0; r < rows.length; r++) {
    const height = laid[r].reduce((h, lines) => Math.max(h, lines.length), 1)
    for (let line = 0; line < height; line++) {
      let s = bar
      for (let k = 0; k < n; k++) {
        const cell = laid[r][k][line]
        s += ' ' + (cell ? pad(cell.text, cell.width, widths[k], rows[r][k].align) : ' '.repeat(widths[k])) + ' ' + bar
      }
      out.push(s)
    }
    if (r < rows.length - 1 && (r === 0 || ruled)) out.push(rule('├', '┼', '┤'))
  }
  out.push(rule('└', '┴', '┘'))
  return out
}

/** Column widths summing to at most `avail` (at least the needs' sum): natural if they fit, else between need and natural. */
function fit(natural: number[], need: number[], avail: number): number[] {
  if (sum(natural) <= avail) return natural
  // Share what is left over the needs in proportion to what each column wants beyond it.
  const extra = avail - sum(need)
  const want = natural.map((w, k) => w - need[k])
  const total = sum(want)
  const widths = need.map((m, k) => m + Math.floor((extra * want[k]) / total))
  let left = avail - sum(widths)
  for (let k = 0; left > 0 && k < widths.length; k++) {
    if (widths[k] < natural[k]) {
      widths[k]++
      left--
    }
  }
  return widths
}

function sum(a: number[]): number {
  let s = 0
  for (const x of a) s += x
  return s
}

function pad(text: string, width: number, to: number, align: TableCell['align']): string {
  const space = Math.max(0, to - width)
  if (align === 'right') return ' '.repeat(space) + text
  if (align === 'center') return ' '.repeat(Math.floor(space / 2)) + text + ' '.repeat(space - Math.floor(space / 2))
  return text + ' '.repeat(space)
}

/**
 * The narrow layout: each body row as `Header: value` lines, rows apart by a
 * rule. A value that does not fit beside its header goes under it, indented
 * (not indented when a word of it needs the whole line).
 */
function records(rows: TableCell[][], room: number, opts: {border: Style; color: boolean}): string[] {
  const [header, ...body] = rows
  const out: string[] = []
  body.forEach((row, r) => {
    if (r > 0) out.push(paint('─'.repeat(Math.max(1, room)), opts.border, opts.color))
    row.forEach((cell, k) => {
      const name = header[k]?.render(Math.max(1, room - 1)) ?? []
      const last = name[name.length - 1]
      if (name.length === 1 && last.width + 2 + cell.natural <= room) {
        const value = cell.render(cell.natural)
        out.push(value.length === 0 ? last.text + ':' : last.text + ': ' + value[0].text)
        return
      }
      name.forEach((l, i) => out.push(i === name.length - 1 ? l.text + ':' : l.text))
      const indent = cell.min <= room - 2 ? '  ' : ''
      for (const l of cell.render(Math.max(1, room - indent.length))) out.push(indent + l.text)
    })
  })
  if (body.length === 0) for (const cell of header) for (const l of cell.render(room)) out.push(l.text)
  return out
}
