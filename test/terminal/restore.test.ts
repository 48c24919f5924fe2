import {expect} from 'chai'
import {mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {
  pendingRestores,
  registerRestore,
  restoreTerminal,
  setRestoreTtyOpener,
} from '../../src/lib/terminal/restore.js'
import {RESTORE_SEQUENCES} from '../../src/lib/terminal/sequences.js'

describe('terminal restore registry', () => {
  let dir: string
  let file: string
  let opens: number
  let previous: () => number | undefined
  beforeEach(() => {
    restoreTerminal() // start from an empty registry
    dir = mkdtempSync(join(tmpdir(), 'jp-term-'))
    file = join(dir, 'tty')
    opens = 0
    previous = setRestoreTtyOpener(() => {
      opens++
      return openSync(file, 'a')
    })
  })
  afterEach(() => {
    setRestoreTtyOpener(previous)
    rmSync(dir, {recursive: true, force: true})
  })

  it('runs what is still registered once, newest first, and writes the sequences to the tty', () => {
    const ran: string[] = []
    registerRestore({name: 'raw', run: () => ran.push('raw')})
    registerRestore({name: 'kitty', sequence: RESTORE_SEQUENCES.kittyPop})
    const undo = registerRestore({name: 'cleaned-up', run: () => ran.push('cleaned-up')})
    registerRestore({name: 'paste', sequence: RESTORE_SEQUENCES.bracketedPasteOff, run: () => ran.push('paste')})
    undo()
    expect(pendingRestores()).to.deep.equal(['raw', 'kitty', 'paste'])
    expect(restoreTerminal()).to.deep.equal(['paste', 'kitty', 'raw'])
    expect(ran).to.deep.equal(['paste', 'raw'])
    expect(readFileSync(file, 'utf8')).to.equal('\u001b[?2004l\u001b[<u')
    expect(restoreTerminal()).to.deep.equal([])
    expect(ran).to.deep.equal(['paste', 'raw'])
    expect(opens).to.equal(1)
  })

  it('opens no terminal when nothing registered a sequence', () => {
    registerRestore({name: 'raw', run: () => {}})
    restoreTerminal()
    restoreTerminal()
    expect(opens).to.equal(0)
  })

  it('keeps going when one action throws', () => {
    const ran: string[] = []
    registerRestore({name: 'a', run: () => ran.push('a')})
    registerRestore({
      name: 'bad',
      run: () => {
        throw new Error('setRawMode on a closed stream')
      },
    })
    registerRestore({name: 'cursor', sequence: RESTORE_SEQUENCES.cursorVisible})
    expect(restoreTerminal()).to.deep.equal(['cursor', 'bad', 'a'])
    expect(ran).to.deep.equal(['a'])
    expect(readFileSync(file, 'utf8')).to.equal('\u001b[?25h')
  })

  it('is shared by every copy of the module (kept on globalThis)', async () => {
    const copy = (await import(`../../src/lib/terminal/restore.ts?copy=${Date.now()}`)) as typeof import('../../src/lib/terminal/restore.js')
    registerRestore({name: 'from-first-copy'})
    expect(copy.pendingRestores()).to.deep.equal(['from-first-copy'])
    expect(copy.restoreTerminal()).to.deep.equal(['from-first-copy'])
    expect(pendingRestores()).to.deep.equal([])
  })
})
