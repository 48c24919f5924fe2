// The queued reply's decision logic (SPEC §18, JP D46 "One slot, seeded")
// over the scripted prompt and editor backends: `q` in each menu, the slot
// rules, the typed prompt, and how a Ctrl+C there is fed to the ladder.
import {expect} from 'chai'
import {QUEUE_PROMPT} from '../../src/lib/interrupt/queue-prompt.js'
import {TypeToQueue} from '../../src/lib/interrupt/type-to-queue.js'
import {countdownText, queueCountdown} from '../../src/lib/interrupt/queue-countdown.js'
import type {Key} from '../../src/lib/inquire/keys.js'
import type {KeyListener} from '../../src/lib/interrupt/interrupt-key.js'
import {ctrlCReply, makeHandler, MemorySlot, replyRequests, submit} from './fixtures.js'

const CANNED = 'canned'

describe('queued reply: q in the menus', () => {
  it('streaming q: the Queue: prompt (with history), the reply is queued and the stream resumes', async () => {
    const slot = new MemorySlot()
    const {handler, backend} = makeHandler({selects: ['q'], replies: [submit('then the tests')], queue: slot, history: ['an earlier reply']})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(slot.text).to.equal('then the tests')
    const [req] = replyRequests(backend)
    expect(req.message).to.equal(QUEUE_PROMPT)
    expect(req.initialText).to.equal('')
    expect(req.history).to.deep.equal(['an earlier reply'])
    // A menu's prompt is an ordinary one, not the overlay of type to queue.
    expect(req.eraseOnDone).to.equal(undefined)
  })

  it('streaming q after the stream ended: resume (the turn goes on, nothing is sent to continue it)', async () => {
    const {handler} = makeHandler({selects: ['q'], replies: [submit('x')]})
    expect(await handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'resume'})
  })

  it('tool q: the tool keeps running (continue)', async () => {
    const slot = new MemorySlot()
    const {handler} = makeHandler({selects: ['q'], replies: [submit('after the tool')], queue: slot})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'continue'})
    expect(slot.text).to.equal('after the tool')
  })

  it('turn q: the turn goes on (continue)', async () => {
    const slot = new MemorySlot()
    const {handler} = makeHandler({selects: ['q'], replies: [submit('next')], queue: slot})
    expect(await handler.handleTurnInterrupt()).to.deep.equal({type: 'continue'})
    expect(slot.text).to.equal('next')
  })
})

