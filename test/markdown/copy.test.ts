// Code copies clean (SPEC §19 "Code and tables", issue 35): every code block
// of the corpus (the renderer tests' answers and the project's own markdown
// files) rendered at 40, 80 and 120 columns into a terminal emulator
// (@xterm/headless), its rows selected as a terminal's selection takes them
// (rows continued by soft wrap, `isWrapped`, joined to the row before; a row
// up to its last written cell), must be the block's source text: no gutter,
// no padding, no line broken by the renderer.
//
// Tabs are written as they are (docs/decisions.md): the terminal moves to
// its next tab stop (every 8 columns; a code line starts at column 0, so
// the stops are the source's). Terminals that remember tabs (VTE, iTerm2)
// copy the tab; the others, xterm.js among them, copy the cells it skipped
// as spaces: here, the source with its tabs expanded at 8.
import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import type * as XtermHeadless from '@xterm/headless'
import {Terminal, UnicodeGraphemesAddon} from '../helpers/xterm.js'

import {CORPUS} from './corpus.js'
import {render} from './render-helpers.js'
import {FORMAT_CHARS, placeholder} from '../../src/lib/markdown/rendered-format-chars.js'
import {createParser} from '../../src/lib/markdown/index.js'


const ROOT = join(import.meta.dirname, '..', '..')

/** The corpus, and the markdown files of the repository (README, docs/). */
function answers(): {name: string; text: string}[] {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]
  return [...CORPUS, ...docs.map((f) => ({name: f, text: readFileSync(join(ROOT, f), 'utf8')}))]
}

/** The source text of each code block (fenced or indented), in order, as markdown-it reads it. */
function codeBlocks(text: string): string[][] {
  return createParser()
    .parse(text, {})
    .filter((t) => t.type === 'fence' || t.type === 'code_block')
    .map((t) => t.content.replace(/\n$/, '').split('\n'))
}

/** What a terminal shows for a line holding format characters (markdown/rendered-format-chars.ts). */
function showPlaceholders(line: string): string {
  return line.replace(new RegExp(FORMAT_CHARS.source, 'gu'), placeholder)
}

function expandTabs(line: string): string {
  let out = ''
  let col = 0
  for (const ch of line) {
    if (ch === '\t') {
      const n = 8 - (col % 8)
      out += ' '.repeat(n)
      col += n
    } else {
      out += ch
      col += 1
    }
  }
  return out
}

/** The screen's logical lines: each row up to its last written cell (a blank cell before it is a space), soft-wrapped rows joined. */
function selectedLines(term: XtermHeadless.Terminal): string[] {
  const buf = term.buffer.active
  const cell = buf.getNullCell()
  const lines: string[] = []
  for (let y = 0; y < buf.length; y++) {
    const line = buf.getLine(y)!
    let text = ''
    let pending = ''
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell)
      if (cell.getWidth() === 0) continue // the second half of a wide character
      const chars = cell.getChars()
      if (chars === '') pending += ' '
      else {
        text += pending + chars
        pending = ''
      }
    }
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text
    else lines.push(text)
  }
  return lines
}

function write(term: XtermHeadless.Terminal, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve))
}

/** Where each block's frame starts: a row `┌─…` (behind list or quote prefixes), not a table's. */
const TOP = /^[^┌]*┌─(?:.*[^┐])?$/

describe('markdown: code copies clean (a terminal selection of a block is its source)', function () {
  this.timeout(120_000)

  for (const cols of [40, 80, 120]) {
    it(`at ${cols} columns: every code block of the corpus, tabs, wide characters and trailing spaces included`, async () => {
      let blocks = 0
      for (const {name, text} of answers()) {
        const out = await render(text, {columns: () => cols})
        const term = new Terminal({cols, rows: 24, scrollback: 100_000, convertEol: true, allowProposedApi: true})
        term.loadAddon(new UnicodeGraphemesAddon())
        term.unicode.activeVersion = '15-graphemes'
        try {
          await write(term, out)
          const lines = selectedLines(term)
          let at = 0
          for (const [k, source] of codeBlocks(text).entries()) {
            const top = lines.findIndex((l, i) => i >= at && TOP.test(l) && !l.includes('┬'))
            expect(top, `${name} at ${cols}: block ${k + 1}'s frame`).to.be.at.least(0)
            const shown = lines.slice(top + 1, top + 1 + source.length)
            // Format characters (bidi controls, zero-width) are shown as ⟨U+XXXX⟩, never sent raw (SPEC §19).
            expect(shown, `${name} at ${cols}: block ${k + 1}`).to.deep.equal(source.map(expandTabs).map(showPlaceholders))
            expect(lines[top + 1 + source.length], `${name} at ${cols}: block ${k + 1}'s closing line`).to.match(/└─*$/)
            at = top + 1 + source.length
            blocks++
          }
        } finally {
          term.dispose()
        }
      }
      expect(blocks).to.be.greaterThan(100)
    })
  }

  it('no style is left on at the end of a line (nothing painted past the code when the terminal wraps it)', async () => {
    for (const {name, text} of CORPUS) {
      for (const line of (await render(text, {columns: () => 40})).split('\n')) {
        // eslint-disable-next-line no-control-regex
        const sgr = [...line.matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1])
        if (sgr.length > 0) expect(['0', ''], `${name}: ${JSON.stringify(line)}`).to.include(sgr[sgr.length - 1])
        // No background colour anywhere: it would fill the cells a soft wrap leaves.
        for (const codes of sgr) for (const c of codes.split(';')) expect(/^(4[0-9]|10[0-7])$/.test(c), `${name}: background in ${JSON.stringify(line)}`).to.equal(false)
      }
    }
  })

  it('a tab reaches the terminal as a tab', async () => {
    const out = await render('```makefile\nall:\n\tgo build ./...\n```\n', {columns: () => 40, color: false})
    expect(out.split('\n')).to.include('\tgo build ./...')
  })
})
