// The headless terminal every screen test renders into must measure as a
// modern terminal does (test/helpers/xterm.ts): were its Unicode table
// decoded wrong, emoji would be one cell, ZWJ families three, and every
// width assertion of the suite would check against the wrong picture.
import {expect} from 'chai'

type Xterm = typeof import('../helpers/xterm.js')
let Terminal: Xterm['Terminal']
let UnicodeGraphemesAddon: Xterm['UnicodeGraphemesAddon']

function cellsOf(text: string): Promise<string[]> {
  const term = new Terminal({cols: 40, rows: 3, allowProposedApi: true})
  term.loadAddon(new UnicodeGraphemesAddon())
  term.unicode.activeVersion = '15-graphemes'
  return new Promise((resolve) =>
    term.write(text, () => {
      const line = term.buffer.active.getLine(0)!
      const cells: string[] = []
      for (let x = 0; x < 40; x++) {
        const cell = line.getCell(x)!
        if (cell.getWidth() > 0) cells.push(`${cell.getChars()}:${cell.getWidth()}`)
      }
      term.dispose()
      resolve(cells.slice(0, [...new Intl.Segmenter().segment(text)].length))
    }),
  )
}

describe('smoke: the headless terminal of the screen tests', () => {
  before(async () => {
    // Something has allocated from Buffer's shared pool first, as in every mocha worker.
    Buffer.from('pool')
    ;({Terminal, UnicodeGraphemesAddon} = await import('../helpers/xterm.js'))
  })

  it('draws emoji, ZWJ sequences and flags two cells wide, combining marks on their base', async () => {
    expect(await cellsOf('a中👍👨‍👩‍👧🇫🇷é')).to.deep.equal(['a:1', '中:2', '👍:2', '👨‍👩‍👧:2', '🇫🇷:2', 'é:1'])
  })

  it('loading it leaves no gigabyte of ArrayBuffer behind', () => {
    expect(process.memoryUsage().arrayBuffers).to.be.below(256 * 1024 * 1024)
  })
})