describe('queued reply: one slot, seeded', () => {
  it('a second q seeds the prompt with what is queued; submitted unchanged it is kept (not written again)', async () => {
    const slot = new MemorySlot('first')
    const {handler, backend} = makeHandler({selects: ['q'], replies: [submit('first')], queue: slot})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(replyRequests(backend)[0].initialText).to.equal('first')
    expect(slot.text).to.equal('first')
    expect(slot.writes).to.deep.equal([])
  })

  it('edited, it replaces what was queued', async () => {
    const slot = new MemorySlot('first')
    const {handler} = makeHandler({selects: ['q'], replies: [submit('second')], queue: slot})
    await handler.handleStreamingInterrupt(true)
    expect(slot.writes).to.deep.equal([{set: 'second'}])
  })

  it('emptied, it is withdrawn and the menu comes back', async () => {
    const slot = new MemorySlot('first')
    const {handler, backend} = makeHandler({selects: ['q', 'c'], replies: [submit('  ')], queue: slot})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(slot.writes).to.deep.equal(['clear'])
    expect(slot.text).to.equal(undefined)
    expect(backend.calls.map((c) => c.kind)).to.deep.equal(['select', 'reply', 'select'])
  })

  it('an empty submit with nothing queued writes nothing and shows the menu again', async () => {
    const slot = new MemorySlot()
    const {handler} = makeHandler({selects: ['q', 's'], replies: [submit('')], queue: slot})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(slot.writes).to.deep.equal([])
  })

  it('Ctrl+C leaves it as it was and shows the menu again', async () => {
    const slot = new MemorySlot('first')
    const {handler} = makeHandler({selects: ['q', 'c'], replies: [ctrlCReply], queue: slot})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(slot.writes).to.deep.equal([])
    expect(slot.text).to.equal('first')
  })

  it('compose_in_editor = true: the editor seeded with what is queued; saved edited replaces, saved empty withdraws, cancelled keeps', async () => {
    const edited = new MemorySlot('first')
    const a = makeHandler({selects: ['q'], editor: [{outcome: 'saved', text: 'from the editor\n'}], streaming: {compose: true}, queue: edited})
    expect(await a.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(edited.writes).to.deep.equal([{set: 'from the editor'}])
    expect(a.editor!.textCalls).to.deep.equal(['first'])

    const emptied = new MemorySlot('first')
    const b = makeHandler({selects: ['q', 'c'], editor: [{outcome: 'saved', text: '\n'}], streaming: {compose: true}, queue: emptied})
    await b.handler.handleStreamingInterrupt(true)
    expect(emptied.writes).to.deep.equal(['clear'])

    const cancelled = new MemorySlot('first')
    const c = makeHandler({selects: ['q', 'c'], editor: [{outcome: 'cancelled'}], streaming: {compose: true}, queue: cancelled})
    await c.handler.handleStreamingInterrupt(true)
    expect(cancelled.writes).to.deep.equal([])
  })

  it('compose_in_editor = "always" without an editor: a notice and the menu again', async () => {
    const slot = new MemorySlot()
    const {handler, notices} = makeHandler({selects: ['q', 'c'], editor: null, streaming: {compose: 'always'}, queue: slot})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(notices[0]).to.match(/Couldn't open your editor: .+\. Returning to the menu\.$/)
    expect(slot.writes).to.deep.equal([])
  })
})

describe('queued reply: typed while jp works', () => {
  it('the overlay prompt: no editor escape, erased when done, waited for by other prompts; what is queued comes first, on its own line', async () => {
    const slot = new MemorySlot('first')
    const {handler, backend} = makeHandler({replies: [submit('first\nand more')], queue: slot})
    expect(await handler.handleTypedQueue()).to.deep.equal({type: 'queued', text: 'first\nand more'})
    const [req] = replyRequests(backend)
    expect(req).to.deep.include({message: 'Queue:', initialText: 'first\n', editorEscape: false, eraseOnDone: true, background: true})
    expect(slot.text).to.equal('first\nand more')
  })

  it('Ctrl+C: unchanged, and says it was Ctrl+C (the ladder counts it)', async () => {
    const slot = new MemorySlot()
    const {handler} = makeHandler({replies: [ctrlCReply], queue: slot})
    expect(await handler.handleTypedQueue()).to.deep.equal({type: 'unchanged', reason: 'interrupted'})
  })

  it('without a slot there is nothing to type into', async () => {
    const {handler} = makeHandler({queue: null})
    expect(await handler.handleTypedQueue()).to.equal(undefined)
  })
})

const char = (text: string): Key => ({name: 'char', text, ctrl: false, meta: false, shift: false, sequence: text})
const named = (name: string, mods: Partial<Key> = {}): Key => ({name, ctrl: false, meta: false, shift: false, sequence: '', ...mods})

/** A key reader's listener side, fed by hand. */
function fakeKeys() {
  const listeners: KeyListener[] = []
  return {
    onKey(l: KeyListener) {
      listeners.push(l)
      return () => listeners.splice(listeners.indexOf(l), 1)
    },
    press(key: Key) {
      const open = listeners.at(-1)?.(key)
      open?.()
      return open !== undefined
    },
    get count() {
      return listeners.length
    },
  }
}

describe('TypeToQueue', () => {
  it('armed, a printable key opens the prompt once; other keys and a disarmed reader open nothing', async () => {
    const keys = fakeKeys()
    let opened = 0
    let finish!: () => void
    const typing = new TypeToQueue({
      keys,
      router: {handle: () => undefined},
      openPrompt: () => {
        opened++
        return new Promise((resolve) => (finish = () => resolve({type: 'queued', text: 'x'})))
      },
    })
    expect(keys.press(char('a'))).to.equal(false)
    const disarm = typing.arm()
    expect(keys.press(named('up'))).to.equal(false)
    expect(keys.press(named('c', {ctrl: true}))).to.equal(false)
    expect(keys.press(char('h'))).to.equal(true)
    expect(typing.isOpen).to.equal(true)
    // Open already: the next key is the prompt's business.
    expect(keys.press(char('i'))).to.equal(false)
    let idle = false
    void typing.idle().then(() => (idle = true))
    await Promise.resolve()
    expect(idle).to.equal(false)
    finish()
    await typing.idle()
    expect(typing.isOpen).to.equal(false)
    disarm()
    expect(keys.count).to.equal(0)
    expect(opened).to.equal(1)
  })

  it('canOpen() false (a menu on its way): the key opens nothing', () => {
    const keys = fakeKeys()
    const typing = new TypeToQueue({keys, router: {handle: () => undefined}, openPrompt: async () => undefined})
    typing.arm(() => false)
    expect(keys.press(char('h'))).to.equal(false)
  })

  it('a Ctrl+C that closed the prompt is counted by the ladder without notifying anyone', async () => {
    const keys = fakeKeys()
    const handled: unknown[] = []
    const typing = new TypeToQueue({keys, router: {handle: (...args) => handled.push(args)}, openPrompt: async () => ({type: 'unchanged', reason: 'interrupted'})})
    typing.arm()
    keys.press(char('h'))
    await typing.idle()
    expect(handled).to.deep.equal([['SIGINT', {notify: false}]])
  })
})

describe('queueCountdown', () => {
  const router = () => {
    const listeners: Array<() => void> = []
    const controller = new AbortController()
    return {
      push(l: () => void) {
        listeners.push(l)
        return () => listeners.splice(listeners.indexOf(l), 1)
      },
      shutdownSignal: controller.signal,
      press: () => listeners.at(-1)?.(),
      controller,
      get depth() {
        return listeners.length
      },
    }
  }

  it('the line counts down whole seconds, as SPEC §18 spells it', () => {
    expect(countdownText(3)).to.equal('⏱ Sending your queued reply in 3s (Enter: now, Ctrl+C: keep it as a draft and exit)')
    const lines: string[] = []
    let stopped = 0
    void queueCountdown({seconds: 3, status: (text) => (lines.push(text(0), text(999), text(1001), text(2500)), () => stopped++)}).then(() => {})
    expect(lines.map((l) => l.match(/in (\d)s/)![1])).to.deep.equal(['3', '3', '2', '1'])
  })

  it('runs out: send; Enter: send at once; Ctrl+C: keep; a shutdown: shutdown — each stopping the line and its listeners', async () => {
    let stops = 0
    const status = () => () => stops++
    expect(await queueCountdown({seconds: 0.05, status})).to.equal('send')
    expect(await queueCountdown({seconds: 0, status})).to.equal('send')

    const keys = fakeKeys()
    const enter = queueCountdown({seconds: 60, status, keys})
    keys.press(named('enter'))
    expect(await enter).to.equal('send')
    expect(keys.count).to.equal(0)

    const r = router()
    const keep = queueCountdown({seconds: 60, status, keys, router: r})
    r.press()
    expect(await keep).to.equal('keep')
    expect(r.depth).to.equal(0)

    const s = router()
    const shut = queueCountdown({seconds: 60, status, router: s})
    s.controller.abort()
    expect(await shut).to.equal('shutdown')
    expect(stops).to.equal(4)
  })
})
