import {expect} from 'chai'

import {MockEditorBackend, type MockEditResult} from '../../src/lib/editor/mock.js'
import {MockPromptBackend} from '../../src/lib/inquire/mock.js'
import {PromptCancelledError, type ReplyOutcome} from '../../src/lib/inquire/types.js'
import {
  PERMISSION_OPTIONS,
  SKIP_REASON_PLACEHOLDER,
  ToolPrompter,
} from '../../src/lib/tool/prompter.js'
import {cancelled, ctrlC, esc, openEditor, promptKinds, replyRequests, submit} from '../interrupt/fixtures.js'

interface Setup {
  selects?: Array<string | PromptCancelledError>
  replies?: ReplyOutcome[]
  editor?: MockEditResult[] | null
}

function makePrompter(setup: Setup = {}) {
  const backend = new MockPromptBackend()
    .withSelectResponses(setup.selects ?? [])
    .withReplyOutcomes(setup.replies ?? [])
  const editor = setup.editor === null ? undefined : new MockEditorBackend(setup.editor ?? [])
  const notices: string[] = []
  const printed: string[] = []
  const prompter = new ToolPrompter({
    backend,
    editor,
    editMode: 'vi',
    notice: (line) => notices.push(line),
    print: (text) => printed.push(text),
  })
  return {prompter, backend, editor, notices, printed}
}

function jsonError(text: string): string {
  try {
    JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }

  throw new Error(`${text} is valid JSON`)
}

const ARGS = {path: 'src/a.ts', lines: [1, 2]}
const PRETTY = '{\n  "path": "src/a.ts",\n  "lines": [\n    1,\n    2\n  ]\n}'

describe('ToolPrompter: editing arguments', () => {
  it('seeds the inline widget with pretty JSON and returns the modified arguments', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('{"path": "src/b.ts"}')]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {path: 'src/b.ts'}})
    const [request] = replyRequests(backend)
    expect(request.message).to.equal('Edit arguments')
    expect(request.initialText).to.equal(PRETTY)
    expect(request.editMode).to.equal('vi')
    expect(request.editorEscape).to.equal(true)
  })

  it('an emptied buffer is "emptied"', async () => {
    const {prompter} = makePrompter({replies: [submit('  \n ')]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'emptied'})
  })

  it('Ctrl+C is "cancelled"', async () => {
    const {prompter} = makePrompter({replies: [cancelled]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'cancelled'})
  })

  it('invalid JSON re-prompts with the user text and the parser message, then accepts', async () => {
    const {prompter, backend, editor} = makePrompter({replies: [submit('{"path": '), submit('{"path": "ok"}')], editor: []})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {path: 'ok'}})
    const requests = replyRequests(backend)
    expect(requests).to.have.length(2)
    expect(requests[1].initialText).to.equal('{"path": ')
    expect(requests[1].message).to.equal(`Invalid JSON: ${jsonError('{"path": ')}`)
    // No editor re-spawn: the fix happens inline.
    expect(editor!.textCalls).to.deep.equal([])
  })

  it('invalid JSON then Ctrl+C is "cancelled"', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('nope'), cancelled]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'cancelled'})
    expect(promptKinds(backend)).to.deep.equal(['reply', 'reply'])
  })

  it('JSON that is not an object is re-asked', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('[1, 2]'), submit('{}')]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {}})
    const requests = replyRequests(backend)
    expect(requests[1].message).to.equal('Invalid JSON: the arguments must be a JSON object')
    expect(requests[1].initialText).to.equal('[1, 2]')
  })

  it('Ctrl+X opens the editor on the buffer and re-seeds the widget with its text', async () => {
    const {prompter, backend, editor} = makePrompter({
      replies: [openEditor('{"path": "x"}'), submit('{"path": "from editor"}')],
      editor: [{outcome: 'saved', text: '{"path": "from editor"}'}],
    })
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {path: 'from editor'}})
    expect(editor!.textCalls).to.deep.equal(['{"path": "x"}'])
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal([PRETTY, '{"path": "from editor"}'])
  })

  it('invalid JSON from the editor goes through the same validation loop', async () => {
    const {prompter, backend} = makePrompter({
      replies: [openEditor(PRETTY), submit('{broken'), submit('{"a": 1}')],
      editor: [{outcome: 'saved', text: '{broken'}],
    })
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {a: 1}})
    const requests = replyRequests(backend)
    expect(requests[1].initialText).to.equal('{broken')
    expect(requests[2].initialText).to.equal('{broken')
    expect(requests[2].message).to.equal(`Invalid JSON: ${jsonError('{broken')}`)
  })

  it('an editor spawn failure prints a notice and keeps the buffer', async () => {
    const {prompter, backend, notices} = makePrompter({
      replies: [openEditor('{"edited": true'), submit('{"edited": true}')],
      editor: [{error: 'spawn'}],
    })
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {edited: true}})
    expect(replyRequests(backend)[1].initialText).to.equal('{"edited": true')
    expect(notices).to.have.length(1)
    expect(notices[0]).to.match(/^⚠ Couldn't open your editor: failed to spawn editor .*\. Keeping your text\.$/)
  })
})

