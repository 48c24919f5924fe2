import {expect} from 'chai'
import {mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {
  claimTerminatingSignals,
  pendingRestores,
  registerRestore,
  restoreTerminal,
  setRestoreTtyOpener,
  terminateRegistered,
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

  describe('terminating signals', () => {
    const counts = () => [process.listenerCount('SIGTERM'), process.listenerCount('SIGHUP')]

    it('the stand-in listens (once, whatever is registered) only while something is registered and nobody claimed the signals', () => {
      const [term, hup] = counts()
      const a = registerRestore({name: 'a'})
      const b = registerRestore({name: 'b'})
      expect(counts()).to.deep.equal([term + 1, hup + 1])
      a()
      expect(counts()).to.deep.equal([term + 1, hup + 1])
      b()
      expect(counts()).to.deep.equal([term, hup])
      registerRestore({name: 'c'})
      restoreTerminal()
      expect(counts()).to.deep.equal([term, hup])
    })

    it('a claim (the signal router) silences the stand-in until it is released', () => {
      const [term, hup] = counts()
      const release = claimTerminatingSignals()
      const undo = registerRestore({name: 'prompt'})
      expect(counts()).to.deep.equal([term, hup])
      release()
      release() // idempotent
      expect(counts()).to.deep.equal([term + 1, hup + 1])
      undo()
      expect(counts()).to.deep.equal([term, hup])
    })

    it('terminateRegistered tells every owner, newest first, and keeps going past one that throws', () => {
      const told: string[] = []
      registerRestore({name: 'old', terminate: () => told.push('old')})
      registerRestore({name: 'plain'})
      registerRestore({
        name: 'bad',
        terminate: () => {
          throw new Error('gone')
        },
      })
      registerRestore({name: 'new', terminate: () => told.push('new')})
      terminateRegistered()
      expect(told).to.deep.equal(['new', 'old'])
      expect(pendingRestores()).to.deep.equal(['old', 'plain', 'bad', 'new'])
      restoreTerminal()
    })
  })
})
