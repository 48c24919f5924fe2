// The answer printing above an open prompt (SPEC §18 "Type to queue"): the
// printer continues the answer's unfinished line above the prompt, keeps
// the prompt on its own rows below it, and goes back to where the line
// stopped when the prompt erases itself. Checked on a real terminal
// emulator (@xterm/headless): whatever the chunking and wherever the prompt
// opens and closes, the screen ends up exactly as if no prompt had been
// there, and while it is open its row is intact at the bottom.
import {expect} from 'chai'
import fc from 'fast-check'
import {createRequire} from 'node:module'
import type * as XtermHeadless from '@xterm/headless'
import {Printer} from '../../src/lib/printer/printer.js'
import {claimPromptArea} from '../../src/lib/terminal/owner.js'
import {advance, LINE_START} from '../../src/lib/terminal/cells.js'

const require = createRequire(import.meta.url)
const {Terminal} = require('@xterm/headless') as typeof XtermHeadless

const COLS = 20

/** A terminal stdout: every byte in order, written at once (as a terminal's stream is), for the emulator. */
function terminalStream(bytes: string[]): NodeJS.WritableStream {
  return {
    isTTY: true,
    columns: COLS,
    write(chunk: Buffer | string, cb?: () => void) {
      bytes.push(chunk.toString())
      cb?.()
      return true
    },
    on() {
      return this
    },
    once() {
      return this
    },
  } as unknown as NodeJS.WritableStream
}

async function render(bytes: string[], rows = 30): Promise<string[]> {
  // convertEol: a terminal's line discipline (ONLCR, which raw mode keeps) turns LF into CR LF.
  const term = new Terminal({cols: COLS, rows, allowProposedApi: true, scrollback: 0, convertEol: true})
  await new Promise<void>((resolve) => term.write(bytes.join(''), resolve))
  const out: string[] = []
  for (let i = 0; i < rows; i++) out.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
  while (out.length > 0 && out.at(-1) === '') out.pop()
  term.dispose()
  return out
}

/** The printer writing plain text (no markdown, no colour) to a 20-column terminal. */
function printerOn(bytes: string[]): Printer {
  const stdout = terminalStream(bytes)
  return new Printer({stdout, stderr: stdout, stdoutIsTTY: true, stderrIsTTY: true, color: false, openPromptWriter: () => undefined})
}

/** Prompts a failing test left open (the owner is process-wide): released after each test. */
const leftOpen = new Set<() => void>()

/** A one-row prompt: `Queue: …`, drawn where the cursor is; cleared back to column 0. */
function openQueuePrompt(bytes: string[], text = 'Queue: hi'): {close(erased: boolean): void} {
  const claim = claimPromptArea({
    clear: () => bytes.push('\r\u001b[2K'),
    redraw: () => bytes.push(text),
  })
  const release = () => claim({erased: false})
  leftOpen.add(release)
  // The first frame, as a prompt draws it once it owns the screen.
  bytes.push('\r\u001b[2K' + text)
  return {
    close(erased) {
      if (erased) bytes.push('\r\u001b[2K')
      else bytes.push('\r\n')
      leftOpen.delete(release)
      claim({erased})
    },
  }
}

