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
  const natural = column(rows, n, (c) => Math.max(1, c.natural))
  const min = column(rows, n, (c) => Math.max(MIN_COLUMN, Math.min(c.min, MAX_WORD))).map((m, k) => Math.min(m, natural[k]))
  const widths = fit(natural, min, avail)
  const b = (s: string) => paint(s, opts.border, opts.color)
  const rule = (l: string, m: string, r: string) => b(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r)
  const bar = b('│')
  const out = [rule('┌', '┬', '┐')]
  rows.forEach((row, r) => {
    const cellLines = widths.map((w, k) => (row[k] ? row[k].render(w) : []))
    const height = Math.max(1, ...cellLines.map((l) => l.length))
    for (let line = 0; line < height; line++) {
      let s = bar
      widths.forEach((w, k) => {
        const cell = cellLines[k][line]
        s += ' ' + pad(cell?.text ?? '', cell?.width ?? 0, w, row[k]?.align) + ' ' + bar
      })
      out.push(s)
    }
    if (r === 0 && rows.length > 1) out.push(rule('├', '┼', '┤'))
  })
  out.push(rule('└', '┴', '┘'))
  return out
}

function column(rows: TableCell[][], n: number, f: (c: TableCell) => number): number[] {
  const out = new Array<number>(n).fill(1)
  for (const row of rows) row.forEach((c, k) => (out[k] = Math.max(out[k], f(c))))
  return out
}

/** Column widths summing to at most `avail`: natural if they fit, else between min and natural, else below min. */
function fit(natural: number[], min: number[], avail: number): number[] {
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0)
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
