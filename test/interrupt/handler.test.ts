import {expect} from 'chai'

import {editorEscape, startsInEditor} from '../../src/lib/compose/editor-modes.js'
import {customToolResponse, STREAMING_MENU, TOOL_MENU} from '../../src/lib/interrupt/handler.js'
import {
  cancelled,
  ctrlC,
  ctrlCReply,
  ctrlDReply,
  esc,
  makeHandler,
  openEditor,
  promptKinds,
  replyRequests,
  selectMessages,
  submit,
} from './fixtures.js'

const CANNED = 'canned cancellation response'

describe('compose_in_editor helpers', () => {
  it('starts in the editor only for true and "always"', () => {
    expect([false, true, 'always', 'never'].map((c) => startsInEditor(c as never))).to.deep.equal([
      false,
      true,
      true,
      false,
    ])
  })

  it('unwires the Ctrl+X escape only for "never"', () => {
    expect([false, true, 'always', 'never'].map((c) => editorEscape(c as never))).to.deep.equal([
      true,
      true,
      true,
      false,
    ])
  })
})

describe('InterruptHandler: streaming menu', () => {
  it('shows the Interrupted menu with c / r / q / s / a and their descriptions', async () => {
    const {handler, backend} = makeHandler({selects: ['s']})
    await handler.handleStreamingInterrupt(true)
    const call = backend.calls[0]
    expect(call.kind).to.equal('select')
    if (call.kind !== 'select') return
    expect(call.config.message).to.equal('Interrupted')
    expect(call.config.options.map((o) => o.key)).to.deep.equal(['c', 'r', 'q', 's', 'a'])
    expect(call.config.options.map((o) => o.description)).to.deep.equal([
      'Continue',
      'Reply (stop & respond)',
      'queue a reply (finish, then send it)',
      'Stop (save & exit)',
      'Abort (discard & exit)',
    ])
    expect(call.config.options).to.deep.equal(STREAMING_MENU)
  })

  it('without a queued-reply slot there is no q', async () => {
    const {handler, backend} = makeHandler({selects: ['s'], queue: null})
    await handler.handleStreamingInterrupt(true)
    const call = backend.calls[0]
    if (call.kind !== 'select') throw new Error('expected a select')
    expect(call.config.options.map((o) => o.key)).to.deep.equal(['c', 'r', 's', 'a'])
  })

  it('s stops', async () => {
    const {handler} = makeHandler({selects: ['s']})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
  })

  it('a aborts', async () => {
    const {handler} = makeHandler({selects: ['a']})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'abort'})
  })

  it('c resumes a live stream', async () => {
    const {handler} = makeHandler({selects: ['c']})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
  })

  it('c continues with a new request when the stream has ended', async () => {
    const {handler} = makeHandler({selects: ['c']})
    expect(await handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
  })

  it('Esc at the menu is c', async () => {
    const alive = makeHandler({selects: [esc()]})
    expect(await alive.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    const dead = makeHandler({selects: [esc()]})
    expect(await dead.handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
  })

  it('Ctrl+C at the menu escalates', async () => {
    const {handler, notices} = makeHandler({selects: [ctrlC()]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'escalate'})
    expect(notices).to.deep.equal([])
  })

  it('a menu that cannot be shown escalates with a notice', async () => {
    const {handler, backend, notices} = makeHandler()
    backend.inlineSelect = async () => {
      throw new Error('no tty')
    }

    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'escalate'})
    expect(notices).to.have.length(1)
    expect(notices[0]).to.contain('no tty')
  })

  it('r submits an inline reply, not marked as from the editor', async () => {
    const {handler, backend} = makeHandler({selects: ['r'], replies: [submit('please stop and explain')]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'please stop and explain',
      fromEditor: false,
    })
    const [request] = replyRequests(backend)
    expect(request.message).to.equal('Reply:')
    expect(request.initialText).to.equal('')
    expect(request.editMode).to.equal('emacs')
    expect(request.editorEscape).to.equal(true)
  })

  it('r cancelled (Ctrl+C in the widget) returns to the menu', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 's'], replies: [cancelled]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'select'])
  })

  it('r then a second Ctrl+C at the menu escalates', async () => {
    const {handler} = makeHandler({selects: ['r', ctrlC()], replies: [cancelled]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'escalate'})
  })

  it('r with an empty submit returns to the menu, then a reply submits', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 'r'], replies: [submit(''), submit('second try')]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'second try',
      fromEditor: false,
    })
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'select', 'reply'])
  })

  it('r with a whitespace-only submit counts as empty', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 'a'], replies: [submit('  \n\t ')]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'abort'})
    expect(selectMessages(backend)).to.have.length(2)
  })

  it('keeps surrounding whitespace of a non-blank reply', async () => {
    const {handler} = makeHandler({selects: ['r'], replies: [submit('  two\nlines \n')]})
    const action = await handler.handleStreamingInterrupt(true)
    expect(action).to.deep.equal({type: 'reply', text: '  two\nlines \n', fromEditor: false})
  })

  it('passes the reply history to the inline widget', async () => {
    const {handler, backend} = makeHandler({selects: ['r'], replies: [submit('x')], history: ['older', 'newer']})
    await handler.handleStreamingInterrupt(true)
    expect(replyRequests(backend)[0].history).to.deep.equal(['older', 'newer'])
  })
})

