// Keystroke cost of the inline reply widget (SPEC §15, issue 24): bytes
// written and time per character typed at the end of a 100 / 10,000 /
// 100,000-character buffer (200 lines from 10,000 up; also one single
// 100,000-character line), against @inquirer/input in the same run, and the
// time to show a 1 MB bracketed paste. Everything is driven through in-memory
// streams (no terminal), so the numbers are the widget's own work: decode,
// edit, lay out, paint. Each figure is the median over KEYS keys, measured
// RUNS times; rows give the median run and min/median/max of the runs.
//
//   node --import tsx bench/keystroke.ts
//
// Targets: < 100 bytes and < 0.2 ms median per key at 10,000 characters;
// typing at 100,000 characters costs at most 1.5× typing at 10,000; a 1 MB
// paste is on screen within 300 ms.
import {PassThrough, Writable} from 'node:stream'
import {performance} from 'node:perf_hooks'
import {inlineReply} from '../src/lib/inquire/inline-reply.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const KEYS = 200
const RUNS = Number(process.env.KEYSTROKE_RUNS ?? 3)

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

function buffer(size: number, lines = size >= 10_000 ? 200 : Math.max(1, Math.round(size / 50))): string {
  const per = Math.floor(size / lines)
  return Array.from({length: lines}, (_, i) => `${i} `.padEnd(per - 1, 'x')).join('\n')
}

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

async function jp(text: string): Promise<Result> {
  const input = new PassThrough()
  const out = new Sink()
  const done = inlineReply({message: 'Reply:', initialText: text}, {input, output: out, env: {TERM: 'xterm-256color'}})
  const result = await drive(input, out)
  input.write('\r')
  await done
  return result
}

async function inquirer(text: string): Promise<Result> {
  const {default: input} = await import('@inquirer/input')
  const stdin = fakeTty()
  const out = new Sink()
  // @inquirer/input is single-line: the same number of characters on one line.
  const done = input({message: 'Reply:', default: text.replaceAll('\n', ' '), prefill: 'editable'}, {input: stdin, output: out as unknown as NodeJS.WritableStream})
  const result = await drive(stdin, out)
  stdin.write('\r')
  await done.catch(() => undefined)
  return result
}

function fakeTty(): PassThrough & {isTTY?: boolean; setRawMode?: () => void} {
  const stdin = new PassThrough() as PassThrough & {isTTY?: boolean; setRawMode?: () => void}
  stdin.isTTY = true
  stdin.setRawMode = () => {}
  return stdin
}

/** jp: a bracketed paste of `text`, arriving in 64 KiB reads as from a pty, until it is painted. */
async function jpPaste(text: string): Promise<Result> {
  const input = new PassThrough()
  const out = new Sink()
  const done = inlineReply({message: 'Reply:'}, {input, output: out, env: {TERM: 'xterm-256color'}})
  await new Promise((r) => setTimeout(r, 20))
  const data = Buffer.from(`\x1b[200~${text}\x1b[201~`)
  const before = out.bytes
  const painted = out.next()
  const t0 = performance.now()
  for (let at = 0; at < data.length; at += 65_536) input.emit('data', data.subarray(at, at + 65_536))
  await painted
  const ms = out.paintedAt - t0
  await new Promise((r) => setImmediate(r))
  const bytes = out.bytes - before
  input.write('\r')
  await done
  return {bytes, ms}
}

/** @inquirer/input has no bracketed paste: the text arrives as typed characters, each one a keypress and a repaint. */
async function inquirerPaste(text: string): Promise<Result> {
  const {default: input} = await import('@inquirer/input')
  const stdin = fakeTty()
  const out = new Sink()
  const done = input({message: 'Reply:'}, {input: stdin, output: out as unknown as NodeJS.WritableStream})
  await new Promise((r) => setTimeout(r, 20))
  const before = out.bytes
  const t0 = performance.now()
  stdin.emit('data', Buffer.from(text))
  await new Promise((r) => setImmediate(r))
  const ms = performance.now() - t0
  const bytes = out.bytes - before
  stdin.write('\r')
  await done.catch(() => undefined)
  return {bytes, ms}
}

interface Spread {
  min: number
  med: number
  max: number
}

