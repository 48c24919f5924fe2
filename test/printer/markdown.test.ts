// The printer's markdown path: rendered only on a terminal in text format,
// model escapes dropped before the renderer, later writes kept in order while
// the highlighter loads, chrome mid-paragraph leaving the block intact.
import {expect} from 'chai'

import {afterEach} from 'mocha'

import {createRenderer} from '../../src/lib/markdown/index.js'
import {LoadingStream, markdownFor} from '../../src/lib/printer/markdown.js'
import {Printer} from '../../src/lib/printer/printer.js'
import {pendingRestores} from '../../src/lib/terminal/restore.js'
import {plain, renderThrough} from '../markdown/render-helpers.js'
import {textSink} from './fixtures/tty-sink.js'

const STYLE = {markdown: true, hyperlinks: false, code_theme: 'ansi' as const}

const sink = textSink

async function printerFor(tty: boolean, format: 'text' | 'json' = 'text', env: NodeJS.ProcessEnv = {TERM: 'xterm'}) {
  const stdout = sink(tty)
  const stderr = sink(tty)
  const markdown = await markdownFor({style: STYLE, format, stdout, stderr, env})
  const printer = new Printer({stdout, stderr, format, color: true, markdown, openPromptWriter: () => undefined})
  opened.push(printer)
  return {printer, stdout, stderr}
}

/** Closed after each test: an open markdown printer keeps its style reset in the process-wide restore registry. */
const opened: Printer[] = []

