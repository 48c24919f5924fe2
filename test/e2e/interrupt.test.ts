// The interactive turn end to end (SPEC §1 invariants 3, 6, 7; §7): bin/run.js
// in a real pseudo-terminal against a local server that streams slowly, real
// Ctrl+C bytes typed on the terminal, real script editors. Each test checks
// what the user sees, what the next request carries, what events.json keeps,
// the exit status, and that `stty -a` is the same before and after.
import {expect} from 'chai'
import {readFileSync, rmSync} from 'node:fs'
import {keys} from '../helpers/pty.js'
import {fullText, type SlowResponse} from '../fixtures/e2e/slow-server.js'
import {REPLY_EDITOR, slowRuns, type JpRun, type JpRunOptions} from '../fixtures/e2e/interrupt-run.js'

const MENU = 'Interrupted [c,r,q,s,a,?]'
const words = (n: number, tag = 'w') => Array.from({length: n}, (_, i) => `${tag}${i} `)
/** A long answer that holds after its 20th word until released: interrupted at leisure, never waited out. */
const SLOW: SlowResponse = {text: words(60), intervalMs: 5, hold: 20}
const SHORT: SlowResponse = {text: ['short ', 'answer.'], intervalMs: 5}
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b/

type Msg = {role: string; content: unknown}

/** Every row the terminal holds, scrollback included, right-trimmed, as one text. */
function allText(r: JpRun): string {
  const buf = r.term.terminal.buffer.active
  const rows: string[] = []
  for (let i = 0; i < buf.length; i++) rows.push(buf.getLine(i)?.translateToString(true) ?? '')
  return rows.join('\n').trimEnd()
}

