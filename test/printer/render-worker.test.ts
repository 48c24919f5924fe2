// A long answer rendered on a second thread (printer/hand-off.ts, the
// built dist/render-worker.cjs): the main renderer hands the rest of the
// answer to the worker where it is idle, and the printer waits for the
// worker before anything else reaches the terminal. What the terminal gets
// must be byte for byte what the main renderer alone gives, with chrome and
// broken lines in between, and nothing may be lost if the worker dies.
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import type * as XtermHeadless from '@xterm/headless'

import {createRenderer, type RendererOptions} from '../../src/lib/markdown/index.js'
import {HAND_OFF_AFTER, HandOffStream, RenderWorker} from '../../src/lib/printer/hand-off.js'
import type {PrinterMarkdown} from '../../src/lib/printer/markdown.js'
import {Printer} from '../../src/lib/printer/printer.js'
import {textHeavyAnswer} from '../../bench/markdown.js'
import {CORPUS} from '../markdown/corpus.js'
import {chunksOf} from '../markdown/render-helpers.js'
import {textSink} from './fixtures/tty-sink.js'

const {Terminal} = createRequire(import.meta.url)('@xterm/headless') as typeof XtermHeadless

/** What a terminal `columns` wide holds after `bytes` (scrollback included), right-trimmed rows. */
async function screenOf(bytes: string, columns = 100): Promise<string[]> {
  const term = new Terminal({cols: columns, rows: 50, scrollback: 10_000, allowProposedApi: true, convertEol: true})
  await new Promise<void>((resolve) => term.write(bytes, resolve))
  const buf = term.buffer.active
  const rows: string[] = []
  for (let i = 0; i < buf.length; i++) rows.push(buf.getLine(i)?.translateToString(true) ?? '')
  term.dispose()
  while (rows.length > 0 && rows.at(-1) === '') rows.pop()
  return rows
}

const ROOT = join(import.meta.dirname, '..', '..')
const OPTIONS: Omit<RendererOptions, 'columns'> = {color: true, hyperlinks: false, codeTheme: 'ansi'}

const terminal = (columns = 100) => textSink(true, columns)

/** Every stream markdownWith made, in order. */
const streams: HandOffStream[] = []

/** What the printer renders with: the main renderer alone, or handing off to a worker shared by its answers (whose starts are counted), stopped when the printer closes unless `keep` (the test stops it). */
function markdownWith(worker: boolean, started: RenderWorker[], columns: () => number, start: () => RenderWorker | undefined = RenderWorker.start, keep = false): PrinterMarkdown {
  let shared: RenderWorker | null | undefined
  const source = () => {
    if (shared === undefined) {
      shared = start() ?? null
      if (shared) started.push(shared)
    }
    return shared ?? undefined
  }
  return {
    assistant: (sink) => {
      const local = createRenderer({...OPTIONS, columns})
      if (!worker || !sink) return local
      const stream = new HandOffStream(local, OPTIONS, columns, sink, source)
      streams.push(stream)
      return stream
    },
    close: () => {
      if (!keep) shared?.stop()
    },
  }
}

/** A turn's output through a printer on one shared terminal: pieces of the answer, and between some of them chrome or a broken line. */
async function print(worker: boolean, steps: (string | {chrome: string} | 'broken' | 'pause')[], started: RenderWorker[] = [], start?: () => RenderWorker | undefined, keep = false): Promise<string> {
  const tty = terminal()
  const printer = new Printer({stdout: tty, stderr: tty, color: true, markdown: markdownWith(worker, started, () => tty.columns, start, keep), openPromptWriter: () => undefined})
  for (const step of steps) {
    if (step === 'pause') await new Promise((resolve) => setTimeout(resolve, 5))
    else if (step === 'broken') printer.lineBroken()
    else if (typeof step === 'string') printer.assistant(step)
    else printer.chrome(step.chrome)
    await printer.writable()
  }
  printer.endAssistant()
  await printer.flush()
  printer.close()
  return tty.text
}