describe('printer: markdown on a terminal', () => {
  afterEach(() => {
    for (const p of opened.splice(0)) p.close()
  })

  it('registers the style reset in the restore registry while it renders, and takes it out on close', async () => {
    const before = pendingRestores().filter((n) => n === 'markdown styles').length
    const {printer} = await printerFor(true)
    expect(pendingRestores().filter((n) => n === 'markdown styles')).to.have.length(before + 1)
    printer.close()
    expect(pendingRestores().filter((n) => n === 'markdown styles')).to.have.length(before)
  })

  it('renders on a terminal, prints raw to a pipe and in json', async () => {
    const tty = await printerFor(true)
    tty.printer.assistant('# Title\n\n- **a**\n')
    tty.printer.endAssistant()
    await tty.printer.flush()
    expect(plain(tty.stdout.text)).to.include('• a').and.not.include('**')
    const pipe = await printerFor(false)
    pipe.printer.assistant('# Title\n\n- **a**\n')
    pipe.printer.endAssistant()
    await pipe.printer.flush()
    expect(pipe.stdout.text).to.equal('# Title\n\n- **a**\n')
    const json = await printerFor(true, 'json')
    json.printer.assistant('**a**')
    await json.printer.flush()
    expect(json.stdout.text).to.equal('{"type":"text","text":"**a**"}\n')
  })


  it('stdout not a terminal, stderr one: the answer stays raw, reasoning is rendered dimmed once its renderer loads, and what came after it stays after it', async () => {
    const stdout = sink(false)
    const stderr = sink(true)
    const markdown = await markdownFor({style: STYLE, format: 'text', stdout, stderr, env: {TERM: 'xterm'}})
    expect(markdown?.assistant).to.equal(undefined)
    const printer = new Printer({stdout, stderr, format: 'text', color: true, markdown, openPromptWriter: () => undefined})
    opened.push(printer)
    const resets = () => pendingRestores().filter((n) => n === 'markdown styles').length
    const before = resets()
    printer.reasoning('Thinking about **bold** things.\n')
    printer.chrome('⚙ after')
    // The style reset is registered when the renderer has loaded, not for a printer that never renders.
    expect(resets()).to.equal(before)
    await printer.writable()
    expect(resets()).to.equal(before + 1)
    printer.assistant('**raw**\n')
    printer.endAssistant()
    await printer.flush()
    const direct = createRenderer({color: true, hyperlinks: false, codeTheme: 'ansi', columns: () => 40, base: {dim: true}})
    expect(stderr.text).to.equal(direct.push('Thinking about **bold** things.\n') + direct.end() + '⚙ after\n')
    expect(plain(stderr.text)).to.equal('Thinking about bold things.\n⚙ after\n')
    expect(stdout.text).to.equal('**raw**\n')
  })

  it('a renderer loaded at its first text gives the bytes of one loaded at once, fences (the highlighter) included', async () => {
    const text = ['Intro words ', 'then **more**.\n\n```js\nconst', ' x = 1\n```\n', '- item\n']
    const options = {color: true, hyperlinks: false, codeTheme: 'ansi' as const, columns: () => 40}
    const want = await renderThrough(createRenderer(options), text)
    const got = await renderThrough(new LoadingStream(async () => createRenderer(options)), text)
    expect(got).to.equal(want)
  })

  it('loadLater (a prompt opens first): the same bytes on a terminal, answer and reasoning, whether warmed after the prompt or loaded at the first text', async () => {
    const answer = ['# Title\n\n- **a**\n', '```js\nconst x = 1\n```\n']
    const run = async (loadLater: boolean, warm: boolean) => {
      const stdout = sink(true)
      const stderr = sink(true)
      const markdown = await markdownFor({style: STYLE, format: 'text', stdout, stderr, env: {TERM: 'xterm'}, loadLater})
      expect(typeof markdown?.warm, 'warm() only for loadLater').to.equal(loadLater ? 'function' : 'undefined')
      if (warm) markdown?.warm?.()
      const printer = new Printer({stdout, stderr, format: 'text', color: true, markdown, openPromptWriter: () => undefined})
      opened.push(printer)
      printer.reasoning('Thinking about **bold** things.\n')
      for (const piece of answer) printer.assistant(piece)
      printer.endAssistant()
      await printer.flush()
      return {out: stdout.text, err: stderr.text}
    }
    const atOnce = await run(false, false)
    expect(plain(atOnce.out)).to.include('• a').and.not.include('**')
    expect(await run(true, true)).to.deep.equal(atOnce)
    expect(await run(true, false)).to.deep.equal(atOnce)
  })

  it('TERM=dumb and style.markdown = false render nothing', async () => {
    expect(await markdownFor({style: STYLE, format: 'text', stdout: sink(true), stderr: sink(true), env: {TERM: 'dumb'}})).to.equal(undefined)
    expect(await markdownFor({style: {...STYLE, markdown: false}, format: 'text', stdout: sink(true), stderr: sink(true), env: {}})).to.equal(undefined)
  })

  it('drops every sequence of the model’s, colour included, before rendering', async () => {
    const {printer, stdout} = await printerFor(true)
    printer.assistant('a \u001b[31mred\u001b[0m \u001b]0;title\u0007word\u001b[2J\n')
    printer.endAssistant()
    await printer.flush()
    expect(stdout.text).to.equal('a red word\n')
  })

  it('keeps later output after a highlighted fence in order while the highlighter loads', async () => {
    const {printer, stdout, stderr} = await printerFor(true)
    printer.assistant('```js\nconst x = 1\n```\nafter\n')
    printer.endAssistant()
    printer.chrome('⚙ tool header')
    await printer.writable()
    await printer.flush()
    expect(stdout.text).to.match(/┌─ js ─+[^]*const[^]*x[^]*after\n$/)
    expect(stderr.text).to.equal('⚙ tool header\n')
  })

  it('chrome in the middle of a paragraph breaks the line and the paragraph goes on below it', async () => {
    const stdout = sink(true, 30)
    const markdown = await markdownFor({style: STYLE, format: 'text', stdout, stderr: stdout, env: {TERM: 'xterm'}})
    const printer = new Printer({stdout, stderr: stdout, format: 'text', color: false, markdown, openPromptWriter: () => undefined})
    opened.push(printer)
    printer.assistant('- one two three four five six seven eight nine ')
    printer.assistant('ten eleven\n- b\n')
    printer.endAssistant()
    await printer.flush()
    const words = 'A long paragraph of plain words that streams '.repeat(3)
    printer.assistant(words)
    printer.chrome('NOTICE')
    printer.assistant('and ends here.\n')
    printer.endAssistant()
    await printer.flush()
    const lines = plain(stdout.text).split('\n')
    const at = lines.indexOf('NOTICE')
    expect(at).to.be.greaterThan(0)
    for (const l of lines) expect(l.length).to.be.at.most(30)
    expect(lines.slice(at + 1).join(' ')).to.include('and ends here.')
  })
})