describe('e2e: interrupting a streaming answer in a terminal', function () {
  this.timeout(60_000)
  const runs = slowRuns()
  /** Files a test made outside any sandbox: removed after it, passed or failed. */
  const leftover = (f: string) => runs.teardown.add(() => rmSync(f, {force: true}))
  const start = (script: SlowResponse[], opts: Omit<JpRunOptions, 'baseUrl'> = {}) => runs.start(script, opts)

  /** Waits for a few words of the answer, then types Ctrl+C and waits for the menu. */
  async function interrupt(r: JpRun, after = 'w3 '): Promise<void> {
    await r.term.waitForText(after)
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
  }

  const messages = (i: number) => runs.server.requests[i].json().messages as Msg[]
  const messageEvents = (events: Array<{type: string; message?: string}>) => events.filter((e) => e.type === 'chat_response' && typeof e.message === 'string').map((e) => e.message!)

  it('r: the reply stops the stream, and the next request carries the partial answer and the reply as the new user message', async () => {
    const r = await start([SLOW, SHORT])
    await interrupt(r)
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.type('please stop there')
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(runs.server.requests).to.have.length(2)
    expect(runs.server.completed[0]).to.equal(false)
    const msgs = messages(1)
    const [assistant, user] = msgs.slice(-2)
    expect(user).to.deep.equal({role: 'user', content: 'please stop there'})
    expect(assistant.role).to.equal('assistant')
    const partial = assistant.content as string
    expect(partial.startsWith('w0 w1 w2 w3 ')).to.equal(true)
    expect(fullText(SLOW).startsWith(partial)).to.equal(true)
    expect(partial.length).to.be.lessThan(fullText(SLOW).length)
    // The stored conversation is the same story.
    const events = await r.events()
    expect(messageEvents(events)).to.deep.equal([partial, 'short answer.'])
    expect(events.filter((e) => e.type === 'chat_request').map((e) => (e as {content: string}).content)).to.deep.equal(['tell me a story', 'please stop there'])
    expect(r.term.screenText()).to.include('short answer.')
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  // What is stored is what was shown (issue 34): the word the renderer held back when Ctrl+C cut the answer
  // is shown before the menu opens, so the stored partial answer is all on screen and the next answer starts on its own line.
  // One jp session plays every chunk size: each reply's answer is the next size's cut answer (the renderer starts
  // afresh for each answer), so 16 cuts cost one process start instead of 16.
  it('r after a cut mid-line (chunks of 1 to 16): the held-back word is shown before the menu opens, never glued to the next answer', async () => {
    const sizes = Array.from({length: 16}, (_, i) => i + 1)
    // Same length as 'Intro line.' for every size, so the chunks cut where they always did; the tag tells the answers apart.
    const cutOf = (size: number) => `Intro ln${String(size).padStart(2, '0')}.\n\nHello alpha beta`
    const script: SlowResponse[] = sizes.map((size) => {
      const cut = cutOf(size)
      const pieces: string[] = []
      for (let i = 0; i < cut.length; i += size) pieces.push(cut.slice(i, i + size))
      // Every piece at once, then a hold the test never releases: the answer stops after `beta`.
      return {text: [...pieces, ' never shown'], intervalMs: 1, burst: pieces.length, hold: pieces.length}
    })
    const r = await start([...script, {text: ['REPLY-ANSWER here.'], intervalMs: 1}])
    for (const size of sizes) {
      const intro = cutOf(size).split('\n')[0]
      await r.term.waitFor(() => allText(r).includes(intro), intro)
      r.term.send(keys.ctrlC)
      await r.term.waitFor(() => allText(r).slice(allText(r).lastIndexOf(intro)).includes(MENU), `the menu after ${intro}`)
      const text = allText(r)
      const beforeMenu = text.slice(text.lastIndexOf(intro), text.lastIndexOf(MENU))
      // All the stored partial answer is on screen above the menu, and so before the next answer.
      expect(beforeMenu, `chunks of ${size}:\n${text}`).to.include('Hello alpha beta')
      r.term.send('r')
      await r.term.waitFor(() => allText(r).slice(allText(r).lastIndexOf(intro)).includes('Reply:'), `Reply: after ${intro}`)
      r.term.type(`short please ${size}`)
      r.term.send(keys.enter)
    }
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    const stored = messageEvents(await r.events())
    expect(stored).to.deep.equal([...sizes.map(cutOf), 'REPLY-ANSWER here.'])
    const lines = allText(r).split('\n')
    // Each next answer starts its own line, never on the cut answer's (`beta[ ]Intro …`, `beta REPLY…`).
    for (const size of sizes) expect(lines.some((l) => l.startsWith(cutOf(size).split('\n')[0])), `chunks of ${size}:\n${allText(r)}`).to.equal(true)
    expect(lines.some((l) => l.startsWith('REPLY-ANSWER here.')), allText(r)).to.equal(true)
    expect(allText(r)).not.to.match(/beta[ \t]*(REPLY|Intro)/)
    const screen = allText(r)
    expect(screen.lastIndexOf('beta')).to.be.lessThan(screen.indexOf('REPLY-ANSWER'))
  })

  it('the menu starts on its own line when the answer stopped mid-line', async () => {
    const r = await start([SLOW])
    await interrupt(r)
    const row = r.term.screen().find((line) => line.includes(MENU))
    // Not glued to the half-written answer (`w3 ^CInterrupted ...`).
    expect(row, r.term.screenText()).to.match(/^Interrupted \[c,r,q,s,a,\?\]/)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
  })

  it('c: output is held while the menu is open, then shown; stdout ends up exactly the full stream', async () => {
    const r = await start([{text: words(30), intervalMs: 5, hold: 8}], {redirect: 'files'})
    await r.poll(() => r.stdoutSoFar().includes('w3 '), 'w3 in stdout')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    const atMenu = r.stdoutSoFar()
    // The stream runs to its end behind the menu; nothing more reaches stdout.
    runs.server.release()
    await r.poll(() => runs.server.completed[0] === true, 'the server finished the response')
    await new Promise((res) => setTimeout(res, 200))
    expect(r.stdoutSoFar()).to.equal(atMenu)
    expect(atMenu.length).to.be.lessThan(words(30).join('').length)
    r.term.send('c')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(res.stdout.trimEnd()).to.equal(words(30).join('').trimEnd())
    expect(runs.server.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('Esc at the menu continues the live stream', async () => {
    const r = await start([{text: words(40), intervalMs: 5, hold: 8}], {redirect: 'files'})
    await r.poll(() => r.stdoutSoFar().includes('w3 '), 'w3 in stdout')
    r.term.send(keys.ctrlC)
    await r.term.waitForText(MENU)
    r.term.send(keys.escape)
    runs.server.release()
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(res.stdout.trimEnd()).to.equal(words(40).join('').trimEnd())
    expect(runs.server.completed[0]).to.equal(true)
    expect(runs.server.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('Ctrl+X at the reply opens the editor seeded with the typed text, re-seeds the buffer with its result, and Enter sends it', async () => {
    const log = `${process.env.TMPDIR ?? '/tmp'}/jp-int-editor-${process.pid}-${Date.now()}.log`
    leftover(log)
    const r = await start([SLOW, SHORT], {env: {JP_EDITOR: REPLY_EDITOR, REPLY_TEXT: 'from the editor', EDITOR_LOG: log}})
    await interrupt(r)
    r.term.send('r')
    await r.term.waitForText('Ctrl+X')
    r.term.type('typed inline')
    r.term.send(keys.ctrlX)
    await r.term.waitFor(() => /Reply:.*from the editor/.test(r.term.screenText()), 'the buffer re-seeded from the editor')
    expect(readFileSync(log, 'utf8')).to.equal('seeded:typed inline\n')
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(messages(1).at(-1)).to.deep.equal({role: 'user', content: 'from the editor'})
    // An inline reply is on screen already: not echoed again as `> ...`.
    expect(r.term.screenText()).not.to.include('> from the editor')
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('compose_in_editor=true opens the editor directly; its reply is echoed and sent', async () => {
    const r = await start([SLOW, SHORT], {
      args: ['--cfg', 'interrupt.streaming.compose_in_editor=true'],
      env: {JP_EDITOR: REPLY_EDITOR, REPLY_TEXT: 'written in the editor'},
    })
    await interrupt(r)
    r.term.send('r')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(r.term.screenText()).to.include('> written in the editor')
    expect(r.term.output()).not.to.include('Reply:')
    expect(messages(1).at(-1)).to.deep.equal({role: 'user', content: 'written in the editor'})
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('compose_in_editor="always" with a missing editor program: a notice and back to the menu', async () => {
    const r = await start([SLOW], {
      args: ['--cfg', 'interrupt.streaming.compose_in_editor="always"'],
      env: {JP_EDITOR: '/nonexistent/jp-editor-xyz'},
    })
    await interrupt(r)
    r.term.markOutput()
    r.term.send('r')
    await r.term.waitForText("Couldn't open your editor")
    await r.term.waitFor(() => r.term.outputSinceMark().includes('Interrupted'), 'the menu again')
    expect(r.term.screenText()).to.include('Returning to the menu.')
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(runs.server.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('compose_in_editor="never": the reply help line does not offer Ctrl+X', async () => {
    const r = await start([SLOW, SHORT], {
      args: ['--cfg', 'interrupt.streaming.compose_in_editor="never"'],
      env: {JP_EDITOR: REPLY_EDITOR, REPLY_TEXT: 'must not be used'},
    })
    await interrupt(r)
    r.term.send('r')
    await r.term.waitForText('Enter to send')
    expect(r.term.screenText()).not.to.include('Ctrl+X')
    r.term.type('inline only')
    r.term.send(keys.ctrlX + keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    expect(messages(1).at(-1)).to.deep.equal({role: 'user', content: 'inline only'})
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('s: exits 0 with the partial answer stored and no further request', async () => {
    const r = await start([SLOW])
    await interrupt(r)
    r.term.send('s')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    const stored = messageEvents(await r.events())
    expect(stored).to.have.length(1)
    expect(stored[0].startsWith('w0 w1 w2 w3 ')).to.equal(true)
    expect(fullText(SLOW).startsWith(stored[0])).to.equal(true)
    expect(stored[0].length).to.be.lessThan(fullText(SLOW).length)
    expect(runs.server.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('a: discards the turn from events.json and exits 130', async () => {
    const r = await start([SHORT, SLOW])
    // A first, finished turn that must survive the abort of the second.
    await r.term.waitForText('short answer.')
    const first = await r.finish()
    expect(first.code).to.equal(0)
    const before = await r.events()
    r.term.dispose()
    await r.start('a second question')
    await interrupt(r)
    r.term.send('a')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(130)
    expect(r.term.screenText()).to.include('Aborted')
    expect(await r.events()).to.deep.equal(before)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('Ctrl+C at the menu escalates: graceful shutdown, partial stored, exit 130', async () => {
    const r = await start([SLOW])
    await interrupt(r)
    r.term.send(keys.ctrlC)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(130)
    const stored = messageEvents(await r.events())
    expect(stored).to.have.length(1)
    expect(stored[0].startsWith('w0 w1 w2 w3 ')).to.equal(true)
    expect(runs.server.requests).to.have.length(1)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  it('three Ctrl+C in quick succession, while the menu is still being drawn: exit 130 with the terminal restored', async () => {
    const r = await start([SLOW])
    await r.term.waitForText('w3 ')
    // Typed, not pasted: signals sent in one write coalesce in the kernel.
    for (let i = 0; i < 3; i++) {
      r.term.send(keys.ctrlC)
      await new Promise((res) => setTimeout(res, 15))
    }
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(130)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })

  for (const redirect of ['pipe', 'files'] as const) {
    it(`${redirect === 'pipe' ? '| cat' : '> file 2> file'}: the menu and the reply prompt are on the terminal; stdout and stderr carry no prompt bytes`, async () => {
      const r = await start([SLOW, SHORT], {redirect})
      await r.poll(() => r.stdoutSoFar().includes('w3 '), 'w3 in stdout')
      r.term.send(keys.ctrlC)
      await r.term.waitForText(MENU)
      r.term.send('r')
      await r.term.waitForText('Reply:')
      r.term.type('go on')
      r.term.send(keys.enter)
      const res = await r.finish()
      expect(res.code, r.term.screenText()).to.equal(0)
      expect(r.term.output()).to.include('Interrupted')
      for (const [name, text] of [['stdout', res.stdout], ['stderr', res.stderr]]) {
        expect(text, name).not.to.include('Interrupted')
        expect(text, name).not.to.include('Reply:')
        expect(text, name).not.to.include('go on')
      }
      expect(ESCAPES.test(res.stdout), 'escape sequences in stdout').to.equal(false)
      expect(res.stdout.startsWith('w0 w1 w2 w3 ')).to.equal(true)
      expect(res.stdout).to.include('short answer.')
      expect(messages(1).at(-1)).to.deep.equal({role: 'user', content: 'go on'})
      expect(res.sttyAfter).to.equal(res.sttyBefore)
    })
  }

  it('SIGTERM during the reply prompt: exit 143, partial stored, terminal restored', async () => {
    const r = await start([SLOW])
    await interrupt(r)
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.type('half a thought')
    await r.term.waitForText('half a thought')
    process.kill(r.jpPid(), 'SIGTERM')
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(143)
    const stored = messageEvents(await r.events())
    expect(stored).to.have.length(1)
    expect(stored[0].startsWith('w0 w1 w2 w3 ')).to.equal(true)
    expect(res.sttyAfter).to.equal(res.sttyBefore)
    // Bracketed paste and kitty flags off, cursor shown, after the prompt turned them on.
    const out = r.term.output()
    expect(out.lastIndexOf('\x1b[?2004l')).to.be.greaterThan(out.lastIndexOf('\x1b[?2004h'))
  })

  it('an interrupt during reasoning commits the partial reasoning as reasoning before the reply', async () => {
    const thinking: SlowResponse = {reasoning: words(40, 'r'), text: words(5), intervalMs: 5, hold: 20}
    const r = await start([thinking, SHORT])
    await interrupt(r, 'r3 ')
    r.term.send('r')
    await r.term.waitForText('Reply:')
    r.term.type('skip the thinking')
    r.term.send(keys.enter)
    const res = await r.finish()
    expect(res.code, r.term.screenText()).to.equal(0)
    const events = (await r.events()) as Array<{type: string; message?: string; reasoning?: string; content?: string}>
    const i = events.findIndex((e) => e.type === 'chat_response' && e.reasoning !== undefined)
    expect(i).to.be.greaterThan(-1)
    const reasoning = events[i].reasoning!
    expect(reasoning.startsWith('r0 r1 r2 r3 ')).to.equal(true)
    expect(words(40, 'r').join('').startsWith(reasoning)).to.equal(true)
    // No answer text had arrived: no message event in between.
    expect(events[i + 1]).to.include({type: 'chat_request', content: 'skip the thinking'})
    expect(res.sttyAfter).to.equal(res.sttyBefore)
  })
})

describe('e2e: model output with control sequences', function () {
  this.timeout(60_000)
  const runs = slowRuns()

  const NASTY = ['safe ', '\x1b]0;pwned title\x07', 'text ', '\x1b]52;c;cHduZWQ=\x07', 'more\x1b[2J', '\x1b[5;1H', '\x1b[31mred\x1b[0m', ' end']
  const script: SlowResponse[] = [{text: NASTY, intervalMs: 5}]

  it('on a terminal: OSC title, OSC 52, clear screen and cursor movement never reach the screen; events.json keeps the text unaltered', async () => {
    const r = await runs.start(script)
    const res = await r.finish()
    expect(res.code).to.equal(0)
    const raw = r.term.output()
    expect(raw).not.to.include('\x1b]0;')
    expect(raw).not.to.include('\x1b]52;')
    expect(raw).not.to.include('\x1b[2J')
    expect(raw).not.to.include('\x1b[5;1H')
    expect(raw).to.include('safe text more')
    expect(r.term.screenText()).to.include('red end')
    const events = (await r.events()) as Array<{type: string; message?: string}>
    expect(events.find((e) => e.type === 'chat_response')?.message).to.equal(NASTY.join(''))
  })

  // Invisible and direction-changing characters (SPEC §19): a dim ⟨U+XXXX⟩ on the terminal, rendered or not,
  // in the answer and the thinking; the stored events and a pipe keep the bytes.
  const INVISIBLE = ['access ', 'user\u202e', ' \u2066// admin\u2069', ' zero\u200bwidth', ' bom\ufeff', ' &#x202e;ent', ' line\u2028sep', ' end']
  const FORMAT = /[\p{Cf}\u2028\u2029]/u
  for (const markdown of [true, false]) {
    it(`on a terminal (style.markdown ${markdown}): format characters in the answer and the thinking are dim placeholders; events.json keeps them`, async () => {
      const r = await runs.start([{reasoning: ['think\u202e', 'ing\u200b '], text: INVISIBLE, intervalMs: 5}], {toml: `[style]\nmarkdown = ${markdown}\n`})
      const res = await r.finish()
      expect(res.code).to.equal(0)
      const raw = r.term.output()
      expect(FORMAT.test(raw), JSON.stringify(raw)).to.equal(false)
      // Dim, then undimmed (SGR 22 on the plain path; the renderer resets all and sets its style again).
      for (const name of ['U+202E', 'U+2066', 'U+2069', 'U+200B', 'U+FEFF', 'U+2028']) expect(raw, name).to.match(new RegExp(`\x1b\\[2m⟨${name.replace('+', '\\+')}⟩\x1b\\[(0|22)m`))
      // The entity is decoded (into a placeholder) only where markdown is rendered.
      expect(raw.includes('&#x202e;ent')).to.equal(!markdown)
      const events = (await r.events()) as Array<{type: string; message?: string; reasoning?: string}>
      expect(events.find((e) => e.type === 'chat_response' && e.message !== undefined)?.message).to.equal(INVISIBLE.join(''))
    })
  }

  it('| cat into a file: format characters reach stdout as they came', async () => {
    const r = await runs.start([{text: INVISIBLE, intervalMs: 5}], {redirect: 'pipe'})
    const res = await r.finish()
    expect(res.code).to.equal(0)
    expect(res.stdout.replace(/\n$/, '')).to.equal(INVISIBLE.join(''))
  })

  it('| cat into a file: stdout gets the raw bytes (only output shown on a terminal is sanitized)', async () => {
    const r = await runs.start(script, {redirect: 'pipe'})
    const res = await r.finish()
    expect(res.code).to.equal(0)
    expect(res.stdout.replace(/\n$/, '')).to.equal(NASTY.join(''))
    expect(r.term.output()).not.to.include('\x1b]52;')
  })
})

