// The markdown renderer alone, in process (issue 25's throughput): the
// text-heavy answer of bench/markdown.ts (2 MB and 20 MB) rendered one-shot
// and in 200-character chunks (as the pty bench's server sends it), in ms
// per MB. The renderer is bundled by esbuild as jp's build bundles it, and
// each sample is a fresh process, as jp renders one answer per process (the
// highlighter's loading and the JIT's warm-up are included), with the
// compiler set as jp sets it (tuneCompiler, where the renderer has it). With
// BENCH_MD_BEFORE=DIR (a copy of src/lib/markdown, e.g. the code before a
// change) both renderers run in the same run, alternating, and the output's
// hashes are compared (they must be equal whenever the change keeps the
// bytes). Both are bundled with the build's highlight.js patch
// (scripts/highlight-patch.js); BENCH_MD_BEFORE_UNPATCHED=1 bundles the
// before without it (to measure the patch itself).
//
// Both corpora of bench/markdown.ts (BENCH_MD_CORPORA=text,code): the
// text-heavy answer and the code- and table-heavy one.
//
// Run: node --import tsx bench/markdown-render.ts   (BENCH_MD_RUNS=5, BENCH_MD_SIZES=2,20, BENCH_MD_CORPORA=text,code, BENCH_MD_BEFORE=DIR, BENCH_MD_BEFORE_UNPATCHED=1)
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {answerOf, CORPUS_NAME, type Corpus} from './markdown.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'
import {bundleRenderer, CHILD_HEADER, CHILD_PIECES, CHUNK} from './lib/renderer-bundle.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_MD_RUNS ?? 5)
const SIZES = (process.env.BENCH_MD_SIZES ?? '2,20').split(',').map(Number)
const BEFORE = process.env.BENCH_MD_BEFORE ? resolve(process.env.BENCH_MD_BEFORE) : undefined
const UNPATCHED_BEFORE = process.env.BENCH_MD_BEFORE_UNPATCHED === '1'
const CORPORA = (process.env.BENCH_MD_CORPORA ?? 'text,code').split(',') as Corpus[]

interface Sample {
  /** Wall time of the render. */
  ms: number
  /** CPU time of the child over the render (user + system): steadier on a busy machine. */
  cpu: number
  hash: string
}

/** The child: reads the answer, renders it once (one-shot or in chunks), prints {ms, hash}. */
const CHILD = `
${CHILD_HEADER}
${CHILD_PIECES}
const hash = createHash('sha256')
const start = performance.now()
const cpu0 = process.cpuUsage()
const r = createRenderer({columns: () => 100, color: true, hyperlinks: false, codeTheme: 'ansi'})
for (const p of pieces) {
  hash.update(r.push(p))
  while (r.waiting) {
    await r.waiting
    hash.update(r.take())
  }
}
hash.update(r.end())
const ms = performance.now() - start
const used = process.cpuUsage(cpu0)
const cpu = (used.user + used.system) / 1000
process.stdout.write(JSON.stringify({ms, cpu, hash: hash.digest('hex')}) + '\\n')
`

/** The renderer in `dir` bundled with the child above, as an ES module file in `out`. */
function bundle(dir: string, out: string, name: string, patched = true): Promise<string> {
  return bundleRenderer(ROOT, dir, CHILD, join(out, `${name}.mjs`), patched)
}

function sample(script: string, answer: string, chunked: boolean): Sample {
  const out = execFileSync(process.execPath, [script, answer, chunked ? 'chunked' : 'whole'], {encoding: 'utf8', maxBuffer: 1 << 20})
  return JSON.parse(out.trim().split('\n').pop()!) as Sample
}

const stats = (xs: number[]) => ({min: Math.min(...xs), median: median(xs), max: Math.max(...xs)})

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-md-render-'))
  try {
    const now = await bundle(join(ROOT, 'src', 'lib', 'markdown'), dir, 'now')
    const then = BEFORE ? await bundle(BEFORE, dir, 'before', !UNPATCHED_BEFORE) : undefined
    for (const [mb, corpus] of SIZES.flatMap((mb) => CORPORA.map((c) => [mb, c] as const))) {
      const answer = join(dir, `answer-${corpus}-${mb}.md`)
      writeFileSync(answer, answerOf(corpus, mb * 1024 * 1024))
      for (const chunked of [false, true]) {
        const after: Sample[] = []
        const before: Sample[] = []
        for (let i = 0; i < RUNS; i++) {
          // Alternate which goes first, so neither always runs on a cooler machine.
          if (then && i % 2 === 0) before.push(sample(then, answer, chunked))
          after.push(sample(now, answer, chunked))
          if (then && i % 2 === 1) before.push(sample(then, answer, chunked))
        }
        const how = chunked ? `${CHUNK}-char chunks` : 'one-shot'
        const hashes = new Set(after.map((s) => s.hash))
        const same = before.length > 0 ? before.every((s) => hashes.has(s.hash)) : undefined
        for (const field of ['ms', 'cpu'] as const) {
          const a = stats(after.map((s) => s[field] / mb))
          const b = before.length > 0 ? stats(before.map((s) => s[field] / mb)) : undefined
          const what = field === 'ms' ? 'wall' : 'CPU'
          process.stderr.write(
            `markdown render ${mb} MB ${CORPUS_NAME[corpus]} ${how}, ${what}: ms/MB min/median/max ${a.min.toFixed(0)}/${a.median.toFixed(0)}/${a.max.toFixed(0)}` +
              (b ? `, before ${b.min.toFixed(0)}/${b.median.toFixed(0)}/${b.max.toFixed(0)}; bytes ${same ? 'identical' : 'DIFFER'}` : '') +
              `; sha256 ${[...hashes].join(',').slice(0, 16)}\n`,
          )
          rows.push({
            bench: 'markdown-render',
            metric: `${mb} MB ${CORPUS_NAME[corpus]} answer, ${how}, in process, ${what} (ms per MB, median)`,
            value: Math.round(a.median),
            spread: [Math.round(a.min), Math.round(a.max)],
            unit: 'ms/MB',
            ...(b ? {baseline: Math.round(b.median), baselineSpread: [Math.round(b.min), Math.round(b.max)] as [number, number], baselineName: 'before', ratio: a.median / b.median} : {}),
            target: '(report)',
            pass: same !== false,
          })
        }
      }
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
  return rows
}

await runIfMain(import.meta.url, run)
