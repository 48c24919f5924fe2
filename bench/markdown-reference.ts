// jp's markdown renderer against marked + marked-terminal (issue 40: CPU per
// MB ≤ 0.5× marked-terminal's), same input: the code- and table-heavy answer
// (bench/lib/code-heavy.ts, 2 MB), each sample a fresh process (loading and
// the JIT's warm-up included, as each renders one answer per process),
// alternating which goes first. jp's renderer is bundled as jp's build
// bundles it (bench/lib/renderer-bundle.ts), at 100 columns with colour and
// the `ansi` code theme; marked-terminal (installed pinned into
// bench/.references, bench/lib/references.ts) at width 100 with its text
// reflowed and its default highlighting, colour forced on (FORCE_COLOR=1: a
// pipe would turn chalk's colours off). marked-terminal renders only a whole
// answer, so jp is measured both one-shot and fed in 200-character chunks
// (as it streams). The figure is the process's CPU (user + system, all
// threads) from its start to the render's end, per MB; the render alone
// (imports excluded) is printed beside it.
//
// Run: node --import tsx bench/markdown-reference.ts   (BENCH_MD_REF_RUNS=5, BENCH_MD_REF_MB=2)
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {codeHeavyAnswer} from './lib/code-heavy.js'
import {referenceLibraries} from './lib/references.js'
import {bundleRenderer, CHILD_HEADER, CHILD_PIECES, CHUNK} from './lib/renderer-bundle.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_MD_REF_RUNS ?? 5)
const MB = Number(process.env.BENCH_MD_REF_MB ?? 2)
const TARGET = 0.5

interface Sample {
  /** CPU (ms) from the process's start to the render's end. */
  processCpu: number
  /** CPU (ms) of the render alone. */
  renderCpu: number
  /** Characters rendered (a sanity check: neither side may render nothing). */
  chars: number
}

const REPORT = `
const used = process.cpuUsage(cpu0)
const total = process.cpuUsage()
process.stdout.write(JSON.stringify({processCpu: (total.user + total.system) / 1000, renderCpu: (used.user + used.system) / 1000, chars}) + '\\n')
`

/** jp's renderer: the answer one-shot or in chunks, as bench/markdown-render.ts feeds it. */
const JP_CHILD = `
${CHILD_HEADER}
${CHILD_PIECES}
const cpu0 = process.cpuUsage()
let chars = 0
const r = createRenderer({columns: () => 100, color: true, hyperlinks: false, codeTheme: 'ansi'})
for (const p of pieces) {
  chars += r.push(p).length
  while (r.waiting) {
    await r.waiting
    chars += r.take().length
  }
}
chars += r.end().length
${REPORT}`

/** marked + marked-terminal, imported by name from bench/.references (where this file is written). */
const MARKED_CHILD = `
import {readFileSync} from 'node:fs'
const {marked} = await import('marked')
const {markedTerminal} = await import('marked-terminal')
const answer = readFileSync(process.argv[2], 'utf8')
const cpu0 = process.cpuUsage()
marked.use(markedTerminal({width: 100, reflowText: true}))
const chars = marked.parse(answer).length
${REPORT}`

function sample(script: string, answer: string, how = 'whole'): Sample {
  const out = execFileSync(process.execPath, [script, answer, how], {encoding: 'utf8', maxBuffer: 1 << 20, env: {...process.env, FORCE_COLOR: '1'}})
  const s = JSON.parse(out.trim().split('\n').pop()!) as Sample
  if (s.chars < 1000) throw new Error(`${script} rendered ${s.chars} characters`)
  return s
}

const perMb = (xs: Sample[], key: keyof Sample) => xs.map((s) => s[key] / MB)
const spread = (xs: number[]): [number, number] => [Math.round(Math.min(...xs)), Math.round(Math.max(...xs))]

function row(metric: string, jp: number[], marked: number[], target: string, ratioTarget?: number): BenchRow {
  const [v, b] = [median(jp), median(marked)]
  const ratio = v / b
  return {bench: 'markdown-reference', metric, value: Math.round(v), spread: spread(jp), unit: 'ms/MB', baseline: Math.round(b), baselineSpread: spread(marked), baselineName: 'marked-terminal 7.3.0', ratio, target, pass: ratioTarget === undefined || ratio <= ratioTarget}
}

export async function run(): Promise<BenchRow[]> {
  const refs = referenceLibraries(['marked', 'markedTerminal'])
  if (!refs) return []
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-md-ref-'))
  const markedScript = join(refs, `render-child-${process.pid}.mjs`)
  try {
    const jpScript = await bundleRenderer(ROOT, join(ROOT, 'src', 'lib', 'markdown'), JP_CHILD, join(dir, 'jp.mjs'))
    writeFileSync(markedScript, MARKED_CHILD)
    const answer = join(dir, 'answer.md')
    writeFileSync(answer, codeHeavyAnswer(MB * 1024 * 1024))
    const s = {whole: [] as Sample[], chunked: [] as Sample[], marked: [] as Sample[]}
    const takes = [() => s.whole.push(sample(jpScript, answer)), () => s.chunked.push(sample(jpScript, answer, 'chunked')), () => s.marked.push(sample(markedScript, answer))]
    // Each round in another order, so no side always runs on a warmer (or busier) machine.
    for (let i = 0; i < RUNS; i++) for (let k = 0; k < takes.length; k++) takes[(i + k) % takes.length]()
    for (const [name, xs] of Object.entries(s)) {
      process.stderr.write(`markdown-reference ${name}: CPU ms/MB from process start ${perMb(xs, 'processCpu').map((x) => x.toFixed(0)).join(' ')}; render alone ${perMb(xs, 'renderCpu').map((x) => x.toFixed(0)).join(' ')}; ${xs[0].chars} chars out\n`)
    }
    const what = `${MB} MB code- and table-heavy answer, CPU per MB (process start → rendered)`
    return [
      row(`${what}, jp fed in ${CHUNK}-char chunks (as it streams)`, perMb(s.chunked, 'processCpu'), perMb(s.marked, 'processCpu'), `≤ ${TARGET}×`, TARGET),
      row(`${what}, jp one-shot`, perMb(s.whole, 'processCpu'), perMb(s.marked, 'processCpu'), `≤ ${TARGET}×`, TARGET),
      row(`${MB} MB code- and table-heavy answer, CPU per MB of the render alone (imports excluded), jp chunked`, perMb(s.chunked, 'renderCpu'), perMb(s.marked, 'renderCpu'), '(report)'),
    ]
  } finally {
    rmSync(dir, {recursive: true, force: true})
    rmSync(markedScript, {force: true})
  }
}

await runIfMain(import.meta.url, run)