describe('InterruptHandler: the Ctrl+X escape from the inline reply (compose_in_editor = false)', () => {
  it('re-seeds the widget with the saved editor text, then submits', async () => {
    const {handler, backend, editor} = makeHandler({
      selects: ['r'],
      replies: [openEditor('draft'), submit('draft, polished')],
      editor: [{outcome: 'saved', text: 'draft, polished'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'draft, polished',
      fromEditor: false,
    })
    expect(editor!.textCalls).to.deep.equal(['draft'])
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal(['', 'draft, polished'])
  })

  it('an emptied editor re-prompts with an empty buffer; an empty submit then returns to the menu', async () => {
    const {handler, backend} = makeHandler({
      selects: ['r', 's'],
      replies: [openEditor('draft'), submit('')],
      editor: [{outcome: 'saved', text: ''}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal(['', ''])
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'reply', 'select'])
  })

  it('a cancelled editor keeps the buffer', async () => {
    const {handler, backend} = makeHandler({
      selects: ['r'],
      replies: [openEditor('keep me'), submit('keep me')],
      editor: [{outcome: 'cancelled'}],
    })
    await handler.handleStreamingInterrupt(true)
    expect(replyRequests(backend)[1].initialText).to.equal('keep me')
  })

  it('a spawn failure prints a notice and keeps the buffer', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r'],
      replies: [openEditor('my long reply'), submit('my long reply')],
      editor: [{error: 'spawn', message: 'No such file or directory'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'my long reply',
      fromEditor: false,
    })
    expect(replyRequests(backend)[1].initialText).to.equal('my long reply')
    expect(notices).to.deep.equal([
      "⚠ Couldn't open your editor: failed to spawn editor 'mock-editor': No such file or directory. Keeping your text.",
    ])
  })

  it('with no editor configured Ctrl+X does nothing: same buffer, no notice', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r'],
      replies: [openEditor('typed so far'), submit('typed so far!')],
      editor: null,
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'typed so far!',
      fromEditor: false,
    })
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal(['', 'typed so far'])
    expect(notices).to.deep.equal([])
  })
})