describe('ToolPrompter: editing a result', () => {
  it('seeds the widget with the result; non-blank text replaces it', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('shorter result')]})
    expect(await prompter.editResult('original output')).to.equal('shorter result')
    const [request] = replyRequests(backend)
    expect(request.initialText).to.equal('original output')
    expect(request.message).to.equal('Edit result before delivery')
    expect(request.editorEscape).to.equal(true)
  })

  it('a blank submit delivers the original', async () => {
    const {prompter} = makePrompter({replies: [submit(' \n')]})
    expect(await prompter.editResult('original output')).to.equal('original output')
  })

  it('a cancel delivers the original', async () => {
    const {prompter} = makePrompter({replies: [cancelled]})
    expect(await prompter.editResult('original output')).to.equal('original output')
  })

  it('preserves a multi-line result exactly', async () => {
    const edited = 'line 1\n  line 2\n\nline 4\n'
    const {prompter, backend} = makePrompter({replies: [submit(edited)]})
    expect(await prompter.editResult('a\nb\nc')).to.equal(edited)
    expect(replyRequests(backend)[0].initialText).to.equal('a\nb\nc')
  })

  it('an editor failure keeps the buffer and says so on the notice channel', async () => {
    const {prompter, backend, notices} = makePrompter({
      replies: [openEditor('half-edited'), submit('half-edited, done')],
      editor: [{error: 'io', message: 'disk full'}],
    })
    expect(await prompter.editResult('original')).to.equal('half-edited, done')
    expect(replyRequests(backend)[1].initialText).to.equal('half-edited')
    expect(notices).to.have.length(1)
    expect(notices[0]).to.contain("Couldn't open your editor")
    expect(notices[0]).to.contain('disk full')
  })

  it('without an editor Ctrl+X re-prompts with the same buffer', async () => {
    const {prompter, backend, notices} = makePrompter({
      replies: [openEditor('same'), submit('same')],
      editor: null,
    })
    expect(await prompter.editResult('orig')).to.equal('same')
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal(['orig', 'same'])
    expect(notices).to.deep.equal([])
  })
})

describe('ToolPrompter: skip reasoning', () => {
  it('shows the placeholder as a placeholder (the buffer starts empty) and returns the typed reason', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('not in production')]})
    expect(await prompter.skipReason()).to.equal('not in production')
    const [request] = replyRequests(backend)
    expect(request.message).to.equal('Reason for skipping (optional)')
    expect(request.initialText).to.equal('')
    expect(request.placeholder).to.equal(SKIP_REASON_PLACEHOLDER)
  })

  it('an empty submit means no reason', async () => {
    const {prompter} = makePrompter({replies: [submit('')]})
    expect(await prompter.skipReason()).to.equal(undefined)
  })

  it('the unchanged placeholder means no reason', async () => {
    const {prompter} = makePrompter({replies: [submit(`${SKIP_REASON_PLACEHOLDER}\n`)]})
    expect(await prompter.skipReason()).to.equal(undefined)
  })

  it('a cancel means no reason', async () => {
    const {prompter} = makePrompter({replies: [cancelled]})
    expect(await prompter.skipReason()).to.equal(undefined)
  })
})

