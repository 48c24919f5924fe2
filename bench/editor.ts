// Editor round trip: `TerminalEditorBackend.editText` (private temp dir and
// file, write, spawn through execa with the terminal handed over, read back,
// remove) with a /bin/sh script editor that appends a line, against the bare
// minimum the same edit needs: write a temp file, spawn the same script with
// node:child_process, wait, read it back. Paired, alternating runs in one
// process; medians. The target (≤ 1.5× the bare spawn) is ours — SPEC §15
// names none — and says the service may cost at most half a spawn on top.
import {spawn} from 'node:child_process'
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {buildEditorBackend} from '../src/lib/editor/build.js'
import {emitRows, formatTable, median, percentile, type BenchRow} from './lib/report.js'

const RUNS = Number(process.env.BENCH_EDITOR_RUNS ?? 30)
const WARMUP = 3
const TARGET = 1.5
const APPENDED = 'appended by the bench editor'
const CONTENT = 'A reply being edited.\n\nSecond paragraph with some words in it.\n'

function bareSpawn(script: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(script, [file], {stdio: ['ignore', 'ignore', 'inherit']})
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench editor exited ${code}`))))
  })
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-bench-editor-'))
  try {
    const script = join(dir, 'append.sh')
    writeFileSync(script, `#!/bin/sh\nfor last; do :; done\nprintf '%s\\n' '${APPENDED}' >> "$last"\n`)
    chmodSync(script, 0o755)
    const backend = buildEditorBackend({cmd: {program: script, args: [], shell: false}, env: process.env})
    if (backend === undefined) throw new Error('no editor backend for the bench script')
    const expected = CONTENT + APPENDED + '\n'

    const service = async (): Promise<number> => {
      const t0 = performance.now()
      const r = await backend.editText(CONTENT)
      const ms = performance.now() - t0
      if (r.outcome !== 'saved' || r.text !== expected) throw new Error(`editText returned ${JSON.stringify(r)}`)
      return ms
    }

    const baseFile = join(dir, 'bare.md')
    const bare = async (): Promise<number> => {
      const t0 = performance.now()
      writeFileSync(baseFile, CONTENT, {mode: 0o600})
      await bareSpawn(script, baseFile)
      const text = readFileSync(baseFile, 'utf8')
      const ms = performance.now() - t0
      if (text !== expected) throw new Error(`bare spawn read back ${JSON.stringify(text)}`)
      return ms
    }

    // Warm the lazy imports (tmp, execa) and the file cache for both.
    for (let i = 0; i < WARMUP; i++) {
      await bare()
      await service()
    }

    const bareTimes: number[] = []
    const serviceTimes: number[] = []
    const diffs: number[] = []
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first so drift in the machine's load hits both.
      let b: number
      let s: number
      if (i % 2 === 0) {
        b = await bare()
        s = await service()
      } else {
        s = await service()
        b = await bare()
      }

      bareTimes.push(b)
      serviceTimes.push(s)
      diffs.push(s - b)
    }

    const b = median(bareTimes)
    const s = median(serviceTimes)
    const overhead = median(diffs)
    return [
      {
        bench: 'editor',
        metric: `editText round trip (median of ${RUNS}, p90 ${percentile(serviceTimes, 90).toFixed(2)} ms)`,
        value: s,
        unit: 'ms',
        baseline: b,
        baselineName: 'bare child_process spawn',
        ratio: s / b,
        target: `≤ ${TARGET}×`,
        pass: s / b <= TARGET,
      },
      {
        bench: 'editor',
        metric: 'overhead per edit (median paired difference)',
        value: overhead,
        unit: 'ms',
        target: `≤ ${((TARGET - 1) * b).toFixed(2)} ms (= ${TARGET}× − 1× of bare)`,
        pass: overhead <= (TARGET - 1) * b,
      },
    ]
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run()
  console.log(formatTable(rows))
  emitRows(rows)
}
