// Markdown on the terminal (SPEC §18), end to end: bin/run.js in a real pty
// against a local OpenAI-format server, the screen read back from
// @xterm/headless. One answer holds every block kind; the screen it leaves
// at 40 and at 100 columns is compared with the snapshots in
// test/e2e/snapshots/ (MARKDOWN_SNAPSHOTS=write rewrites them), and each
// block kind is checked on that screen by itself. The raw-output tests
// compare what pipes, --format json and the stored conversation get with
// the server's text, byte for byte.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {JpRun, startAgainst} from '../fixtures/e2e/interrupt-run.js'
import {fullText, type SlowResponse, type SlowServer} from '../fixtures/e2e/slow-server.js'
import {cells} from '../../src/lib/markdown/wrap.js'
import {BIN} from '../helpers/cli.js'
import {spawnPty} from '../helpers/pty.js'
import {HAND_OFF_AFTER} from '../../src/lib/printer/hand-off.js'
import {textHeavyAnswer} from '../../bench/markdown.js'

const SNAPSHOTS = join(import.meta.dirname, 'snapshots')

/** Every block kind the issue lists, one section each, as a model would write them. */
export const KINDS: Record<string, string> = {
  heading: '# Release notes\n\n## What changed',
  setext: 'Summary\n=======',
  emphasis: 'Some **strong text**, some *emphasis*, ~~struck~~ and `inline code` in one sentence that wraps.',
  fenced: '```python\ndef greet(name):\n    return f"hello {name}"  # says hi\n```',
  plainFence: '```\nno language here\n```',
  indented: 'Indented code:\n\n    make all',
  ordered: '1. first step\n2. second step\n3. third step',
  nested: '- fruit\n  - apple\n  - pear\n- vegetables',
  tasks: '- [x] written\n- [ ] reviewed',
  quote: '> A quoted line\n> that continues.',
  table: '| Name | Size | Notes |\n|------|-----:|-------|\n| alpha | 1 | the first one, with a long note that has to wrap |\n| beta | 22 | short |',
  rule: '---',
  link: 'Read [the guide](https://example.com/guide) first.',
  hardBreak: 'line one  \nline two',
}

const ANSWER = Object.values(KINDS).join('\n\n') + '\n'

/** The answer in pieces of 7 characters, streamed quickly. */
function response(text = ANSWER, intervalMs = 2): SlowResponse {
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += 7) pieces.push(text.slice(i, i + 7))
  return {text: pieces, intervalMs}
}

async function runTo(opts: {cols: number; redirect?: 'tty' | 'pipe'; args?: string[]; toml?: string; env?: NodeJS.ProcessEnv}, r = response()) {
  const {server, run} = await startAgainst([r], {cols: opts.cols, rows: 120, redirect: opts.redirect, args: opts.args, toml: opts.toml, env: opts.env})
  return {server, run}
}

/** The visible rows that the terminal itself wrapped (a line longer than its width), not the renderer. */
function autowrapped(run: JpRun): string[] {
  const t = run.term.terminal
  const buf = t.buffer.active
  const rows: string[] = []
  for (let i = 0; i < t.rows; i++) {
    const line = buf.getLine(buf.viewportY + i)
    if (line?.isWrapped) rows.push(line.translateToString(true))
  }
  return rows
}

function snapshot(name: string, screen: string): void {
  const file = join(SNAPSHOTS, name)
  if (process.env.MARKDOWN_SNAPSHOTS === 'write' || !existsSync(file)) {
    mkdirSync(SNAPSHOTS, {recursive: true})
    writeFileSync(file, screen)
  }
  expect(screen).to.equal(readFileSync(file, 'utf8'))
}