/** Until the worker has booted: the answer's first piece, then pauses (a model thinking), so the hand-off comes while the rest streams. */
async function booted(started: RenderWorker[]): Promise<void> {
  for (let i = 0; i < 3000 && !started[0]?.ready; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(started[0]?.ready, 'the worker booted').to.equal(true)
}

describe('printer: a long answer rendered on a second thread', function () {
  this.timeout(120_000)
  beforeEach(() => {
    streams.length = 0
  })

  it('gives the bytes of the main renderer alone, the answer handed to the worker part way', async () => {
    const answer = textHeavyAnswer(300_000)
    const pieces = chunksOf(answer, 200)
    const alone = await print(false, pieces)
    const started: RenderWorker[] = []
    const tty = terminal()
    const printer = new Printer({stdout: tty, stderr: tty, color: true, markdown: markdownWith(true, started, () => 100), openPromptWriter: () => undefined})
    printer.assistant(pieces[0])
    await booted(started)
    for (const p of pieces.slice(1)) {
      printer.assistant(p)
      await printer.writable()
    }
    printer.endAssistant()
    await printer.flush()
    printer.close()
    expect(started).to.have.length(1)
    expect(streams[0].handedOff).to.equal(true)
    expect(tty.text.length).to.equal(alone.length)
    expect(tty.text === alone, 'same bytes').to.equal(true)
  })

  it('keeps chrome and broken lines where they were, for every answer of the corpus behind a long first part', async () => {
    const lead = textHeavyAnswer(HAND_OFF_AFTER + 4000)
    // One worker, booted before the first answer starts and kept across them (as a run's answers share one):
    // each hand-off comes in its answer's first part, and 50 answers cost one boot.
    const warm = RenderWorker.start()!
    for (let i = 0; i < 400 && !warm.ready; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    try {
      await eachCorpusAnswer(lead, warm)
    } finally {
      warm.stop()
    }
  })

  async function eachCorpusAnswer(lead: string, warm: RenderWorker): Promise<void> {
    for (const {name, text} of CORPUS) {
      const steps: (string | {chrome: string} | 'broken' | 'pause')[] = [lead.slice(0, 10), 'pause']
      for (const p of chunksOf(lead.slice(10), 500)) steps.push(p)
      chunksOf(text, 23).forEach((p, i) => {
        steps.push(p)
        if (i % 5 === 2) steps.push({chrome: `⚙ tool ${i}`})
        else if (i % 7 === 3) steps.push('broken')
      })
      const started: RenderWorker[] = []
      const first = await print(false, steps)
      const second = await print(true, steps, started, () => warm, true)
      expect(started, name).to.have.length(1)
      expect(streams.at(-1)!.handedOff, name).to.equal(true)
      if (second !== first) {
        let d = 0
        while (second[d] === first[d]) d++
        console.log(name, JSON.stringify(first.slice(d - 300, d + 200)), '\n---\n', JSON.stringify(second.slice(d - 300, d + 200)))
        expect(second, name).to.equal(first)
      }
    }
  }

  it('renders a run\'s answers on one worker (a tool loop answers many times), each byte for byte', async () => {
    const answers = [textHeavyAnswer(HAND_OFF_AFTER * 2), CORPUS[3].text + '\n\n' + textHeavyAnswer(HAND_OFF_AFTER * 2)]
    const run = async (worker: boolean, started: RenderWorker[]) => {
      const tty = terminal()
      const printer = new Printer({stdout: tty, stderr: tty, color: true, markdown: markdownWith(worker, started, () => 100), openPromptWriter: () => undefined})
      for (const [k, answer] of answers.entries()) {
        const pieces = chunksOf(answer, 200)
        printer.assistant(pieces[0])
        if (worker && k === 0) await booted(started)
        for (const p of pieces.slice(1)) {
          printer.assistant(p)
          await printer.writable()
        }
        printer.endAssistant()
        printer.chrome(`⚙ tool ${k}`)
      }
      await printer.flush()
      printer.close()
      return tty.text
    }
    const started: RenderWorker[] = []
    const alone = await run(false, [])
    const handed = await run(true, started)
    expect(started, 'one worker').to.have.length(1)
    expect(streams.map((s) => s.handedOff)).to.deep.equal([true, true])
    expect(handed === alone, 'same bytes').to.equal(true)
    expect(started[0].failed, 'stopped with the printer').to.equal(true)
  })

  it('loses nothing when the worker dies: what it had not rendered is printed as it came', async () => {
    const answer = textHeavyAnswer(HAND_OFF_AFTER * 3)
    const started: RenderWorker[] = []
    const tty = terminal()
    const printer = new Printer({stdout: tty, stderr: tty, color: false, markdown: markdownWith(true, started, () => 100), openPromptWriter: () => undefined})
    const pieces = chunksOf(answer, 200)
    printer.assistant(pieces[0])
    await booted(started)
    const half = Math.floor(pieces.length / 2)
    for (const p of pieces.slice(1, half)) {
      printer.assistant(p)
      await printer.writable()
    }
    expect(streams[0].handedOff, 'handed off before the failure').to.equal(true)
    printer.chrome('⚙ before')
    started[0].stop()
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const p of pieces.slice(half)) printer.assistant(p)
    printer.endAssistant()
    await printer.flush()
    printer.close()
    // Rendered up to the failure, the rest as it came.
    const before = tty.text.indexOf('⚙ before')
    expect(before).to.be.greaterThan(0)
    expect(tty.text.slice(before)).to.include(pieces.slice(half).join(''))
  })

  it('a worker that hangs is taken for dead after a few seconds of silence: the printer goes on, the text as it came', async () => {
    // Says it is ready, then never answers (a worker wedged outside its own error handling).
    const dir = mkdtempSync(join(tmpdir(), 'jp-hung-worker-'))
    const file = join(dir, 'hung.cjs')
    writeFileSync(file, "const {workerData} = require('node:worker_threads'); const w = new Int32Array(workerData.words); Atomics.store(w, 1, 1); workerData.port.on('message', () => { for (;;) {} })")
    try {
      const answer = textHeavyAnswer(HAND_OFF_AFTER * 2)
      const started: RenderWorker[] = []
      const tty = terminal()
      const printer = new Printer({stdout: tty, stderr: tty, color: false, markdown: markdownWith(true, started, () => 100, () => RenderWorker.start(file)), openPromptWriter: () => undefined})
      const pieces = chunksOf(answer, 200)
      printer.assistant(pieces[0])
      await booted(started)
      for (const p of pieces.slice(1)) {
        printer.assistant(p)
        await printer.writable()
      }
      expect(streams[0].handedOff).to.equal(true)
      // Waits for the worker, which never answers: given up on, not waited for forever (the test's timeout).
      printer.chrome('⚙ after')
      expect(started[0].failed).to.equal(true)
      printer.endAssistant()
      await printer.flush()
      printer.close()
      const after = tty.text.indexOf('⚙ after')
      expect(after).to.be.greaterThan(0)
      // What the worker never gave back is there before the chrome, as it came.
      expect(tty.text.slice(0, after)).to.include(answer.slice(answer.length - 3000))
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('the worker is built with the CLI bundle\'s highlight.js patch (scripts/highlight-patch.js)', () => {
    // What each patch takes out (as esbuild prints it) is in neither bundle; what the compile patch puts in is in both.
    for (const file of ['dist/jp.cjs', 'dist/render-worker.cjs']) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      expect(text, file).to.include('highlightAuto')
      expect(text, file).to.not.match(/Object\.create\(mode, \{\s*parent:/)
      expect(text, file).to.not.match(/match\.findIndex\(/)
      expect(text, file).to.match(/if \(language\.isCompiled\) return language;/)
    }
  })

  it('a short answer is never handed off', async () => {
    const started: RenderWorker[] = []
    const short = CORPUS[0].text
    const out = await print(true, [short.slice(0, 5), 'pause', ...chunksOf(short.slice(5), 40)], started)
    expect(out).to.equal(await print(false, [short.slice(0, 5), ...chunksOf(short.slice(5), 40)]))
    // Its worker, if it was started, was stopped when the printer closed.
    for (const w of started) expect(w.failed).to.equal(true)
    expect(streams[0].handedOff).to.equal(false)
  })

  it('draws a table being read from the preview the worker sends with its output, and leaves the screen the main renderer alone leaves', async () => {
    const lead = textHeavyAnswer(HAND_OFF_AFTER + 4000)
    const head = '\n\n| Name | Size |\n|---|---:|\n| alpha | 1 |\n| beta | 22 |\n'
    const tail = '| gamma-with-a-longer-name | 333 |\n\nAfter the table.\n'
    const started: RenderWorker[] = []
    const tty = Object.assign(terminal(), {rows: 40})
    const printer = new Printer({stdout: tty, stderr: tty, color: true, markdown: markdownWith(true, started, () => 100), openPromptWriter: () => undefined})
    printer.assistant(lead.slice(0, 10))
    await booted(started)
    for (const p of chunksOf(lead.slice(10), 500)) {
      printer.assistant(p)
      await printer.writable()
    }
    printer.assistant(head)
    const shown = () => tty.text.replace(/\x1b\[[0-9;]*m/g, '')
    for (let i = 0; i < 400 && !/│ beta +│/.test(shown()); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(streams[0].handedOff).to.equal(true)
    // The table has not ended (its last row and the blank line after it are still to come): its rows show.
    expect(shown()).to.match(/│ beta +│/)
    printer.assistant(tail)
    printer.endAssistant()
    await printer.flush()
    printer.close()
    const alone = await print(false, [lead, head, tail])
    expect((await screenOf(tty.text)).join('\n')).to.equal((await screenOf(alone)).join('\n'))
  })
})
