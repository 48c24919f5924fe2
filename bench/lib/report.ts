// One row of the benchmark table: a measured figure, the baseline measured
// in the same run, and the target from SPEC §15. Every bench script prints its
// rows as a `BENCH_ROWS <json>` line so bench/run.ts can gather one table.
export interface BenchRow {
  bench: string
  metric: string
  value: number
  unit: string
  /** Min and max of the runs `value` is the median of. */
  spread?: [number, number]
  /** The same figure for the baseline, measured in the same run. */
  baseline?: number
  /** Min and max of the baseline's runs. */
  baselineSpread?: [number, number]
  baselineName?: string
  /** value / baseline, or the absolute figure for absolute targets. */
  ratio?: number
  /** e.g. '≤ 1.15×' or '< 100 B'. */
  target: string
  pass: boolean
}

export function emitRows(rows: BenchRow[]): void {
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`)
}

/** When the bench file `url` is the script node runs: runs it, prints its table and its BENCH_ROWS line. */
export async function runIfMain(url: string, run: () => Promise<BenchRow[]>, opts: {exit?: boolean} = {}): Promise<void> {
  if (url !== `file://${process.argv[1]}`) return
  const rows = await run()
  console.log(formatTable(rows))
  emitRows(rows)
  // A bench whose child (a pty) may outlive it ends the process rather than wait on it.
  if (opts.exit) process.exit(0)
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]
}

export function formatTable(rows: BenchRow[]): string {
  const head = ['bench', 'metric', 'value', 'baseline', 'ratio', 'target', 'ok']
  const body = rows.map((r) => [
    r.bench,
    r.metric,
    `${fmt(r.value)}${range(r.spread)} ${r.unit}`,
    r.baseline === undefined ? '—' : `${fmt(r.baseline)}${range(r.baselineSpread)} ${r.unit} (${r.baselineName ?? 'baseline'})`,
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
    r.target,
    r.pass ? 'yes' : 'NO',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n')
}

/** Median, min and max of `values`: a row's value and spread. */
export function stats(values: number[]): {median: number; spread: [number, number]} {
  return {median: median(values), spread: [Math.min(...values), Math.max(...values)]}
}

/** jp's CPU time (user+sys) against the baseline's: a reported figure beside a wall-time target (steadier on a busy machine). */
export function cpuRow(jp: {cpuMs: number}[], base: {cpuMs: number}[], baselineName: string): Omit<BenchRow, 'bench' | 'metric'> {
  const [j, b] = [stats(jp.map((s) => s.cpuMs)), stats(base.map((s) => s.cpuMs))]
  return {value: j.median, spread: j.spread, unit: 'ms', baseline: b.median, baselineSpread: b.spread, baselineName, ratio: j.median / b.median, target: '(report)', pass: true}
}

function range(spread: [number, number] | undefined): string {
  return spread ? ` (${fmt(spread[0])}–${fmt(spread[1])})` : ''
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n)
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3)
}