describe('e2e: markdown rendered on the terminal', function () {
  this.timeout(120_000)
  const open: {server: SlowServer; run: JpRun}[] = []
  afterEach(async () => {
    for (const {server, run} of open.splice(0)) {
      run.dispose()
      await server.close()
    }
  })

  for (const cols of [40, 100]) {
    describe(`at ${cols} columns`, () => {
      let screen = ''
      let rows: string[] = []
      before(async function () {
        this.timeout(120_000)
        const {server, run} = await runTo({cols})
        try {
          const done = await run.finish(60_000)
          expect(done.code).to.equal(0)
          // The answer only (the default-workspace notice above it names a temporary path).
          const all = run.term.screen()
          rows = all.slice(all.indexOf('# Release notes'))
          screen = rows.join('\n').replace(/\n+$/, '')
        } finally {
          run.dispose()
          await server.close()
        }
      })

      it('the screen matches its snapshot, and no line is wider than the terminal', () => {
        snapshot(`markdown-${cols}.txt`, screen)
        for (const line of rows) expect(cells(line)).to.be.at.most(cols)
      })
      it('ATX headings lose their markers’ markup but keep the level', () => {
        expect(rows).to.include('# Release notes')
        expect(rows).to.include('## What changed')
      })
      it('a setext heading becomes a heading', () => {
        expect(rows).to.include('# Summary')
        expect(screen).to.not.include('=======')
      })
      it('emphasis, strong, strikethrough and inline code show without their delimiters', () => {
        expect(screen).to.include('Some strong text, some emphasis,')
        expect(screen).to.not.match(/\*\*|~~|`inline/)
      })
      it('fenced code is framed above (labelled with its language) and below, its lines bare and intact', () => {
        const at = rows.indexOf('def greet(name):')
        expect(rows[at - 1]).to.match(/^┌─ python ─+$/)
        expect(rows[at + 1]).to.equal('    return f"hello {name}"  # says hi')
        expect(rows[at + 2]).to.match(/^└─+$/)
      })
      it('a fence without a language is framed without a label', () => {
        const at = rows.indexOf('no language here')
        expect(at).to.be.greaterThan(0)
        expect(rows[at - 1]).to.match(/^┌─+$/)
      })
      it('indented code is framed too', () => {
        const at = rows.indexOf('make all')
        expect(rows[at - 1]).to.match(/^┌─+$/)
      })
      it('ordered lists are numbered', () => {
        expect(rows).to.include.members(['1. first step', '2. second step', '3. third step'])
      })
      it('unordered and nested lists get bullets and indentation', () => {
        expect(rows).to.include.members(['• fruit', '  ◦ apple', '  ◦ pear', '• vegetables'])
      })
      it('task lists show check boxes', () => {
        expect(rows).to.include.members(['☑ written', '☐ reviewed'])
      })
      it('block quotes get a bar', () => {
        expect(rows).to.include('│ A quoted line that continues.')
      })
      it('tables are drawn with borders and fitted to the width', () => {
        const table = rows.filter((r) => /^[┌│├└]/.test(r) && r.includes('│') === true || /^[┌├└]/.test(r))
        expect(table.some((r) => r.startsWith('┌') && r.includes('┬'))).to.equal(true)
        expect(screen).to.include('Name')
        expect(screen).to.not.include('|------|')
      })
      it('a thematic break is a rule across the width', () => {
        expect(rows).to.include('─'.repeat(cols))
      })
      it('links show their text, then the URL', () => {
        expect(screen.replace(/\n/g, ' ')).to.include('the guide (https://example.com/guide)')
      })
      it('a hard break ends the line', () => {
        expect(rows).to.include.members(['line one', 'line two'])
      })
    })
  }

  describe('raw where it must be', () => {
    it('piped stdout gets the model’s markdown byte for byte', async () => {
      const r = response()
      const {server, run} = await runTo({cols: 60, redirect: 'pipe'}, r)
      open.push({server, run})
      const done = await run.finish(60_000)
      expect(done.code).to.equal(0)
      expect(done.stdout).to.equal(fullText(r))
      // ...and the conversation stores the same bytes on a terminal too.
    })

    it('--format json carries the text as the server sent it', async () => {
      const r = response()
      const {server, run} = await runTo({cols: 60, redirect: 'pipe', args: ['--format', 'json']}, r)
      open.push({server, run})
      const done = await run.finish(60_000)
      const text = done.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as {type: string; text?: string})
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join('')
      expect(text).to.equal(fullText(r))
    })

    it('rendered on the terminal, the stored answer is still the raw markdown', async () => {
      const r = response()
      const {server, run} = await runTo({cols: 60}, r)
      open.push({server, run})
      await run.finish(60_000)
      expect(run.term.screenText()).to.include('• fruit')
      const events = await run.events()
      const answer = events.filter((e) => e.type === 'chat_response').map((e) => (e as {message?: string}).message ?? '').join('')
      expect(answer).to.equal(fullText(r))
    })

    it('jp conversation show renders the answer on a terminal and prints it raw to a pipe', async () => {
      const r = response()
      const {server, run} = await runTo({cols: 60}, r)
      open.push({server, run})
      await run.finish(60_000)
      const show = await spawnPty([BIN, 'conversation', 'show'], {cwd: run.sb.cwd, env: run.sb.env, cols: 60, rows: 150})
      try {
        await show.waitForExit(30_000)
        const screen = show.screenText()
        expect(screen).to.include('assistant:')
        expect(screen).to.include('  • fruit').and.include('  ☑ written')
        expect(screen).to.not.include('- [x] written')
        // Code lines are not indented with the rest: a selection copies them as written.
        const rows = screen.split('\n')
        const at = rows.indexOf('def greet(name):')
        expect(at, screen).to.be.greaterThan(0)
        expect(rows[at - 1]).to.match(/^ {2}┌─ python ─+$/)
        expect(rows[at + 1]).to.equal('    return f"hello {name}"  # says hi')
      } finally {
        show.dispose()
      }
      const piped = await spawnPty(['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} conversation show | cat`], {file: '/bin/sh', cwd: run.sb.cwd, env: run.sb.env, cols: 60, rows: 150})
      try {
        await piped.waitForExit(30_000)
        expect(piped.screenText()).to.include('- [x] written')
      } finally {
        piped.dispose()
      }
    })

    it('style.markdown = false prints the raw text on the terminal', async () => {
      const {server, run} = await runTo({cols: 100, toml: '[style]\nmarkdown = false\n'})
      open.push({server, run})
      await run.finish(60_000)
      expect(run.term.screenText()).to.include('- [x] written')
      expect(run.term.screenText()).to.include('| Name | Size | Notes |')
    })

    it('TERM=dumb prints the raw text; NO_COLOR keeps the layout without colour', async () => {
      const dumb = await runTo({cols: 100, env: {TERM: 'dumb'}})
      open.push(dumb)
      await dumb.run.finish(60_000)
      expect(dumb.run.term.screenText()).to.include('**strong text**')
      const mono = await runTo({cols: 100, env: {NO_COLOR: '1'}})
      open.push(mono)
      await mono.run.finish(60_000)
      expect(mono.run.term.screenText()).to.include('• fruit')
      // eslint-disable-next-line no-control-regex
      expect(mono.run.term.output()).to.not.match(/\u001b\[[0-9;]*(3[0-9]|9[0-7]|38;5;\d+)m/)
    })
  })

  describe('interplay', () => {
    const PARA = 'The quick brown fox jumps over the lazy dog while the stream keeps going, word after word, until the paragraph is long enough to wrap many times on a narrow terminal.'
    const words = (text: string) => text.split(/\s+/).filter(Boolean)
    /**
     * The words shown from the row starting `from`, the menu's row left out: the word the cut showed in part
     * before the menu opened (issue 34) comes again whole below it, so a last word before the menu that
     * starts the first one after it is left out too.
     */
    const wordsAroundMenu = (rows: string[], from: number) => {
      const menu = rows.findIndex((l, i) => i >= from && l.startsWith('Interrupted'))
      const before = words(rows.slice(from, menu).join(' ').replace(/\^C/g, ' '))
      const after = words(rows.slice(menu + 1).join(' ').replace(/\^C/g, ' '))
      if (before.length > 0 && after.length > 0 && after[0].startsWith(before.at(-1)!)) before.pop()
      return [...before, ...after]
    }

    /** Two paragraphs (after `lead`), the terminal narrowed from 100 to 40 columns after the first: the second is laid out at 40. */
    async function resized(lead: string[], intervalMs: number): Promise<void> {
      const text = `${PARA}\n\n${PARA}\n`
      const cut = text.indexOf('\n\n') + 2
      // The stream holds after the first paragraph until the terminal is narrowed.
      const {server, run} = await runTo({cols: 100}, {text: [...lead, text.slice(0, cut), ...text.slice(cut).match(/.{1,8}/gs)!], intervalMs, hold: lead.length + 1})
      open.push({server, run})
      await run.term.waitForText('narrow terminal.')
      run.term.resize(40, 120)
      // The SIGWINCH has no echo to wait for: give it the time a slow piece gave it before the rest comes.
      await new Promise((resolve) => setTimeout(resolve, 300))
      server.release()
      await run.finish(60_000)
      const rows = run.term.screen().filter((l) => l.trim() !== '')
      const second = rows.slice(rows.findIndex((l) => l.endsWith('narrow terminal.')) + 1)
      expect(second.length).to.be.greaterThan(3)
      for (const row of second) expect(cells(row)).to.be.at.most(40)
      // Laid out at 40 by the renderer: no row of it is the terminal wrapping a longer line (xterm reflows on resize).
      const wrapped = autowrapped(run)
      for (const row of second) expect(wrapped, row).to.not.include(row)
    }

    it('a paragraph cut by the Ctrl+C menu resumes correctly after c', async () => {
      const text = `- item\n\n${PARA} ${PARA} ${PARA}\n`
      // Held mid-paragraph until the menu is answered: the rest comes after `c`, as a live stream's would.
      const r: SlowResponse = {text: text.match(/.{1,6}/gs)!, intervalMs: 5, hold: 20}
      const {server, run} = await runTo({cols: 40, toml: ''}, r)
      open.push({server, run})
      await run.term.waitForText('quick brown')
      run.term.send('\x03')
      await run.term.waitForText('Interrupted [c,r,q,s,a,?]')
      run.term.send('c')
      server.release()
      const done = await run.finish(60_000)
      expect(done.code).to.equal(0)
      const rows = run.term.screen()
      for (const row of rows) expect(cells(row)).to.be.at.most(40)
      const from = rows.findIndex((l) => l.startsWith('The quick'))
      // The menu's line and the terminal's echo of the key aside, the words follow on in order.
      expect(wordsAroundMenu(rows, from).join(' ')).to.include(words(`${PARA} ${PARA} ${PARA}`).join(' '))
    })

    it('with the Queue: prompt open (type to queue), every block prints above it as it does with no prompt', async () => {
      // Held after its first blocks until the prompt is open: the rest prints above it.
      const {server, run} = await runTo({cols: 40}, {...response(ANSWER, 5), hold: 6})
      open.push({server, run})
      await run.term.waitForText('Release notes')
      run.term.send('x')
      await run.term.waitForText('Queue: x')
      server.release()
      await run.term.waitFor(() => server.completed[0] === true && run.term.screenText().includes('line two'), 'the answer streamed to its end')
      // The prompt at the bottom, intact, below the whole answer.
      await run.term.waitFor(() => {
        const rows = run.term.screen().filter((l) => l !== '')
        return rows.at(-2) === 'Queue: x' && /^Enter to send/.test(rows.at(-1) ?? '')
      }, 'the prompt redrawn at the bottom')
      const all = run.term.screen()
      const rows = all.slice(all.indexOf('# Release notes'), all.indexOf('Queue: x'))
      expect(rows.join('\n').replace(/\n+$/, '')).to.equal(readFileSync(join(SNAPSHOTS, 'markdown-40.txt'), 'utf8'))
      // Ctrl+C closes the prompt, nothing is queued: the run ends.
      run.term.send('\x03')
      const done = await run.finish(60_000)
      expect(done.code, run.term.screenText()).to.equal(0)
    })

    it('s at the menu leaves the terminal with styles reset', async () => {
      const text = `Some **bold** words and \`code\` and more ${PARA}\n`
      const {server, run} = await runTo({cols: 60}, {text: text.match(/.{1,4}/gs)!, intervalMs: 30})
      open.push({server, run})
      await run.term.waitForText('bold')
      run.term.send('\x03')
      await run.term.waitForText('Interrupted [c,r,q,s,a,?]')
      run.term.send('s')
      const done = await run.finish(60_000)
      expect(done.code).to.equal(0)
      // eslint-disable-next-line no-control-regex
      const sgr = [...run.term.output().matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1])
      expect(sgr.length).to.be.greaterThan(0)
      expect(['0', ''].includes(sgr[sgr.length - 1])).to.equal(true)
    })

    describe('a long answer, rendered on a second thread past its first part (printer/hand-off.ts)', () => {
      // Past HAND_OFF_AFTER of text, once the worker has booted, the rest goes to it: what follows must show as before.
      const FILLER = textHeavyAnswer(HAND_OFF_AFTER + 8000).replace(/^# Answer\n\n/, '')
      // Then short paragraphs, a piece each, while the worker boots (its hand-off comes between two of them).
      const lead = ['# Long answer\n\n', FILLER, '\n', ...Array.from({length: 25}, (_, i) => `Paragraph ${i}.\n\n`)]

      it('every block kind after it shows as its snapshot', async () => {
        const {server, run} = await runTo({cols: 40}, {text: [...lead, ...response(ANSWER, 20).text], intervalMs: 20})
        open.push({server, run})
        const done = await run.finish(60_000)
        expect(done.code).to.equal(0)
        const all = run.term.screen()
        const rows = all.slice(all.lastIndexOf('# Release notes'))
        expect(rows.join('\n').replace(/\n+$/, '')).to.equal(readFileSync(join(SNAPSHOTS, 'markdown-40.txt'), 'utf8'))
      })

      it('a paragraph cut by the Ctrl+C menu resumes correctly after c, and s leaves the styles reset', async () => {
        for (const key of ['c', 's']) {
          const text = `${PARA} ${PARA} ${PARA}\n`
          // Held mid-paragraph until the menu is answered (the lead paced as before, so the worker boots among it).
          const {server, run} = await runTo({cols: 40, toml: ''}, {text: [...lead, ...text.match(/.{1,6}/gs)!], intervalMs: 40, hold: lead.length + 20})
          open.push({server, run})
          await run.term.waitForText('quick brown')
          run.term.send('\x03')
          await run.term.waitForText('Interrupted [c,r,q,s,a,?]')
          run.term.send(key)
          server.release()
          const done = await run.finish(60_000)
          expect(done.code).to.equal(0)
          const rows = run.term.screen()
          for (const row of rows) expect(cells(row)).to.be.at.most(40)
          // eslint-disable-next-line no-control-regex
          const sgr = [...run.term.output().matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1])
          expect(['0', ''].includes(sgr[sgr.length - 1]), `${key}: styles reset`).to.equal(true)
          if (key === 's') continue
          const from = rows.findIndex((l) => l.startsWith('The quick'))
          expect(wordsAroundMenu(rows, from).join(' ')).to.include(words(`${PARA} ${PARA} ${PARA}`).join(' '))
        }
      })

      it('blocks after a resize use the new width', () => resized(lead, 60))
    })

    it('blocks after a resize use the new width', () => resized([], 5))
  })
})
