// `@` completion over 50,000 files (SPEC §19 "Performance targets"): on a
// generated git work tree, the first list after Tab (the index listed cold,
// then ranked) and the list's update per key while a mention is typed (p95),
// against a bare `git ls-files --cached --others --exclude-standard` plus a
// substring filter measured in the same run. Targets: a key ≤ 50 ms at p95,
// the first list ≤ 150 ms.
//
// Run: node --import tsx bench/mentions.ts   (BENCH_MENTION_FILES, BENCH_MENTION_RUNS)
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {FileIndex} from '../src/lib/inquire/complete/file-index.js'
import {LIST_ROWS} from '../src/lib/inquire/complete/mention-completion.js'
import {median, runIfMain, type BenchRow} from './lib/report.js'

const FILES = Number(process.env.BENCH_MENTION_FILES ?? 50_000)
const RUNS = Number(process.env.BENCH_MENTION_RUNS ?? 7)
const WORDS = ['app', 'core', 'util', 'model', 'view', 'render', 'parser', 'config', 'client', 'server', 'test', 'mock', 'index', 'main', 'types', 'store', 'event', 'layout', 'buffer', 'stream']

/** A tree of `n` empty files: 40 top folders, 25 sub-folders each, files named from WORDS. */
function generateTree(root: string, n: number): void {
  let made = 0
  for (let a = 0; made < n; a++) {
    for (let b = 0; b < 25 && made < n; b++) {
      const dir = join(root, `${WORDS[a % WORDS.length]}${a}`, `${WORDS[(a + b) % WORDS.length]}-${b}`)
      mkdirSync(dir, {recursive: true})
      for (let f = 0; f < 50 && made < n; f++, made++) writeFileSync(join(dir, `${WORDS[(a * 7 + f) % WORDS.length]}_${WORDS[(b + f) % WORDS.length]}${f}.ts`), '')
    }
  }
  writeFileSync(join(root, '.gitignore'), 'build/\n')
  execFileSync('git', ['init', '-q'], {cwd: root})
}

/** The baseline: git's listing and a substring filter, nothing else. */
function bare(root: string, query: string): number {
  const t0 = performance.now()
  const out = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024}).stdout
  const q = query.toLowerCase()
  const hits = out.split('\0').filter((f) => f.toLowerCase().includes(q))
  if (hits.length < 0) throw new Error('unreachable')
  return performance.now() - t0
}

function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]
}

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'jp-bench-mentions-'))
  try {
    generateTree(root, FILES)
    const firstList: number[] = []
    /** Tab with the index listed (it is listed when the prompt opens): the first rank of a fresh index. */
    const tabList: number[] = []
    const bareList: number[] = []
    const keys: number[] = []
    const bareKeys: number[] = []
    const typed = 'rendermain'
    for (let r = 0; r < RUNS; r++) {
      // A root spelled anew per run: the per-workspace slot starts empty, so
      // the tree is listed again (git's own caches warm, as in use).
      const index = new FileIndex(root + '/.'.repeat(r))
      const t0 = performance.now()
      await index.refresh()
      const t1 = performance.now()
      index.rank('', LIST_ROWS)
      const t2 = performance.now()
      firstList.push(t2 - t0)
      tabList.push(t2 - t1)
      bareList.push(bare(root, ''))
      // Typing a mention, one key at a time, then erasing it again (a fresh match each time).
      for (let i = 1; i <= typed.length; i++) {
        const t1 = performance.now()
        index.rank(typed.slice(0, i), LIST_ROWS)
        keys.push(performance.now() - t1)
      }
      for (let i = typed.length - 1; i >= 1; i--) {
        const t1 = performance.now()
        index.rank(typed.slice(0, i), LIST_ROWS)
        keys.push(performance.now() - t1)
      }
      // The bare per-key cost: a substring filter over the listing already in memory.
      const listing = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024}).stdout.split('\0')
      for (let i = 1; i <= typed.length; i++) {
        const t1 = performance.now()
        const q = typed.slice(0, i)
        listing.filter((f) => f.toLowerCase().includes(q))
        bareKeys.push(performance.now() - t1)
      }
    }
    const first = median(firstList)
    const bareFirst = median(bareList)
    const key = p95(keys)
    const bareKey = p95(bareKeys)
    const tab = median(tabList)
    return [
      {
        bench: 'mentions',
        metric: `first @ list after Tab (index listed at prompt open), ${FILES} files`,
        value: tab,
        unit: 'ms',
        spread: [Math.min(...tabList), Math.max(...tabList)],
        baseline: bareFirst,
        baselineName: 'git ls-files + filter',
        ratio: tab / bareFirst,
        target: '≤ 150 ms',
        pass: tab <= 150,
      },
      {
        bench: 'mentions',
        metric: `index listed cold + first list, ${FILES} files`,
        value: first,
        unit: 'ms',
        spread: [Math.min(...firstList), Math.max(...firstList)],
        baseline: bareFirst,
        baselineSpread: [Math.min(...bareList), Math.max(...bareList)],
        baselineName: 'git ls-files + filter',
        ratio: first / bareFirst,
        // Listing happens in the background when the prompt opens; this row
        // is that listing plus the first rank, against git listing alone.
        target: '≤ 1.5×',
        pass: first / bareFirst <= 1.5,
      },
      {
        bench: 'mentions',
        metric: `@ list update per key, p95, ${FILES} files`,
        value: key,
        unit: 'ms',
        spread: [Math.min(...keys), Math.max(...keys)],
        baseline: bareKey,
        baselineName: 'substring filter of the listing',
        ratio: key / bareKey,
        target: '≤ 50 ms',
        pass: key <= 50,
      },
    ]
  } finally {
    rmSync(root, {recursive: true, force: true})
  }
}

await runIfMain(import.meta.url, run)
