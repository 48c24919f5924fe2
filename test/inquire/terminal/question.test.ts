// askQuestion: stock @inquirer/prompts `input` on the tty context (here the
// context's in-memory streams). Node's readline under it garbles a read of
// several characters in the middle of the line; the question feeds it one key
// per read, so fast typing and pastes land where the cursor is.
import {expect} from 'chai'
import {memoryStreams} from '../../helpers/memory-streams.js'
import {askQuestion} from '../../../src/lib/inquire/question.js'
import {isPromptCancelled} from '../../../src/lib/inquire/types.js'
import {pendingRestores} from '../../../src/lib/terminal/restore.js'

const streams = memoryStreams

const later = (fn: () => void) => new Promise<void>((resolve) => setTimeout(() => (fn(), resolve()), 30))

/** Resolves once `ready()` holds (polled; a loaded machine may take a while to draw the question). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const t0 = Date.now()
  while (!ready()) {
    if (Date.now() - t0 > 10_000) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('askQuestion (@inquirer/prompts input on the tty context)', () => {
  it('inserts text typed in one read mid-line at the cursor (Ctrl+A, then several characters)', async () => {
    const s = streams()
    const answer = askQuestion('Model:', {default: 'claude'}, s)
    await later(() => s.input.write('\x01anthropic/\r'))
    expect(await answer).to.equal('anthropic/claude')
  })

  it('shows the validation problem under the answer and keeps the text to fix', async () => {
    const s = streams()
    const answer = askQuestion('Model:', {validate: (a) => a.includes('/') || `'${a}' is not PROVIDER/MODEL`}, s)
    await later(() => s.input.write('claude\r'))
    await until(() => s.written().includes("'claude' is not PROVIDER/MODEL"), 'the validation problem')
    s.input.write('\x01x/\r')
    expect(await answer).to.equal('x/claude')
  })

  it('keeps an escape sequence whole (Left arrow moves, nothing is inserted)', async () => {
    const s = streams()
    const answer = askQuestion('Model:', {default: 'ab'}, s)
    await later(() => s.input.write('\x1b[DX\r'))
    expect(await answer).to.equal('aXb')
  })

  it('Ctrl+C rejects as interrupted', async () => {
    const s = streams()
    const answer = askQuestion('Model:', {}, s).catch((e: unknown) => e)
    await later(() => s.input.write('\x03'))
    const error = await answer
    expect(isPromptCancelled(error) && error.reason).to.equal('interrupted')
  })

  it('registers raw mode\'s undo in the one restore registry while the question is open, and only then', async () => {
    const s = streams()
    const modes: boolean[] = []
    const input = Object.assign(s.input, {
      isRaw: false,
      setRawMode(mode: boolean) {
        modes.push(mode)
        input.isRaw = mode
        return input
      },
    })
    const answer = askQuestion('Model:', {}, {...s, input})
    await until(() => s.written().includes('Model:'), 'the question')
    const whileOpen = pendingRestores()
    s.input.write('x/y\r')
    expect(await answer).to.equal('x/y')
    expect(whileOpen).to.deep.equal(['question'])
    expect(modes).to.deep.equal([true, false])
    expect(pendingRestores()).to.deep.equal([])
  })
})