describe('InterruptHandler: compose modes', () => {
  it('true opens the editor directly, seeded empty; a saved reply is marked from-editor', async () => {
    const {handler, backend, editor} = makeHandler({
      selects: ['r'],
      streaming: {compose: true},
      editor: [{outcome: 'saved', text: 'written in vim'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'written in vim',
      fromEditor: true,
    })
    expect(editor!.textCalls).to.deep.equal([''])
    expect(replyRequests(backend)).to.deep.equal([])
  })

  it('true with an empty editor returns to the menu', async () => {
    const {handler, backend} = makeHandler({
      selects: ['r', 's'],
      streaming: {compose: true},
      editor: [{outcome: 'saved', text: '   \n'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })

  it('true with a cancelled editor returns to the menu', async () => {
    const {handler, backend} = makeHandler({
      selects: ['r', 'c'],
      streaming: {compose: true},
      editor: [{outcome: 'cancelled'}],
    })
    expect(await handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })

  it('true without an editor continues in the inline widget, with a notice', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r'],
      replies: [submit('inline instead')],
      streaming: {compose: true},
      editor: null,
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'inline instead',
      fromEditor: false,
    })
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^⚠ Couldn't open your editor: .+\. Continuing with the inline editor\.$/)
    const [request] = replyRequests(backend)
    expect(request.message).to.equal('Reply:')
    // No editor: the widget neither binds nor offers Ctrl+X (issue 24: it used
    // to offer "Ctrl+X to edit in $EDITOR" right after this notice).
    expect(request.editorEscape).to.equal(false)
  })

  it('true with a spawn failure continues in the inline widget, naming the error', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r'],
      replies: [submit('fallback reply')],
      streaming: {compose: true},
      editor: [{error: 'spawn', message: 'Permission denied'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'fallback reply',
      fromEditor: false,
    })
    expect(notices).to.deep.equal([
      "⚠ Couldn't open your editor: failed to spawn editor 'mock-editor': Permission denied. Continuing with the inline editor.",
    ])
    expect(replyRequests(backend)).to.have.length(1)
  })

  it('"always" with a spawn failure returns to the menu, with a notice', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r', 's'],
      streaming: {compose: 'always'},
      editor: [{error: 'spawn', message: 'No such file or directory'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
    expect(notices).to.deep.equal([
      "⚠ Couldn't open your editor: failed to spawn editor 'mock-editor': No such file or directory. Returning to the menu.",
    ])
  })

  it('"always" without an editor returns to the menu, with a notice', async () => {
    const {handler, backend, notices} = makeHandler({
      selects: ['r', 'a'],
      streaming: {compose: 'always'},
      editor: null,
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'abort'})
    expect(replyRequests(backend)).to.deep.equal([])
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^⚠ Couldn't open your editor: .+\. Returning to the menu\.$/)
  })

  it('"always" with a saved reply sends it, marked from-editor', async () => {
    const {handler} = makeHandler({
      selects: ['r'],
      streaming: {compose: 'always'},
      editor: [{outcome: 'saved', text: 'from the editor'}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'from the editor',
      fromEditor: true,
    })
  })

  it('"never" uses the inline widget with the Ctrl+X escape unbound', async () => {
    const {handler, backend, editor} = makeHandler({
      selects: ['r'],
      replies: [submit('inline only')],
      streaming: {compose: 'never'},
      editor: [],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'inline only',
      fromEditor: false,
    })
    expect(replyRequests(backend)[0].editorEscape).to.equal(false)
    expect(editor!.textCalls).to.deep.equal([])
  })

  it('"never" ignores an editor escape the widget should not have sent', async () => {
    const {handler, backend, editor} = makeHandler({
      selects: ['r'],
      replies: [openEditor('buffer'), submit('buffer')],
      streaming: {compose: 'never'},
      editor: [{outcome: 'saved', text: 'must not be used'}],
    })
    await handler.handleStreamingInterrupt(true)
    expect(editor!.textCalls).to.deep.equal([])
    expect(replyRequests(backend).map((r) => [r.initialText, r.editorEscape])).to.deep.equal([
      ['', false],
      ['buffer', false],
    ])
  })
})

describe('InterruptHandler: configured streaming actions', () => {
  it('stop and abort skip the menu', async () => {
    const stop = makeHandler({streaming: {action: 'stop'}})
    expect(await stop.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'stop'})
    expect(stop.backend.calls).to.deep.equal([])
    const abort = makeHandler({streaming: {action: 'abort'}})
    expect(await abort.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'abort'})
    expect(abort.backend.calls).to.deep.equal([])
  })

  it('continue tracks the stream liveness without a menu', async () => {
    const {handler, backend} = makeHandler({streaming: {action: 'continue'}})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(await handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
    expect(backend.calls).to.deep.equal([])
  })

  it('reply goes straight to the inline prompt', async () => {
    const {handler, backend} = makeHandler({streaming: {action: 'reply'}, replies: [submit('direct')]})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({
      type: 'reply',
      text: 'direct',
      fromEditor: false,
    })
    expect(promptKinds(backend)).to.deep.equal(['reply'])
  })

  it('reply cancelled resumes a live stream, or continues a dead one', async () => {
    const alive = makeHandler({streaming: {action: 'reply'}, replies: [cancelled]})
    expect(await alive.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    const dead = makeHandler({streaming: {action: 'reply'}, replies: [cancelled]})
    expect(await dead.handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
    expect(selectMessages(dead.backend)).to.deep.equal([])
  })

  it('reply submitted empty resumes (or continues)', async () => {
    const alive = makeHandler({streaming: {action: 'reply'}, replies: [submit(' ')]})
    expect(await alive.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    const dead = makeHandler({streaming: {action: 'reply'}, replies: [submit('')]})
    expect(await dead.handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
  })

  it('reply with an editor-first compose and an empty editor resumes', async () => {
    const {handler, backend} = makeHandler({
      streaming: {action: 'reply', compose: true},
      editor: [{outcome: 'saved', text: ''}],
    })
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    expect(backend.calls).to.deep.equal([])
  })
})

describe('InterruptHandler: tool menu', () => {
  it('shows the Interrupted menu with c / r / q / s / t', async () => {
    const {handler, backend} = makeHandler({selects: ['c']})
    await handler.handleToolInterrupt(CANNED)
    const call = backend.calls[0]
    if (call.kind !== 'select') throw new Error('expected a select')
    expect(call.config.message).to.equal('Interrupted')
    expect(call.config.options.map((o) => o.key)).to.deep.equal(['c', 'r', 'q', 's', 't'])
    expect(call.config.options.map((o) => o.description)).to.deep.equal([
      'Continue',
      'Stop & respond',
      'queue a reply (finish, then send it)',
      'Stop (cancel & exit)',
      'Restart',
    ])
    expect(call.config.options).to.deep.equal(TOOL_MENU)
  })

  it('c continues, t restarts, s stops', async () => {
    const {handler} = makeHandler({selects: ['c', 't', 's']})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'continue'})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'restart'})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'stop'})
  })

  it('Ctrl+C at the menu escalates; Esc continues', async () => {
    const {handler} = makeHandler({selects: [ctrlC(), esc()]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'escalate'})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'continue'})
  })

  it('r with text responds with the custom message', async () => {
    const {handler, backend} = makeHandler({selects: ['r'], replies: [submit('use the other file')]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({
      type: 'respond',
      content: 'Tool run cancelled by user with a custom message:\n\nuse the other file',
    })
    expect(customToolResponse('x')).to.equal('Tool run cancelled by user with a custom message:\n\nx')
    expect(replyRequests(backend)[0].message).to.equal('Reply:')
  })

  it('r with an empty reply sends the cancellation response, no custom message', async () => {
    const {handler} = makeHandler({selects: ['r'], replies: [submit('')]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'respond', content: CANNED})
  })

  it('r with a whitespace-only reply sends the cancellation response', async () => {
    const {handler} = makeHandler({selects: ['r'], replies: [submit(' \n  \t')]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'respond', content: CANNED})
  })

  it('r cancelled returns to the menu', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 'c'], replies: [cancelled]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'continue'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'select'])
  })

  it('r follows interrupt.tool_call.compose_in_editor, not the streaming one', async () => {
    const {handler, backend, editor} = makeHandler({
      selects: ['r'],
      streaming: {compose: 'never'},
      tool: {compose: true},
      editor: [{outcome: 'saved', text: 'edited response'}],
    })
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({
      type: 'respond',
      content: customToolResponse('edited response'),
    })
    expect(editor!.textCalls).to.deep.equal([''])
    expect(replyRequests(backend)).to.deep.equal([])
  })

  it('r with an editor-first compose and an empty editor returns to the menu', async () => {
    const {handler, backend} = makeHandler({
      selects: ['r', 't'],
      tool: {compose: 'always'},
      editor: [{outcome: 'saved', text: ''}],
    })
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'restart'})
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })
})