describe('ToolPrompter: permission', () => {
  it('asks "Run local tool NAME?" with y Y n N p r e, r and e present even without an editor', async () => {
    const {prompter, backend} = makePrompter({selects: ['y'], editor: null})
    await prompter.promptPermission('read_file', ARGS, 'ask')
    const call = backend.calls[0]
    if (call.kind !== 'select') throw new Error('expected a select')
    // The call's header (name and arguments) is the prompt's first line: shown on the terminal whatever stderr is.
    expect(call.config.message).to.equal('⚙ read_file {"path":"src/a.ts","lines":[1,2]}\nRun local tool read_file?')
    expect(call.config.options.map((o) => o.key)).to.deep.equal(['y', 'Y', 'n', 'N', 'p', 'r', 'e'])
    expect(call.config.options).to.deep.equal(PERMISSION_OPTIONS)
    expect(call.config.options.find((o) => o.key === 'Y')!.description).to.contain('remember for this turn')
  })

  it('unattended runs without a prompt', async () => {
    const {prompter, backend} = makePrompter()
    expect(await prompter.promptPermission('t', ARGS, 'unattended')).to.deep.equal({
      type: 'run',
      args: ARGS,
      remember: false,
    })
    expect(backend.calls).to.deep.equal([])
  })

  it('skip skips without a prompt', async () => {
    const {prompter, backend} = makePrompter()
    expect(await prompter.promptPermission('t', ARGS, 'skip')).to.deep.equal({type: 'skip', remember: false})
    expect(backend.calls).to.deep.equal([])
  })

  it('ask then y runs, Y runs and remembers', async () => {
    const {prompter} = makePrompter({selects: ['y', 'Y']})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'run', args: ARGS, remember: false})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'run', args: ARGS, remember: true})
  })

  it('ask then n skips, N skips and remembers', async () => {
    const {prompter} = makePrompter({selects: ['n', 'N']})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: false})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: true})
  })

  it('p prints the arguments as JSON and asks again', async () => {
    const {prompter, backend, printed} = makePrompter({selects: ['p', 'y']})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'run', args: ARGS, remember: false})
    expect(printed).to.deep.equal([PRETTY])
    expect(promptKinds(backend)).to.deep.equal(['select', 'select'])
  })

  it('r skips with the typed reason', async () => {
    const {prompter} = makePrompter({selects: ['r'], replies: [submit('wrong file')]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({
      type: 'skip',
      reason: 'wrong file',
      remember: false,
    })
  })

  it('r with an empty reason skips with no reason', async () => {
    const {prompter} = makePrompter({selects: ['r'], replies: [submit('')]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: false})
  })

  it('r cancelled skips with no reason', async () => {
    const {prompter} = makePrompter({selects: ['r'], replies: [cancelled]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: false})
  })

  it('ask then e runs with the modified arguments', async () => {
    const {prompter} = makePrompter({selects: ['e'], replies: [submit('{"path": "other.ts"}')]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({
      type: 'run',
      args: {path: 'other.ts'},
      remember: false,
    })
  })

  it('ask then e emptied loops back to the menu, then y runs with the original arguments', async () => {
    const {prompter, backend} = makePrompter({selects: ['e', 'y'], replies: [submit('')]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'run', args: ARGS, remember: false})
    expect(promptKinds(backend)).to.deep.equal(['select', 'reply', 'select'])
  })

  it('ask then e cancelled skips with reason "Edit cancelled"', async () => {
    const {prompter} = makePrompter({selects: ['e'], replies: [cancelled]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({
      type: 'skip',
      reason: 'Edit cancelled',
      remember: false,
    })
  })

  it('backing out of the menu (Ctrl+C or Esc) skips', async () => {
    const {prompter} = makePrompter({selects: [ctrlC(), esc()]})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: false})
    expect(await prompter.promptPermission('t', ARGS, 'ask')).to.deep.equal({type: 'skip', remember: false})
  })

  it('edit mode starts in the argument editor, without the menu', async () => {
    const {prompter, backend} = makePrompter({replies: [submit('{"x": 1}')]})
    expect(await prompter.promptPermission('t', ARGS, 'edit')).to.deep.equal({
      type: 'run',
      args: {x: 1},
      remember: false,
    })
    expect(promptKinds(backend)).to.deep.equal(['reply'])
    expect(replyRequests(backend)[0].initialText).to.equal(PRETTY)
  })

  it('edit mode emptied falls back to the menu with the original arguments', async () => {
    const {prompter, backend, printed} = makePrompter({selects: ['p', 'y'], replies: [submit('')]})
    expect(await prompter.promptPermission('t', ARGS, 'edit')).to.deep.equal({type: 'run', args: ARGS, remember: false})
    expect(printed).to.deep.equal([PRETTY])
    expect(promptKinds(backend)).to.deep.equal(['reply', 'select', 'select'])
  })

  it('edit mode cancelled skips with reason "Edit cancelled"', async () => {
    const {prompter} = makePrompter({replies: [cancelled]})
    expect(await prompter.promptPermission('t', ARGS, 'edit')).to.deep.equal({
      type: 'skip',
      reason: 'Edit cancelled',
      remember: false,
    })
  })
})

describe('ToolPrompter: result confirmation', () => {
  it('asks "Deliver NAME result to assistant?" with y (default) / n / e', async () => {
    const {prompter, backend} = makePrompter({selects: ['y']})
    expect(await prompter.confirmResult('grep')).to.equal('deliver')
    const call = backend.calls[0]
    if (call.kind !== 'select') throw new Error('expected a select')
    expect(call.config.message).to.equal('Deliver grep result to assistant?')
    expect(call.config.options.map((o) => o.key)).to.deep.equal(['y', 'n', 'e'])
    expect(call.config.default).to.equal('y')
  })

  it('n skips, e asks to edit, a cancel is not delivered', async () => {
    const {prompter} = makePrompter({selects: ['n', 'e', ctrlC(), esc()]})
    expect(await prompter.confirmResult('t')).to.equal('skip')
    expect(await prompter.confirmResult('t')).to.equal('edit')
    expect(await prompter.confirmResult('t')).to.equal('skip')
    expect(await prompter.confirmResult('t')).to.equal('skip')
  })

  it('reviewResult: ask + y delivers the original, ask + n does not deliver', async () => {
    const {prompter} = makePrompter({selects: ['y', 'n']})
    expect(await prompter.reviewResult('t', 'out', 'ask')).to.deep.equal({deliver: true, content: 'out'})
    expect(await prompter.reviewResult('t', 'out', 'ask')).to.deep.equal({deliver: false})
  })

  it('reviewResult: ask + e delivers the edited result', async () => {
    const {prompter, backend} = makePrompter({selects: ['e'], replies: [submit('trimmed')]})
    expect(await prompter.reviewResult('t', 'long output', 'ask')).to.deep.equal({deliver: true, content: 'trimmed'})
    expect(replyRequests(backend)[0].initialText).to.equal('long output')
  })

  it('reviewResult: edit mode starts at the editor step', async () => {
    const {prompter, backend} = makePrompter({replies: [cancelled]})
    expect(await prompter.reviewResult('t', 'out', 'edit')).to.deep.equal({deliver: true, content: 'out'})
    expect(promptKinds(backend)).to.deep.equal(['reply'])
  })

  it('reviewResult: unattended delivers and skip does not, without prompts', async () => {
    const {prompter, backend} = makePrompter()
    expect(await prompter.reviewResult('t', 'out', 'unattended')).to.deep.equal({deliver: true, content: 'out'})
    expect(await prompter.reviewResult('t', 'out', 'skip')).to.deep.equal({deliver: false})
    expect(backend.calls).to.deep.equal([])
  })
})

describe('ToolPrompter: Ctrl+C inside the prompts\' scope (issue 23, finding 1)', () => {
  function scoped(setup: Setup & {menu: Array<'back' | 'stop'>}) {
    const made = makePrompter(setup)
    const menus: string[] = []
    const listeners: Array<() => void> = []
    const prompter = new ToolPrompter({
      backend: made.backend,
      editor: undefined,
      editMode: 'emacs',
      notice: () => {},
      print: () => {},
      scope: {
        menu: async () => {
          menus.push('menu')
          return {type: setup.menu.shift()!}
        },
        push: (l) => {
          listeners.push(l)
          return () => listeners.splice(listeners.indexOf(l), 1)
        },
      },
    })
    return {...made, prompter, menus, listeners}
  }

  it('argument editor: Ctrl+C opens the menu; b brings the widget back with the text as it was', async () => {
    const typed = '{"path": "half'
    const {prompter, backend, menus} = scoped({menu: ['back'], replies: [{type: 'cancelled', reason: 'interrupted', text: typed}, submit('{"path": "x"}')]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'edited', args: {path: 'x'}})
    expect(menus).to.deep.equal(['menu'])
    expect(replyRequests(backend).map((r) => r.initialText)).to.deep.equal([PRETTY, typed])
  })

  it('Ctrl+D (not Ctrl+C) in the argument editor is still "cancelled", no menu', async () => {
    const {prompter, menus} = scoped({menu: [], replies: [{type: 'cancelled', reason: 'cancelled', text: ''}]})
    expect(await prompter.editArguments(ARGS)).to.deep.equal({type: 'cancelled'})
    expect(menus).to.deep.equal([])
  })

  it('the skip reason: Ctrl+C there backs out (no reason), it does not open the menu', async () => {
    const {prompter, menus} = scoped({menu: [], replies: [{type: 'cancelled', reason: 'interrupted', text: 'half'}]})
    expect(await prompter.skipReason()).to.equal(undefined)
    expect(menus).to.deep.equal([])
  })

  it('a prompt ended from outside (the shutdown) is no press: the permission prompt skips, no menu', async () => {
    const {prompter, menus} = scoped({menu: [], selects: [new PromptCancelledError('terminated')]})
    expect(await prompter.ask('t', ARGS)).to.deep.equal({type: 'skip', remember: false})
    expect(menus).to.deep.equal([])
  })

  it('s at the result prompt\'s menu is the exit; the scope listener is popped', async () => {
    const {prompter, listeners} = scoped({menu: ['stop'], selects: [ctrlC()]})
    expect(await prompter.reviewResult('t', 'out', 'ask')).to.deep.equal({deliver: false, exit: {type: 'stop'}})
    expect(listeners).to.deep.equal([])
  })
})
