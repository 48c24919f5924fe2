// GFM tables fitted to the terminal: columns at their natural width when the
// table fits, else shrunk towards their longest word (cells wrap), else
// narrower still (long words cut); no line is ever wider than the room
// given. A table too narrow even for one cell per column is shown as one
// `header: value` record per row instead.
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

/** A column is not shrunk below this while words may still be cut instead. */
const MIN_COLUMN = 3
/** A long word counts as at most this wide when shrinking (URLs get cut). */
const MAX_WORD = 16

export function layoutTable(rows: TableCell[][], room: number, opts: {border: Style; color: boolean}): string[] {
  const n = rows.reduce((k, r) => Math.max(k, r.length), 0)
  if (n === 0) return []
  const overhead = 3 * n + 1
  const avail = room - overhead
  if (avail < n * MIN_COLUMN) return records(rows, room, opts)
  const natural = new Array<number>(n).fill(1)
  const min = new Array<number>(n).fill(1)
  for (const row of rows) {
    for (let k = 0; k < row.length; k++) {
      const c = row[k]
      if (c.natural > natural[k]) natural[k] = c.natural
      const m = Math.max(MIN_COLUMN, Math.min(c.min, MAX_WORD))
      if (m > min[k]) min[k] = m
    }
  }
  for (let k = 0; k < n; k++) if (min[k] > natural[k]) min[k] = natural[k]
  const widths = fit(natural, min, avail)
  const rule = (l: string, m: string, r: string) => {
    let s = l
    for (let k = 0; k < n; k++) s += (k > 0 ? m : '') + '─'.repeat(widths[k] + 2)
    return paint(s + r, opts.border, opts.color)
  }
  const bar = paint('│', opts.border, opts.color)
  const out = [rule('┌', '┬', '┐')]
  const cellLines: {text: string; width: number}[][] = new Array(n)
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]
    let height = 1
    for (let k = 0; k < n; k++) {
      const lines = row[k] ? row[k].render(widths[k]) : []
      cellLines[k] = lines
      if (lines.length > height) height = lines.length
    }
    for (let line = 0; line < height; line++) {
      let s = bar
      for (let k = 0; k < n; k++) {
        const cell = cellLines[k][line]
        s += ' ' + (cell ? pad(cell.text, cell.width, widths[k], row[k].align) : ' '.repeat(widths[k])) + ' ' + bar
      }
      out.push(s)
    }
    if (r === 0 && rows.length > 1) out.push(rule('├', '┼', '┤'))
  }
  out.push(rule('└', '┴', '┘'))
  return out
}

/** Column widths summing to at most `avail`: natural if they fit, else between min and natural, else below min. */
function fit(natural: number[], min: number[], avail: number): number[] {
  if (sum(natural) <= avail) return natural
  if (sum(min) <= avail) {
    // Share what is left over the minimums in proportion to what each column wants beyond it.
    const extra = avail - sum(min)
    const want = natural.map((w, k) => w - min[k])
    const total = sum(want)
    const widths = min.map((m, k) => m + Math.floor((extra * want[k]) / total))
    let left = avail - sum(widths)
    for (let k = 0; left > 0 && k < widths.length; k++) {
      if (widths[k] < natural[k]) {
        widths[k]++
        left--
      }
    }
    return widths
  }
  // Even the minimums do not fit: equal shares (words are cut).
  const each = Math.floor(avail / natural.length)
  const widths = natural.map((w) => Math.min(w, each))
  let left = avail - sum(widths)
  for (let k = 0; left > 0 && k < widths.length; k++) {
    const more = Math.min(left, natural[k] - widths[k])
    widths[k] += more
    left -= more
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

/** The narrow fallback: each body row as `header: value` lines, rows apart. */
function records(rows: TableCell[][], room: number, opts: {border: Style; color: boolean}): string[] {
  const [header, ...body] = rows
  const out: string[] = []
  body.forEach((row, r) => {
    if (r > 0) out.push(paint('─'.repeat(Math.max(1, room)), opts.border, opts.color))
    row.forEach((cell, k) => {
      const name = header[k]?.render(Math.max(1, room - 1)) ?? []
      name.forEach((l, i) => out.push(i === name.length - 1 ? l.text + ':' : l.text))
      for (const l of cell.render(Math.max(1, room - 2))) out.push('  ' + l.text)
    })
  })
  if (body.length === 0) for (const cell of header) for (const l of cell.render(room)) out.push(l.text)
  return out
}
