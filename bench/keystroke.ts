// Keystroke cost of the inline reply widget (SPEC §15): bytes written and
// time per character typed at the end of a 100 / 1,000 / 10,000-character
// buffer (200 lines at the largest size), against @inquirer/input in the
// same run. Both are driven through in-memory streams (no terminal), so the
// numbers are the widget's own work: decode, edit, lay out, paint.
//
//   node --import tsx bench/keystroke.ts
//
// Targets at 10,000 characters: < 100 bytes and < 0.2 ms median per key.
import {PassThrough, Writable} from 'node:stream'
import {performance} from 'node:perf_hooks'
import {inlineReply} from '../src/lib/inquire/inline-reply.js'
import {emitRows, type BenchRow} from './lib/report.js'

const KEYS = 200

class Sink extends Writable {
  bytes = 0
  columns = 120
  rows = 50
  isTTY = true
  waiter: (() => void) | undefined
  /** When the first write after next() arrived (the key is painted). */
  paintedAt = 0
  _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length
    if (this.waiter) this.paintedAt = performance.now()
    const w = this.waiter
    this.waiter = undefined
    w?.()
    done()
  }
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = resolve
    })
  }
}

function buffer(size: number): string {
  const lines = size >= 10_000 ? 200 : Math.max(1, Math.round(size / 50))
  const per = Math.floor(size / lines)
  return Array.from({length: lines}, (_, i) => `${i} `.padEnd(per - 1, 'x')).join('\n')
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

interface Result {
  bytes: number
  ms: number
}

/** Types KEYS characters, one at a time, each awaited until painted. */
async function drive(input: PassThrough, out: Sink): Promise<Result> {
  const bytes: number[] = []
  const times: number[] = []
  // Let the first paint happen.
  await new Promise((r) => setTimeout(r, 20))
  for (let i = 0; i < KEYS; i++) {
    const before = out.bytes
    const painted = out.next()
    const t0 = performance.now()
    // Straight to the 'data' listeners: the stream's own scheduling is not the widget's cost.
    input.emit('data', Buffer.from('a'))
    await painted
    times.push(out.paintedAt - t0)
    // @inquirer/core may paint in more than one write per key.
    await new Promise((r) => setImmediate(r))
    bytes.push(out.bytes - before)
  }
  return {bytes: median(bytes), ms: median(times)}
}

async function jp(size: number): Promise<Result> {
  const input = new PassThrough()
  const out = new Sink()
  const done = inlineReply({message: 'Reply:', initialText: buffer(size)}, {input, output: out, env: {TERM: 'xterm-256color'}})
  const result = await drive(input, out)
  input.write('\r')
  await done
  return result
}

async function inquirer(size: number): Promise<Result> {
  const {default: input} = await import('@inquirer/input')
  const stdin = new PassThrough() as PassThrough & {isTTY?: boolean; setRawMode?: () => void}
  stdin.isTTY = true
  stdin.setRawMode = () => {}
  const out = new Sink()
  // @inquirer/input is single-line: the same number of characters on one line.
  const done = input({message: 'Reply:', default: buffer(size).replaceAll('\n', ' '), prefill: 'editable'}, {input: stdin, output: out as unknown as NodeJS.WritableStream})
  const result = await drive(stdin, out)
  stdin.write('\r')
  await done.catch(() => undefined)
  return result
}

const rows: string[][] = [['chars', 'jp bytes', 'jp ms', 'inquirer bytes', 'inquirer ms', 'bytes ratio', 'time ratio']]
const benchRows: BenchRow[] = []
let ok = true
for (const size of [100, 1_000, 10_000]) {
  const a = await jp(size)
  const b = await inquirer(size)
  rows.push([
    String(size),
    String(a.bytes),
    a.ms.toFixed(3),
    String(b.bytes),
    b.ms.toFixed(3),
    `${(b.bytes / Math.max(1, a.bytes)).toFixed(0)}×`,
    `${(b.ms / a.ms).toFixed(1)}×`,
  ])
  const atTarget = size === 10_000
  if (atTarget) ok = a.bytes < 100 && a.ms < 0.2
  benchRows.push(
    {bench: 'keystroke', metric: `bytes per key, ${size} chars`, value: a.bytes, unit: 'B', baseline: b.bytes, baselineName: '@inquirer/input', ratio: a.bytes / Math.max(1, b.bytes), target: atTarget ? '< 100 B' : '(report)', pass: !atTarget || a.bytes < 100},
    {bench: 'keystroke', metric: `time per key, ${size} chars`, value: a.ms, unit: 'ms', baseline: b.ms, baselineName: '@inquirer/input', ratio: a.ms / b.ms, target: atTarget ? '< 0.2 ms' : '(report)', pass: !atTarget || a.ms < 0.2},
  )
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
for (const r of rows) console.log(r.map((cell, c) => cell.padStart(widths[c])).join('  '))
console.log(`\nmedian of ${KEYS} keystrokes at the end of the buffer; target at 10,000 chars: < 100 bytes, < 0.2 ms — ${ok ? 'met' : 'NOT met'}`)
emitRows(benchRows)
