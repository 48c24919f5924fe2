import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {colorEnabled, Printer, resolveFormat} from '../../src/lib/printer/printer.js'
import {claimPromptArea} from '../../src/lib/terminal/owner.js'

const ESC = '\u001b'

/** A sink that records writes; optionally slow, to exercise backpressure. */
class Sink extends Writable {
  data = ''
  constructor(
    private readonly log?: {name: string; entries: [string, string][]},
    opts: {highWaterMark?: number; delayMs?: number} = {},
  ) {
    super({highWaterMark: opts.highWaterMark ?? 16 * 1024, decodeStrings: false})
    this.delayMs = opts.delayMs ?? 0
  }
  private readonly delayMs: number
  override _write(chunk: string | Buffer, _enc: string, cb: (e?: Error | null) => void): void {
    const s = chunk.toString()
    this.data += s
    this.log?.entries.push([this.log.name, s])
    if (this.delayMs > 0) setTimeout(cb, this.delayMs)
    else cb()
  }
}

/** The writes of a channel in a row, as one (which of them went out at once is not what these tests are about). */
function runs(entries: [string, string][]): [string, string][] {
  const out: [string, string][] = []
  for (const [name, text] of entries) {
    const last = out[out.length - 1]
    if (last?.[0] === name) last[1] += text
    else out.push([name, text])
  }
  return out
}

function make(opts: {tty?: boolean; format?: 'text' | 'json'; color?: boolean} = {}) {
  const stdout = new Sink()
  const stderr = new Sink()
  let opened = 0
  const printer = new Printer({
    stdout,
    stderr,
    format: opts.format ?? 'text',
    stdoutIsTTY: opts.tty ?? false,
    stderrIsTTY: opts.tty ?? false,
    color: opts.color ?? true,
    openPromptWriter: () => {
      opened++
      return undefined
    },
  })
  return {printer, stdout, stderr, opened: () => opened}
}