describe('InterruptHandler: configured tool actions', () => {
  it('continue, restart and stop skip the menu', async () => {
    for (const action of ['continue', 'restart', 'stop'] as const) {
      const {handler, backend} = makeHandler({tool: {action}})
      expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: action})
      expect(backend.calls).to.deep.equal([])
    }
  })

  it('respond uses the inline prompt and sends the custom message', async () => {
    const {handler, backend} = makeHandler({tool: {action: 'respond'}, replies: [submit('stop that')]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({
      type: 'respond',
      content: customToolResponse('stop that'),
    })
    expect(promptKinds(backend)).to.deep.equal(['reply'])
  })

  it('respond cancelled sends the cancellation response (no custom message)', async () => {
    const {handler, backend} = makeHandler({tool: {action: 'respond'}, replies: [cancelled]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'respond', content: CANNED})
    expect(promptKinds(backend)).to.deep.equal(['reply'])
  })

  it('respond submitted empty sends the cancellation response', async () => {
    const {handler} = makeHandler({tool: {action: 'respond'}, replies: [submit('   ')]})
    expect(await handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'respond', content: CANNED})
  })
})

describe('InterruptHandler: the tool prompt menu [b,r,s,?] (issue 23, finding 1)', () => {
  it('shows b / r / s; b goes back (Esc too), s stops; either answer resets the ladder', async () => {
    const {handler, backend, ladder} = makeHandler({selects: ['b', esc(), 's']})
    expect(await handler.handleToolPromptInterrupt()).to.deep.equal({type: 'back'})
    const first = backend.calls[0]
    if (first.kind !== 'select') throw new Error('expected a menu')
    expect(first.config.message).to.equal('Interrupted')
    expect(first.config.options.map((o) => o.key)).to.deep.equal(['b', 'r', 's'])
    expect(await handler.handleToolPromptInterrupt()).to.deep.equal({type: 'back'})
    expect(await handler.handleToolPromptInterrupt()).to.deep.equal({type: 'stop'})
    expect(ladder.answered).to.equal(3)
  })

  it('r with text is a reply; an empty or cancelled reply returns to the menu', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 'r', 'r'], replies: [submit(''), ctrlCReply, submit('try ls')]})
    expect(await handler.handleToolPromptInterrupt()).to.deep.equal({type: 'reply', text: 'try ls', fromEditor: false})
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'select', 'reply', 'select', 'reply'])
    expect(replyRequests(backend)[0].message).to.equal('Reply:')
  })

  it('Ctrl+C at the menu escalates at the key press (the second rung)', async () => {
    const {handler, ladder} = makeHandler({selects: [ctrlC()]})
    expect(await handler.handleToolPromptInterrupt()).to.deep.equal({type: 'escalate'})
    expect(ladder.escalations).to.equal(1)
  })
})

