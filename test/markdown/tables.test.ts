// Tables readable at any width (SPEC §19 "Code and tables", issue 35): a
// table whose columns cannot each get their longest word is shown as
// records (`Header: value` lines per row); a word is split only when longer
// than the whole line; the rows of a fitted table whose cells wrap are
// separated by a rule. The screens at 30, 40, 80 and 120 columns (read back
// from @xterm/headless) are compared with test/markdown/snapshots/
// (TABLE_SNAPSHOTS=write rewrites them).
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type * as XtermHeadless from '@xterm/headless'
import {Terminal, UnicodeGraphemesAddon} from '../helpers/xterm.js'

import {CODE_HEAVY_ANSWERS} from '../../bench/lib/code-heavy.js'
import {SECTIONS} from './corpus.js'
import {render} from './render-helpers.js'
import {cells} from '../../src/lib/markdown/wrap.js'

const SNAPSHOTS = join(import.meta.dirname, 'snapshots')

/** The tables of the corpus: the code-heavy answers' (six columns of numbers with units among them), the wide one, the small ones. */
const TABLES: string[] = [
  ...CODE_HEAVY_ANSWERS.flatMap((a) => a.split('\n\n').filter((b) => b.startsWith('| ')).map((b) => b.trim())),
  SECTIONS.table,
  SECTIONS.wideTable,
  '| Name | Size | Notes |\n|------|-----:|-------|\n| alpha | 1 | the first one, with a long note that has to wrap |\n| beta | 22 | short |',
]

/** The screen's rows after writing `out` (trailing blanks trimmed). */
async function screen(out: string, cols: number): Promise<string[]> {
  const term = new Terminal({cols, rows: 24, scrollback: 10_000, convertEol: true, allowProposedApi: true})
  term.loadAddon(new UnicodeGraphemesAddon())
  term.unicode.activeVersion = '15-graphemes'
  try {
    await new Promise<void>((resolve) => term.write(out, resolve))
    const buf = term.buffer.active
    const rows: string[] = []
    for (let y = 0; y < buf.length; y++) rows.push(buf.getLine(y)!.translateToString(true))
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop()
    return rows
  } finally {
    term.dispose()
  }
}

/** The words of a table's cells as shown (inline code and strong markers dropped, escaped pipes unescaped). */
function cellWords(table: string): string[] {
  return table
    .split('\n')
    .filter((l, i) => i !== 1)
    .flatMap((l) => l.replace(/\\\|/g, '¦').split('|').slice(1, -1))
    .flatMap((c) => c.replace(/`|\*\*/g, '').replace(/¦/g, '|').trim().split(/\s+/))
    .filter((w) => w !== '')
}

function snapshot(name: string, text: string): void {
  const file = join(SNAPSHOTS, name)
  if (process.env.TABLE_SNAPSHOTS === 'write' || !existsSync(file)) {
    mkdirSync(SNAPSHOTS, {recursive: true})
    writeFileSync(file, text)
  }
  expect(text).to.equal(readFileSync(file, 'utf8'))
}

describe('markdown: tables at any width', function () {
  this.timeout(60_000)

  for (const cols of [30, 40, 80, 120]) {
    describe(`at ${cols} columns`, () => {
      let shown: string[][] = []
      before(async () => {
        shown = await Promise.all(TABLES.map(async (t) => screen(await render(t + '\n', {columns: () => cols}), cols)))
      })

      it('the screens match their snapshot', () => {
        snapshot(`tables-${cols}.txt`, shown.map((rows) => rows.join('\n')).join('\n\n=====\n\n') + '\n')
      })

      it('no word is split across lines unless it is longer than the line, and no line is wider than the terminal', () => {
        for (const [k, rows] of shown.entries()) {
          for (const row of rows) expect(cells(row), `table ${k + 1}: ${row}`).to.be.at.most(cols)
          for (const word of cellWords(TABLES[k])) {
            if (cells(word) > cols - 4) continue
            expect(rows.some((r) => r.includes(word)), `table ${k + 1}: "${word}" whole on a row\n${rows.join('\n')}`).to.equal(true)
          }
        }
      })

      it('a number and its unit stay on one row', () => {
        for (const [k, rows] of shown.entries()) {
          for (const m of TABLES[k].matchAll(/\| ([\d.,]+ (?:ms|MB|s|%)) \|/g)) expect(rows.some((r) => r.includes(m[1])), `table ${k + 1}: ${m[1]}\n${rows.join('\n')}`).to.equal(true)
        }
      })

      it('a table shown as a grid gives each column its longest word; one that cannot is shown as records', () => {
        for (const [k, rows] of shown.entries()) {
          const grid = rows[0].startsWith('┌')
          if (!grid) {
            // Records: the first row's first header, then its value.
            const header = TABLES[k].split('\n')[0].split('|')[1].replace(/`|\*\*/g, '').trim()
            expect(rows[0].startsWith(header + ':'), `table ${k + 1}\n${rows.join('\n')}`).to.equal(true)
          }
        }
      })

      it('the rows of a grid whose cells wrap are separated by a rule', () => {
        for (const [k, rows] of shown.entries()) {
          if (!rows[0].startsWith('┌')) continue
          const body = rows.slice(rows.findIndex((r) => r.startsWith('├')) + 1, -1)
          const rules = body.filter((r) => r.startsWith('├')).length
          const bodyRows = TABLES[k].split('\n').length - 2
          // Each row's lines between rules: a wrapped row takes more than one line.
          if (body.length - rules > bodyRows) expect(rules, `table ${k + 1}\n${rows.join('\n')}`).to.equal(bodyRows - 1)
          else expect(rules, `table ${k + 1}\n${rows.join('\n')}`).to.equal(0)
        }
      })
    })
  }

  it('at 40 columns the six-column table of latencies is shown as records', async () => {
    const rows = await screen(await render(TABLES[0] + '\n', {columns: () => 40, color: false}), 40)
    expect(rows.slice(0, 7)).to.deep.equal(['Setting: max_connections', 'Before: 10', 'After: 50', 'p50 latency: 0.01 ms', 'p99 latency: 12.40 ms', 'Errors: 0.2 %', '─'.repeat(40)])
  })

  it('a word longer than the whole line is the only thing split', async () => {
    const long = 'x'.repeat(50)
    const rows = await screen(await render(`| a | b |\n|---|---|\n| ${long} | short words here |\n`, {columns: () => 30, color: false}), 30)
    expect(rows.join('\n')).to.include('short words here')
    expect(rows.filter((r) => /x{10}/.test(r)).map((r) => r.trim()).join('')).to.equal(long)
  })
})
