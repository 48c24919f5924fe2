// The markdown renderer's cost per block kind (issue 25): the tables,
// headings, list items and paragraphs of bench/markdown.ts's text-heavy
// answer (20 MB), each kind alone as one answer, rendered in 200-character
// chunks, in µs a block (a list item for lists). Each sample is a fresh
// process (the compiler set as jp sets it) rendering its answer REPS times, the fastest kept (the kinds are
// small: this is the warm cost, with the JIT settled on that kind alone; the
// worker's real mix costs more per block). With BENCH_MD_BEFORE=DIR (a copy
// of src/lib/markdown) both renderers run, alternating, and the outputs'
// hashes are compared. `all` (not in the default kinds) is the whole answer.
//
// Run: node --import tsx bench/markdown-blocks.ts   (BENCH_MD_KINDS=table,heading,list,para[,all], BENCH_MD_RUNS=5, BENCH_MD_REPS=10, BENCH_MD_BEFORE=DIR)
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {textHeavyAnswer} from './markdown.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'
import {bundleRenderer, CHILD_HEADER} from './lib/renderer-bundle.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_MD_RUNS ?? 5)
const REPS = Number(process.env.BENCH_MD_REPS ?? 10)
const KINDS = (process.env.BENCH_MD_KINDS ?? 'table,heading,list,para').split(',')
const BEFORE = process.env.BENCH_MD_BEFORE ? resolve(process.env.BENCH_MD_BEFORE) : undefined

/** The child: renders the answer REPS times in 200-character chunks, prints the fastest {ms, hash}. */
const CHILD = `
${CHILD_HEADER}
const [file, reps] = process.argv.slice(2)
const answer = readFileSync(file, 'utf8')
const pieces = []
for (let i = 0; i < answer.length; i += 200) pieces.push(answer.slice(i, i + 200))
let ms = Infinity
let hash
for (let k = 0; k < Number(reps); k++) {
  const h = createHash('sha256')
  const start = performance.now()
  const r = createRenderer({columns: () => 100, color: true, hyperlinks: false, codeTheme: 'ansi'})
  for (const p of pieces) {
    h.update(r.push(p))
    while (r.waiting) {
      await r.waiting
      h.update(r.take())
    }
  }
  h.update(r.end())
  ms = Math.min(ms, performance.now() - start)
  hash = h.digest('hex')
}
process.stdout.write(JSON.stringify({ms, hash}) + '\\n')
`

/** The answer's blocks of each kind; a list counts its items. */
function blocksOf(answer: string): Record<string, {text: string; units: number}> {
  const kinds: Record<string, string[]> = {table: [], heading: [], list: [], para: []}
  for (const b of answer.split('\n\n')) {
    if (b.startsWith('| ')) kinds.table.push(b)
    else if (b.startsWith('## ')) kinds.heading.push(b)
    else if (b.startsWith('- ')) kinds.list.push(b)
    else if (!b.startsWith('```')) kinds.para.push(b)
  }
  // As many paragraphs as there are headings: enough for a steady figure.
  kinds.para = kinds.para.slice(0, kinds.heading.length)
  const out: Record<string, {text: string; units: number}> = {all: {text: answer, units: 1}}
  for (const [kind, list] of Object.entries(kinds)) out[kind] = {text: list.join('\n\n') + '\n', units: kind === 'list' ? list.reduce((n, b) => n + b.split('\n').length, 0) : list.length}
  return out
}

const stats = (xs: number[]) => ({min: Math.min(...xs), median: median(xs), max: Math.max(...xs)})

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-md-blocks-'))
  try {
    const now = await bundleRenderer(ROOT, join(ROOT, 'src', 'lib', 'markdown'), CHILD, join(dir, 'now.mjs'))
    const then = BEFORE ? await bundleRenderer(ROOT, BEFORE, CHILD, join(dir, 'before.mjs')) : undefined
    const blocks = blocksOf(textHeavyAnswer(20 * 1024 * 1024))
    for (const kind of KINDS) {
      const {text, units} = blocks[kind]
      const file = join(dir, `${kind}.md`)
      writeFileSync(file, text)
      const sample = (script: string) => JSON.parse(execFileSync(process.execPath, [script, file, String(REPS)], {encoding: 'utf8'}).trim()) as {ms: number; hash: string}
      const after: number[] = []
      const before: number[] = []
      const hashes = {now: new Set<string>(), before: new Set<string>()}
      for (let i = 0; i < RUNS; i++) {
        // Alternate which goes first, so neither always runs on a cooler machine.
        for (const [name, script] of i % 2 === 0 ? ([['before', then], ['now', now]] as const) : ([['now', now], ['before', then]] as const)) {
          if (!script) continue
          const s = sample(script)
          ;(name === 'now' ? after : before).push((s.ms * 1000) / units)
          hashes[name].add(s.hash)
        }
      }
      const same = !then || (hashes.now.size === 1 && hashes.before.size === 1 && [...hashes.now][0] === [...hashes.before][0])
      const a = stats(after)
      const b = before.length > 0 ? stats(before) : undefined
      const bytes = Math.round(text.length / units)
      const f = (s: {min: number; median: number; max: number}) => `${s.min.toFixed(2)}/${s.median.toFixed(2)}/${s.max.toFixed(2)}`
      process.stderr.write(`markdown ${kind}: ${units} × ~${bytes} B; µs each min/median/max ${f(a)}` + (b ? `, before ${f(b)}; bytes ${same ? 'identical' : 'DIFFER'}` : '') + '\n')
      rows.push({
        bench: 'markdown-blocks',
        metric: `${kind === 'list' ? 'list item' : kind} (~${bytes} B) of the text-heavy answer, alone, warm (µs each, median)`,
        value: Number(a.median.toFixed(2)),
        spread: [Number(a.min.toFixed(2)), Number(a.max.toFixed(2))],
        unit: 'µs',
        ...(b ? {baseline: Number(b.median.toFixed(2)), baselineSpread: [Number(b.min.toFixed(2)), Number(b.max.toFixed(2))] as [number, number], baselineName: 'before', ratio: a.median / b.median} : {}),
        target: '(report)',
        pass: same,
      })
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
  return rows
}

await runIfMain(import.meta.url, run)