describe('Printer', () => {
  it('the status line quotes its label through the untrusted-text sanitizer (a tool name cannot reach the terminal raw)', () => {
    const tty = new Sink()
    const printer = new Printer({stdout: new Sink(), stderr: new Sink(), openPromptWriter: () => tty})
    const stop = printer.startStatus(`Running x${ESC}]0;pwned\x07`)
    stop()
    expect(tty.data).to.include('Running x\\u001b]0;pwned\\u0007')
    expect(tty.data).not.to.include(`${ESC}]0;`)
  })

  it('sanitizes assistant text on a terminal, even with a sequence split across chunks', async () => {
    const {printer, stdout, stderr} = make({tty: true})
    for (const c of ['Hel', 'lo ', `${ESC}]0;ti`, `tle${ESC}`, '\\wor', `ld ${ESC}[3`, '1mred', `${ESC}[0m\r`]) printer.assistant(c)
    printer.endAssistant()
    await printer.flush()
    expect(stdout.data).to.equal(`Hello world ${ESC}[31mred${ESC}[0m\n`)
    expect(stderr.data).to.equal('')
  })

  it('drops colour on a terminal when colour is off', async () => {
    const {printer, stdout} = make({tty: true, color: false})
    printer.assistant(`${ESC}[31mred${ESC}[0m\n`)
    await printer.flush()
    expect(stdout.data).to.equal('red\n')
  })

  it('passes the model text through unaltered when stdout is not a terminal', async () => {
    const {printer, stdout} = make({tty: false})
    const raw = `a${ESC}[2J\rb${ESC}]0;t\u0007`
    printer.assistant(raw)
    printer.endAssistant()
    await printer.flush()
    expect(stdout.data).to.equal(raw + '\n')
  })

  it('writes a piece that comes with its UTF-8 bytes to a file or pipe as those bytes, in call order, without reading its text', async () => {
    const entries: [string, string][] = []
    const stdout = new Sink({name: 'out', entries})
    const stderr = new Sink({name: 'err', entries})
    const printer = new Printer({stdout, stderr, openPromptWriter: () => undefined})
    const text = 'naïve — 😀 "q"\n'.repeat(400)
    const piece = {
      get text(): string {
        throw new Error('the text of a piece of bytes was read')
      },
      utf8: Buffer.from(text, 'utf8').toString('latin1'),
    }
    printer.assistant('before ')
    printer.assistant(piece)
    printer.notice('n')
    printer.assistant({text: 'short', utf8: 'short'}) // below the size written as it is: queued as text
    printer.endAssistant()
    await printer.flush()
    expect(entries).to.deep.equal([
      ['out', 'before '],
      ['out', text],
      ['err', 'n\n'],
      ['out', 'short\n'],
    ])
  })

  it('shows a piece that comes with bytes from its text on a terminal (sanitized) and in json', async () => {
    const raw = `x${ESC}]0;t\u0007 — `.repeat(1000)
    const piece = {text: raw, utf8: Buffer.from(raw, 'utf8').toString('latin1')}
    const tty = make({tty: true})
    tty.printer.assistant(piece)
    tty.printer.endAssistant()
    await tty.printer.flush()
    expect(tty.stdout.data).to.equal('x — '.repeat(1000) + '\n')
    const json = make({format: 'json'})
    json.printer.assistant(piece)
    await json.printer.flush()
    expect(JSON.parse(json.stdout.data)).to.deep.equal({type: 'text', text: raw})
  })

  for (const target of ['pipe', 'file'] as const) {
    it(`on a real stdout (${target}) whose writes reuse the printer's buffer, every byte of a long mixed answer arrives in order`, async () => {
      const child = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bytes-child.ts')
      const {expectedAnswer} = await import('./fixtures/bytes-child.js')
      const dir = mkdtempSync(join(tmpdir(), 'jp-printer-'))
      try {
        const out = join(dir, 'out')
        const fd = openSync(out, 'w')
        const r = spawnSync(process.execPath, ['--import', 'tsx', child, 'run'], {stdio: ['ignore', target === 'file' ? fd : 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024})
        closeSync(fd)
        expect(r.status, String(r.stderr)).to.equal(0)
        const got = target === 'file' ? readFileSync(out, 'utf8') : r.stdout.toString('utf8')
        expect(got.length).to.equal(expectedAnswer().length)
        expect(got === expectedAnswer(), 'the bytes are the answer').to.equal(true)
      } finally {
        rmSync(dir, {recursive: true, force: true})
      }
    })
  }

  it('puts chrome, notices, warnings and reasoning on stderr only; reasoning filtered, quoted text in chrome shown escaped', async () => {
    const {printer, stdout, stderr} = make({tty: true})
    printer.reasoning('thinking')
    printer.reasoning(`${ESC}[2J hard`)
    printer.chrome(`Calling tool ${ESC}]52;c;eA==\u0007x`)
    printer.notice('note')
    printer.warn('careful')
    printer.warn('⚠ already marked')
    await printer.flush()
    expect(stdout.data).to.equal('')
    expect(stderr.data).to.equal('thinking hard\nCalling tool \\u001b]52;c;eA==\\u0007x\nnote\n⚠ careful\n⚠ already marked\n')
  })

  it('breaks the line before chrome that follows half a line of assistant text on a shared terminal', async () => {
    const entries: [string, string][] = []
    const stdout = new Sink({name: 'out', entries})
    const stderr = new Sink({name: 'err', entries})
    const printer = new Printer({stdout, stderr, stdoutIsTTY: true, stderrIsTTY: true, openPromptWriter: () => undefined})
    printer.assistant('partial')
    printer.chrome('tool header')
    printer.assistant('more')
    printer.endAssistant()
    await printer.flush()
    expect(runs(entries).map(([n, s]) => `${n}:${s}`).join('|')).to.equal('out:partial\n|err:tool header\n|out:more\n')
  })

  it('keeps stdout and stderr in call order although writes are coalesced', async () => {
    const entries: [string, string][] = []
    const stdout = new Sink({name: 'out', entries})
    const stderr = new Sink({name: 'err', entries})
    const printer = new Printer({stdout, stderr, openPromptWriter: () => undefined})
    printer.assistant('a')
    printer.assistant('b')
    printer.notice('n1')
    printer.assistant('c\n')
    printer.notice('n2')
    await printer.flush()
    expect(runs(entries)).to.deep.equal([
      ['out', 'ab'],
      ['err', 'n1\n'],
      ['out', 'c\n'],
      ['err', 'n2\n'],
    ])
  })

  it('sends the first write of a macrotask at once (the first token is not held for the next turn of the loop) and gathers the writes after it', async () => {
    const entries: [string, string][] = []
    const stdout = new Sink({name: 'out', entries})
    const printer = new Printer({stdout, stderr: new Sink(), stdoutIsTTY: true, openPromptWriter: () => undefined})
    printer.assistant('# Answer\n\n')
    // No await: the stream has it already.
    expect(entries).to.deep.equal([['out', '# Answer\n\n']])
    printer.assistant('one ')
    printer.assistant('two ')
    printer.assistant('three')
    expect(entries).to.have.length(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(entries).to.deep.equal([
      ['out', '# Answer\n\n'],
      ['out', 'one two three'],
    ])
    // A later macrotask: its first write goes at once again.
    printer.assistant('\n')
    expect(entries).to.have.length(3)
    printer.endAssistant()
    await printer.flush()
    expect(stdout.data).to.equal('# Answer\n\none two three\n')
  })

  it('writes only NDJSON events on stdout in json format', async () => {
    const {printer, stdout, stderr} = make({format: 'json', tty: true})
    printer.reasoning('hmm')
    printer.assistant(`hi ${ESC}[2J`)
    printer.event({type: 'tool_call', id: 'c1', name: 'ls', arguments: {path: '.'}})
    printer.event({type: 'tool_result', id: 'c1', content: 'x', is_error: false})
    printer.notice('a notice')
    printer.error('boom')
    printer.endAssistant()
    await printer.flush()
    const events = stdout.data.trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(stdout.data.endsWith('\n')).to.equal(true)
    expect(events).to.deep.equal([
      {type: 'reasoning', text: 'hmm'},
      {type: 'text', text: `hi ${ESC}[2J`},
      {type: 'tool_call', id: 'c1', name: 'ls', arguments: {path: '.'}},
      {type: 'tool_result', id: 'c1', content: 'x', is_error: false},
      {type: 'error', message: 'boom'},
    ])
    expect(stderr.data).to.equal('a notice\nboom\n')
  })

  it('ignores event() in text format', async () => {
    const {printer, stdout} = make()
    printer.event({type: 'text', text: 'x'})
    await printer.flush()
    expect(stdout.data).to.equal('')
  })

  it('respects backpressure: writable() waits for a slow stdout and nothing is lost or reordered', async () => {
    const stdout = new Sink(undefined, {highWaterMark: 1024, delayMs: 1})
    const stderr = new Sink()
    const printer = new Printer({stdout, stderr, openPromptWriter: () => undefined})
    const chunk = 'x'.repeat(70 * 1024 - 1) + '\n'
    let waitedWhileBlocked = 0
    let expected = ''
    for (let i = 0; i < 20; i++) {
      const line = `${i}:${chunk}`
      expected += line
      printer.assistant(line)
      const w = printer.writable()
      let settled = false
      void w.then(() => (settled = true))
      await Promise.resolve()
      if (!settled && stdout.writableNeedDrain) waitedWhileBlocked++
      await w
      expect(stdout.writableNeedDrain, `after writable() #${i}`).to.equal(false)
    }
    await printer.flush()
    expect(waitedWhileBlocked).to.be.greaterThan(0)
    expect(stdout.data).to.equal(expected)
  })

  it('opens the terminal writer lazily, once, and writes nothing when it cannot', () => {
    const {printer, opened, stdout, stderr} = make()
    expect(opened()).to.equal(0)
    printer.ttyLine('one')
    printer.ttyLine('two')
    expect(opened()).to.equal(1)
    expect(stdout.data + stderr.data).to.equal('')
  })

  it('ttyLine: untrusted text on the terminal writer (sanitized, newlines kept), never on stdout or stderr', () => {
    const tty = new Sink()
    const stdout = new Sink()
    const stderr = new Sink()
    const printer = new Printer({stdout, stderr, openPromptWriter: () => tty})
    printer.ttyLine(`{"cmd": "x${ESC}]0;pwned\x07"}\nsecond`)
    printer.ttyLine('')
    expect(tty.data).to.equal('{"cmd": "x\\u001b]0;pwned\\u0007"}\nsecond\n\n')
    expect(stdout.data + stderr.data).to.equal('')
  })

  it('ttyLine prints above an open prompt: the prompt is erased, the line written, the prompt drawn again', () => {
    const tty = new Sink()
    const printer = new Printer({stdout: new Sink(), stderr: new Sink(), openPromptWriter: () => tty})
    const release = claimPromptArea({clear: () => void tty.write('<clear>'), redraw: () => void tty.write('<redraw>')})
    try {
      printer.ttyLine('args')
    } finally {
      release()
    }
    expect(tty.data).to.equal('<clear>args\n<redraw>')
  })

  it('reads NO_COLOR, TERM=dumb and --format', () => {
    expect(colorEnabled({})).to.equal(true)
    expect(colorEnabled({NO_COLOR: '1'})).to.equal(false)
    expect(colorEnabled({NO_COLOR: ''})).to.equal(true)
    expect(colorEnabled({TERM: 'dumb'})).to.equal(false)
    expect(resolveFormat('json')).to.equal('json')
    expect(resolveFormat('auto')).to.equal('text')
    expect(resolveFormat(undefined)).to.equal('text')
  })
})