describe('printer: the answer above an open prompt', () => {
  afterEach(() => {
    for (const release of leftOpen) release()
    leftOpen.clear()
  })

  it('continues the unfinished line above the prompt; the prompt stays intact below it', async () => {
    const bytes: string[] = []
    const printer = printerOn(bytes)
    printer.assistant('one two ')
    printer.flushSync()
    const prompt = openQueuePrompt(bytes)
    printer.assistant('three four five six seven')
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['one two three four f', 'ive six seven', 'Queue: hi'])
    printer.assistant(' eight\nnine')
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['one two three four f', 'ive six seven eight', 'nine', 'Queue: hi'])
    prompt.close(true)
    printer.assistant(' ten')
    printer.endAssistant()
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['one two three four f', 'ive six seven eight', 'nine ten'])
    printer.close()
  })

  it('a line that fills its row exactly: the newline after it is the wrap, not a blank row', async () => {
    const bytes: string[] = []
    const printer = printerOn(bytes)
    const prompt = openQueuePrompt(bytes)
    printer.assistant('x'.repeat(COLS))
    printer.flushSync()
    printer.assistant('\nnext')
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['x'.repeat(COLS), 'next', 'Queue: hi'])
    printer.assistant(' ' + 'y'.repeat(COLS - 5))
    printer.flushSync()
    prompt.close(true)
    printer.assistant('\nlast')
    printer.endAssistant()
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['x'.repeat(COLS), `next ${'y'.repeat(COLS - 5)}`, 'last'])
    printer.close()
  })

  it('a prompt that leaves its last picture (a menu): the answer goes on below it, on a line of its own', async () => {
    const bytes: string[] = []
    const printer = printerOn(bytes)
    printer.assistant('half a line')
    printer.flushSync()
    const prompt = openQueuePrompt(bytes, 'Menu [c] c')
    prompt.close(false)
    printer.assistant(' and the rest')
    printer.endAssistant()
    printer.flushSync()
    expect(await render(bytes)).to.deep.equal(['half a line', 'Menu [c] c', ' and the rest'])
    printer.close()
  })

  it('whatever the chunks and wherever the prompt opens and closes, the screen is what it is with no prompt', () => {
    const word = fc.stringMatching(/^[a-z]{1,9}$/)
    const piece = fc.oneof(word, fc.constant(' '), fc.constant('\n'), fc.constant('界'), fc.constant('x'.repeat(COLS)), fc.constant('x'.repeat(COLS - 1)))
    return fc.assert(
      fc.asyncProperty(fc.array(piece, {minLength: 1, maxLength: 40}), fc.nat(), fc.nat(), async (pieces, a, b) => {
        const open = a % (pieces.length + 1)
        const close = open + (b % (pieces.length - open + 1))
        const plain: string[] = []
        const straight = printerOn(plain)
        for (const p of pieces) straight.assistant(p)
        straight.endAssistant()
        straight.flushSync()
        straight.close()

        const bytes: string[] = []
        const printer = printerOn(bytes)
        let prompt: {close(erased: boolean): void} | undefined
        for (const [i, p] of pieces.entries()) {
          if (i === open) prompt = openQueuePrompt(bytes)
          if (i === close && prompt) {
            prompt.close(true)
            prompt = undefined
          }
          printer.assistant(p)
          printer.flushSync()
        }
        prompt?.close(true)
        printer.endAssistant()
        printer.flushSync()
        printer.close()
        expect(await render(bytes, 60)).to.deep.equal(await render(plain, 60))
      }),
      {numRuns: 150},
    )
  })
})

describe('advance: where text leaves the cursor', () => {
  const at = (column: number) => ({column, open: true})
  it('counts from the cursor without a newline, from the line start after one', () => {
    expect(advance('abc', at(2), 20)).to.deep.equal(at(5))
    expect(advance('abc\nde', at(7), 20)).to.deep.equal(at(2))
    expect(advance('ab\n', at(7), 20)).to.deep.equal(LINE_START)
    expect(advance('', at(3), 20)).to.deep.equal(at(3))
  })

  it('escapes take no cells, a tab goes to the next stop, wide characters take two', () => {
    expect(advance('\u001b[1mab\u001b[22m', LINE_START, 20)).to.deep.equal(at(2))
    expect(advance('\u001b]8;;https://x\u0007link\u001b]8;;\u0007', LINE_START, 20)).to.deep.equal(at(4))
    expect(advance('a\tb', LINE_START, 20)).to.deep.equal(at(9))
    expect(advance('界x', at(1), 20)).to.deep.equal(at(4))
  })

  it('wraps as a terminal does: a full row keeps the cursor at its end, the next character starts a row, a wide one that does not fit wraps whole', () => {
    expect(advance('x'.repeat(20), LINE_START, 20)).to.deep.equal(at(20))
    expect(advance('y', at(20), 20)).to.deep.equal(at(1))
    expect(advance('x'.repeat(45), LINE_START, 20)).to.deep.equal(at(5))
    expect(advance('界', at(19), 20)).to.deep.equal(at(2))
    expect(advance('界y', at(19), 20)).to.deep.equal(at(3))
  })
})
