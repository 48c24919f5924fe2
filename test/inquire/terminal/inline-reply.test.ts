// inlineReply in a real pseudo-terminal: what the user types (real key
// bytes), what the screen shows (xterm's rendering), the outcome the fixture
// reports, and the terminal left behind.
import {rmSync} from 'node:fs'
import {expect} from 'chai'
import {fixture, keys, spawnPty, tempDir, TSX, tsxArgs, type PtyOptions, type PtySession} from '../../helpers/pty.js'

describe('inlineReply (pty)', function () {
  this.timeout(30_000)
  let term: PtySession | undefined
  let tmp: ReturnType<typeof tempDir>

  beforeEach(() => {
    tmp = tempDir()
  })
  afterEach(() => {
    term?.dispose()
    term = undefined
    tmp.cleanup()
  })

  async function run(config: Record<string, unknown>, opts: PtyOptions & {ready?: string} = {}): Promise<PtySession> {
    term = await spawnPty(tsxArgs(fixture('reply.ts'), JSON.stringify(config)), {...opts, env: {JP_TEST_DIR: tmp.dir, ...opts.env}})
    await term.waitForText(opts.ready ?? String(config.message ?? 'Reply:').split('\n').at(-1)!)
    await term.settle(100)
    return term
  }

  /** Runs `script` (sh) in the pty; $NODE, $TSX, $FIX and $ARG are set. */
  async function runSh(script: string, config: Record<string, unknown>, opts: PtyOptions = {}): Promise<PtySession> {
    term = await spawnPty(['-c', script], {
      file: '/bin/sh',
      cwd: tmp.dir,
      ...opts,
      env: {JP_TEST_DIR: tmp.dir, NODE: process.execPath, TSX, FIX: fixture('reply.ts'), ARG: JSON.stringify(config), ...opts.env},
    })
    return term
  }

  async function outcome(t: PtySession): Promise<unknown> {
    await t.waitForExit()
    return JSON.parse(tmp.read('result.json'))
  }

  it('submits typed text on Enter, leaving it on screen without the help line', async () => {
    const t = await run({message: 'Reply:'})
    expect(t.screen().slice(0, 2)).to.deep.equal(['Reply: ', 'Enter to send · Alt+Enter for newline · Ctrl+X to edit in $EDITOR'])
    expect(t.cursor()).to.deep.equal({x: 7, y: 0})
    t.type('hello world')
    await t.waitForText('Reply: hello world')
    expect(t.cursor()).to.deep.equal({x: 18, y: 0})
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'hello world'})
    expect(t.screenText()).to.not.contain('Enter to send')
    expect(t.screen()[0]).to.equal('Reply: hello world')
  })

  it('submits an empty buffer as an empty reply', async () => {
    const t = await run({message: 'Reply:'})
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: ''})
  })

  it('starts with the cursor at the end of initialText and edits it', async () => {
    const t = await run({message: 'Edit:', initialText: 'abc'})
    expect(t.cursor()).to.deep.equal({x: 9, y: 0})
    t.send(keys.backspace + keys.ctrlA + 'X')
    await t.waitForText('Edit: Xab')
    expect(t.cursor()).to.deep.equal({x: 7, y: 0})
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'Xab'})
  })

  it('inserts newlines with Shift+Enter (CSI-u), Alt+Enter and Ctrl+J', async () => {
    const t = await run({message: 'Reply:'})
    t.send('one' + keys.shiftEnterKitty + 'two' + keys.altEnter + 'three' + keys.ctrlJ + 'four')
    await t.waitForText('… four')
    expect(t.screen().slice(0, 5)).to.deep.equal(['Reply: one', '… two', '… three', '… four', 'Enter to send · Alt+Enter for newline · Ctrl+X to edit in $EDITOR'])
    expect(t.cursor()).to.deep.equal({x: 6, y: 3})
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'one\ntwo\nthree\nfour'})
  })

  it('inserts a bracketed paste verbatim (CRLF normalised) without submitting', async () => {
    const t = await run({message: 'Reply:'})
    expect(t.output()).to.contain('\x1b[?2004h').and.contain('\x1b[>1u')
    t.paste('first\r\nsecond\rthird\n')
    await t.waitForText('… third')
    await t.settle()
    expect(existsResult()).to.equal(false)
    t.send('end' + keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'first\nsecond\nthird\nend'})
    const tail = t.output().slice(t.output().lastIndexOf('\x1b[>1u'))
    expect(tail).to.contain('\x1b[<u').and.contain('\x1b[?2004l')
  })

  function existsResult(): boolean {
    try {
      tmp.read('result.json')
      return true
    } catch {
      return false
    }
  }

  it('returns open-editor with the buffer on Ctrl+X', async () => {
    const t = await run({message: 'Reply:', initialText: 'draft\ntext'})
    t.send(keys.ctrlX)
    expect(await outcome(t)).to.deep.equal({type: 'open-editor', currentText: 'draft\ntext'})
  })

  it('leaves Ctrl+X unbound and unadvertised when editorEscape is false', async () => {
    const t = await run({message: 'Reply:', editorEscape: false})
    expect(t.screen()[1]).to.equal('Enter to send · Alt+Enter for newline')
    t.send('a' + keys.ctrlX + 'b')
    await t.waitForText('Reply: ab')
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'ab'})
  })

  it('cancels on Ctrl+C, on kitty-encoded Ctrl+C (reason interrupted), and on Ctrl+D with an empty buffer (reason cancelled), keeping the buffer and saying so on screen', async () => {
    let t = await run({message: 'Reply:', initialText: 'kept?'})
    t.send(keys.ctrlC)
    expect(await outcome(t)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: 'kept?'})
    // The last picture of a cancelled reply says it was cancelled (issue 23, finding 7).
    expect(t.screenText()).to.match(/^Reply: kept\? \(cancelled\)$/m)
    t.dispose()
    rmSync(tmp.file('result.json'))
    t = await run({message: 'Reply:'})
    t.send(keys.ctrlCKitty)
    expect(await outcome(t)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: ''})
    t.dispose()
    rmSync(tmp.file('result.json'))
    t = await run({message: 'Reply:'})
    t.send('x' + keys.ctrlD)
    await t.settle()
    expect(existsResult()).to.equal(false)
    t.send(keys.backspace + keys.ctrlD)
    expect(await outcome(t)).to.deep.equal({type: 'cancelled', reason: 'cancelled', text: ''})
  })

  it('vi mode: the cursor shape follows insert/normal and the help line names the mode', async () => {
    const t = await run({message: 'Reply:', editMode: 'vi'})
    expect(t.output()).to.contain('\x1b[6 q')
    expect(t.screen()[1]).to.contain('vi insert')
    t.type('hello world')
    t.markOutput()
    t.send(keys.escape)
    await t.waitForText('vi normal')
    expect(t.outputSinceMark()).to.contain('\x1b[2 q')
    t.send('bdw')
    await t.waitForText(/Reply: hello $/m)
    t.markOutput()
    t.send('A')
    await t.waitForText('vi insert')
    expect(t.outputSinceMark()).to.contain('\x1b[6 q')
    t.send('there' + keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'hello there'})
    expect(t.output().slice(t.output().lastIndexOf('\x1b[6 q'))).to.contain('\x1b[0 q')
  })

  it('places the cursor by display width: CJK, emoji, ZWJ sequences, combining marks', async () => {
    const t = await run({message: '>'})
    const start = t.cursor().x
    expect(start).to.equal(2)
    const steps: Array<[string, number]> = [
      ['世', 2],
      ['界', 2],
      ['👍', 2],
      ['👨‍👩‍👧', 2],
      ['e\u0301', 1],
      ['a', 1],
    ]
    let x = start
    for (const [text, width] of steps) {
      t.send(text)
      x += width
      await t.waitFor(() => t.cursor().x === x, `cursor at ${x} after ${text}`)
    }
    t.send(keys.left + keys.left + keys.left)
    await t.waitFor(() => t.cursor().x === x - 4, 'cursor back over a, é and the ZWJ family')
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: '世界👍👨‍👩‍👧e\u0301a'})
  })

  it('wraps at the terminal width with a continuation prefix and an exact cursor at the boundary', async () => {
    const t = await run({message: 'R:'}, {cols: 20})
    // First row holds 20 - 3 = 17 cells, continuation rows 18.
    t.type('a'.repeat(17))
    await t.waitFor(() => t.cursor().y === 1, 'cursor wraps to row 1')
    expect(t.screen().slice(0, 2)).to.deep.equal(['R: ' + 'a'.repeat(17), '… '])
    expect(t.cursor()).to.deep.equal({x: 2, y: 1})
    t.type('b'.repeat(18) + 'c')
    await t.waitForText('… c')
    expect(t.screen().slice(0, 3)).to.deep.equal(['R: ' + 'a'.repeat(17), '… ' + 'b'.repeat(18), '… c'])
    expect(t.cursor()).to.deep.equal({x: 3, y: 2})
    // A wide character that does not fit in the last cell starts the next row.
    t.send(keys.backspace + 'x'.repeat(17) + '世')
    await t.waitForText('… 世')
    expect(t.screen()[2]).to.equal('… ' + 'x'.repeat(17))
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'a'.repeat(17) + 'b'.repeat(18) + 'x'.repeat(17) + '世'})
  })

  it('re-wraps after a resize mid-edit (wider, then narrower)', async () => {
    // xterm.js reflows a narrowed screen keeping the cursor's distance from
    // the bottom; a terminal that moves the cursor with its text (kitty, VTE)
    // gets the same estimate. Hiding the help line makes the two agree here.
    const t = await run({message: 'R:', helpMessage: ''}, {cols: 20, rows: 12})
    const words = 'the quick brown fox jumps over the lazy dog again'
    t.type(words)
    await t.waitForText('… lazy dog again')
    expect(t.screen().slice(0, 3)).to.deep.equal(['R: the quick brown f', '… ox jumps over the ', '… lazy dog again'])
    t.resize(60, 12)
    await t.waitFor(() => t.screen()[0] === 'R: ' + words, 'one row after widening')
    await t.settle()
    expect(t.screen().slice(1).every((r) => r === '')).to.equal(true)
    expect(t.cursor()).to.deep.equal({x: 3 + words.length, y: 0})
    t.send('!')
    t.resize(30, 12)
    await t.waitFor(() => t.screen()[1]?.startsWith('… '), 're-wrapped after narrowing')
    await t.settle()
    const rows = t.screen().filter((r) => r !== '')
    expect(rows.map((r, i) => (i === 0 ? r.slice(3) : r.slice(2))).join('')).to.equal(words + '!')
    expect(rows.every((r) => [...r].length <= 30)).to.equal(true)
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: words + '!'})
  })

  it('scrolls a buffer taller than the screen in a viewport around the cursor', async () => {
    const lines = Array.from({length: 30}, (_, i) => `line ${i}`)
    const t = await run({message: 'R:', initialText: lines.join('\n')}, {rows: 8, ready: 'line 29'})
    // 7 buffer rows + the help row; the cursor (end) is on the last one.
    expect(t.screen()).to.deep.equal([...lines.slice(23).map((l) => '… ' + l), 'Enter to send · Alt+Enter for newline · Ctrl+X to edit in $EDITOR'])
    expect(t.cursor()).to.deep.equal({x: 9, y: 6})
    t.send(keys.alt('<'))
    await t.waitForText('R: line 0')
    expect(t.screen()[0]).to.equal('R: line 0')
    expect(t.screen()[6]).to.equal('… line 6')
    expect(t.cursor()).to.deep.equal({x: 3, y: 0})
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: lines.join('\n')})
  })

  it('types at the end of a large buffer with a bounded number of bytes', async () => {
    const text = Array.from({length: 60}, (_, i) => `line ${i} `.padEnd(50, 'x')).join('\n')
    const t = await run({message: 'R:', initialText: text}, {rows: 100, cols: 80})
    t.markOutput()
    t.send('y')
    await t.waitFor(() => t.outputSinceMark().length > 0, 'echo')
    await t.settle()
    expect(t.outputSinceMark()).to.equal('y')
    t.send(keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: text + 'y'})
  })

  it('walks history with Up/Down and keeps a cancelled draft as the newest entry', async () => {
    const t = await run({message: 'Reply:', repeat: 2, history: ['oldest', 'older']})
    t.send(keys.up)
    await t.waitForText('Reply: older')
    t.send(keys.up)
    await t.waitForText('Reply: oldest')
    t.send(keys.down + keys.down)
    await t.waitFor(() => t.screen()[0] === 'Reply: ', 'back at the empty draft')
    t.send('my draft' + keys.ctrlC)
    await t.waitFor(() => t.screen().filter((l) => l.startsWith('Reply:')).length === 2, 'second prompt')
    await t.settle()
    t.send(keys.up)
    await t.waitForText('Reply: my draft')
    t.send(' fixed' + keys.enter)
    expect(await outcome(t)).to.deep.equal([{type: 'cancelled', reason: 'interrupted', text: 'my draft'}, {type: 'submit', text: 'my draft fixed'}])
  })

  it('keeps prompts on the terminal when stdout is piped (| cat)', async () => {
    const t = await runSh('"$NODE" --import "$TSX" "$FIX" "$ARG" | cat', {message: 'Piped:'})
    await t.waitForText('Piped:')
    t.send('hi' + keys.enter)
    await t.waitForText('{"type":"submit","text":"hi"}')
    expect(t.screen()[0]).to.equal('Piped: hi')
  })

  it('writes nothing of the prompt to stdout or stderr (> out 2> err)', async () => {
    const t = await runSh('"$NODE" --import "$TSX" "$FIX" "$ARG" > out.txt 2> err.txt', {message: 'Redirected:'})
    await t.waitForText('Redirected:')
    t.send('yes' + keys.enter)
    await t.waitForExit()
    expect(tmp.read('out.txt')).to.equal('{"type":"submit","text":"yes"}\n')
    expect(tmp.read('err.txt')).to.equal('')
    expect(t.screen()[0]).to.equal('Redirected: yes')
  })

  describe('terminal restoration (stty -a before and after)', () => {
    const script = 'stty -a > before; "$NODE" --import "$TSX" "$FIX" "$ARG"; echo "exit=$?" > status; stty -a > after'

    async function started(config: Record<string, unknown> = {message: 'Reply:'}): Promise<PtySession> {
      const t = await runSh(script, config)
      await t.waitForText('Reply:')
      await t.settle(100)
      // The prompt really changed the settings (raw mode), so "equal after" means restored.
      expect(t.stty()).to.not.equal(tmp.read('before').split('\n').slice(1).join('\n'))
      return t
    }

    async function restored(t: PtySession): Promise<string> {
      await t.waitForExit()
      expect(tmp.read('after')).to.equal(tmp.read('before'))
      const out = t.output()
      const tail = out.slice(out.lastIndexOf('\x1b[>1u'))
      expect(tail).to.contain('\x1b[<u').and.contain('\x1b[?2004l').and.contain('\x1b[?25h')
      return tmp.read('status').trim()
    }

    it('after a submit', async () => {
      const t = await started()
      t.send('ok' + keys.enter)
      expect(await restored(t)).to.equal('exit=0')
    })

    it('after a cancel in vi normal mode (cursor shape reset)', async () => {
      const t = await started({message: 'Reply:', editMode: 'vi'})
      t.send(keys.escape)
      await t.waitForText('vi normal')
      t.send(keys.ctrlC)
      expect(await restored(t)).to.equal('exit=0')
      expect(t.output().slice(t.output().lastIndexOf('\x1b[2 q'))).to.contain('\x1b[0 q')
    })

    it('after an uncaught exception mid-prompt', async () => {
      const t = await started()
      process.kill(Number(tmp.read('pid')), 'SIGUSR1')
      expect(await restored(t)).to.equal('exit=1')
    })

    it('after SIGTERM mid-prompt (and the process still dies by SIGTERM)', async () => {
      const t = await started()
      process.kill(Number(tmp.read('pid')), 'SIGTERM')
      expect(await restored(t)).to.equal('exit=143')
    })
  })

  it('TERM=dumb: plain line input without escape sequences', async () => {
    const t = await run({message: 'Reply:'}, {env: {TERM: 'dumb'}})
    t.send('plain' + keys.backspace + 'n' + keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'plaon'.replace('o', 'i')})
    expect(t.output()).to.not.contain('\x1b')
  })

  it('NO_COLOR: no colour sequences', async () => {
    const t = await run({message: 'Reply:'}, {env: {NO_COLOR: '1'}})
    t.send('x' + keys.enter)
    expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'x'})
    expect(t.output()).to.not.match(/\x1b\[[0-9;]*m/)
  })

  it('runs a second prompt in the same process on fresh /dev/tty streams', async () => {
    const t = await run({message: 'Reply:', repeat: 2})
    t.send('one' + keys.enter)
    await t.waitFor(() => t.screen().filter((l) => l.startsWith('Reply:')).length === 2, 'second prompt')
    await t.settle()
    t.send('two' + keys.enter)
    expect(await outcome(t)).to.deep.equal([{type: 'submit', text: 'one'}, {type: 'submit', text: 'two'}])
  })
})