describe('InterruptHandler: the turn menu [c,r,q,s,?] (issue 23, finding 8)', () => {
  it('offers c / r / q / s; r with text replies, a cancelled reply returns to the menu', async () => {
    const {handler, backend} = makeHandler({selects: ['r', 'r'], replies: [cancelled, submit('and the tests too')]})
    expect(await handler.handleTurnInterrupt()).to.deep.equal({type: 'reply', text: 'and the tests too', fromEditor: false})
    const first = backend.calls[0]
    if (first.kind !== 'select') throw new Error('expected a menu')
    expect(first.config.options.map((o) => o.key)).to.deep.equal(['c', 'r', 'q', 's'])
  })

  it('c continues, s stops, Ctrl+C escalates', async () => {
    const {handler} = makeHandler({selects: ['c', 's', ctrlC()]})
    expect(await handler.handleTurnInterrupt()).to.deep.equal({type: 'continue'})
    expect(await handler.handleTurnInterrupt()).to.deep.equal({type: 'stop'})
    expect(await handler.handleTurnInterrupt()).to.deep.equal({type: 'escalate'})
  })
})

describe('InterruptHandler: Ctrl+C at a configured reply prompt is a press of the ladder (issue 23, finding 5)', () => {
  it('streaming action = "reply": a Ctrl+C the ladder counts as the second press escalates', async () => {
    let presses = 0
    const {handler} = makeHandler({streaming: {action: 'reply'}, replies: [ctrlCReply], pressAgain: () => (presses++, true)})
    expect(await handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'escalate'})
    expect(presses).to.equal(1)
  })

  it('streaming action = "reply": a later Ctrl+C (not a second press) resumes; Ctrl+D never asks the ladder', async () => {
    let presses = 0
    const late = makeHandler({streaming: {action: 'reply'}, replies: [ctrlCReply], pressAgain: () => (presses++, false)})
    expect(await late.handler.handleStreamingInterrupt(true)).to.deep.equal({type: 'resume'})
    const eof = makeHandler({streaming: {action: 'reply'}, replies: [ctrlDReply], pressAgain: () => (presses++, true)})
    expect(await eof.handler.handleStreamingInterrupt(false)).to.deep.equal({type: 'continue'})
    expect(presses).to.equal(1)
  })

  it('tool action = "respond": a second press escalates, otherwise the cancellation response', async () => {
    const second = makeHandler({tool: {action: 'respond'}, replies: [ctrlCReply], pressAgain: () => true})
    expect(await second.handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'escalate'})
    const first = makeHandler({tool: {action: 'respond'}, replies: [ctrlCReply], pressAgain: () => false})
    expect(await first.handler.handleToolInterrupt(CANNED)).to.deep.equal({type: 'respond', content: CANNED})
  })
})

describe('InterruptHandler: the fallback menu (a config load, a lock wait)', () => {
  it('is [c,s]: s stops (nothing was sent), and q means nothing there (one meaning per key)', async () => {
    const {handler, backend} = makeHandler({selects: ['s']})
    expect(await handler.handleFallbackInterrupt()).to.deep.equal({type: 'stop'})
    const call = backend.calls[0]
    if (call.kind !== 'select') throw new Error('expected the menu')
    expect(call.config.options.map((o) => [o.key, o.description])).to.deep.equal([
      ['c', 'Continue'],
      ['s', 'Stop (nothing was sent, exit)'],
    ])
  })
})