const spread = (xs: number[]): Spread => ({min: Math.min(...xs), med: median(xs), max: Math.max(...xs)})
const runsNote = (s: Spread, digits: number) => `runs min/med/max ${s.min.toFixed(digits)}/${s.med.toFixed(digits)}/${s.max.toFixed(digits)}`

async function repeat(fn: () => Promise<Result>): Promise<{ms: Spread; bytes: Spread}> {
  const ms: number[] = []
  const bytes: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const r = await fn()
    ms.push(r.ms)
    bytes.push(r.bytes)
  }
  return {ms: spread(ms), bytes: spread(bytes)}
}

/** A paste of about `size` bytes: lines of prose, every one different (a layout cache must not make it look cheap), some not ASCII. */
function pasteText(size: number): string {
  const lines: string[] = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const line = `${i}: the quick brown fox jumps over the lazy dog${i % 10 === 0 ? ' — café, 日本語' : ''}, then naps for ${i % 97} minutes.`
    lines.push(line)
    length += Buffer.byteLength(line) + 1
  }
  return lines.join('\n')
}

async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const cases: Array<[string, string]> = [
    ['100 chars', buffer(100)],
    ['10,000 chars', buffer(10_000)],
    ['100,000 chars', buffer(100_000)],
    ['100,000 chars on one line', buffer(100_000, 1)],
  ]
  const time: Record<string, number> = {}
  // Warm the JIT up first, so the first size measured is not the slowest for that reason alone.
  await jp(buffer(10_000))
  await inquirer(buffer(1_000))
  for (const [name, text] of cases) {
    const a = await repeat(() => jp(text))
    // @inquirer/input rewrites its whole line per key: at 100,000 characters it takes tens of ms, once is enough.
    const b = await repeat(() => inquirer(text))
    time[name] = a.ms.med
    const atTarget = name === '10,000 chars'
    rows.push(
      {bench: 'keystroke', metric: `bytes per key, ${name}`, value: a.bytes.med, unit: 'B', baseline: b.bytes.med, baselineName: '@inquirer/input', ratio: a.bytes.med / Math.max(1, b.bytes.med), target: '< 100 B', pass: a.bytes.max < 100},
      {
        bench: 'keystroke',
        metric: `time per key, ${name} (${runsNote(a.ms, 3)} ms)`,
        value: a.ms.med,
        unit: 'ms',
        baseline: b.ms.med,
        baselineName: '@inquirer/input',
        ratio: a.ms.med / b.ms.med,
        target: atTarget ? '< 0.2 ms' : '(report)',
        pass: !atTarget || a.ms.med < 0.2,
      },
    )
  }
  for (const long of ['100,000 chars', '100,000 chars on one line']) {
    const ratio = time[long] / time['10,000 chars']
    rows.push({bench: 'keystroke', metric: `time per key, ${long} against 10,000 chars`, value: time[long], unit: 'ms', baseline: time['10,000 chars'], baselineName: 'jp at 10,000 chars', ratio, target: '≤ 1.5×', pass: ratio <= 1.5})
  }
  const paste = await repeat(() => jpPaste(pasteText(1_000_000)))
  // The baseline cannot take 1 MB (each character repaints the whole line: 1 kB takes seconds); 1 kB each, same run.
  const small = await repeat(() => jpPaste(pasteText(1_000)))
  const inq = await repeat(() => inquirerPaste(pasteText(1_000).replaceAll('\n', ' ')))
  rows.push(
    {bench: 'keystroke', metric: `1 MB bracketed paste shown (${runsNote(paste.ms, 1)} ms)`, value: paste.ms.med, unit: 'ms', target: '< 300 ms', pass: paste.ms.max < 300},
    {bench: 'keystroke', metric: `1 MB bracketed paste, bytes painted`, value: paste.bytes.med, unit: 'B', target: '(report)', pass: true},
    {bench: 'keystroke', metric: `1 kB paste shown (${runsNote(small.ms, 2)} ms)`, value: small.ms.med, unit: 'ms', baseline: inq.ms.med, baselineName: '@inquirer/input', ratio: small.ms.med / inq.ms.med, target: '(report)', pass: true},
  )
  return rows
}

await runIfMain(import.meta.url, run)
