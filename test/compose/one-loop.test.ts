// One compose implementation (issue 21, finding 5): the query's surfaces
// (query/surface.ts) run on compose/compose.ts's loop like the interrupt
// reply, with the query document as their editor side — so the query gets
// what every reply surface has (a rejected prompt is a cancel, the typed text
// on disk before the editor opens) and nobody else keeps a prompt loop.
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative, sep} from 'node:path'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {INLINE_QUERY_FILE} from '../../src/lib/compose/typed-draft.js'
import {MockEditorBackend} from '../../src/lib/editor/mock.js'
import {MockPromptBackend} from '../../src/lib/inquire/mock.js'
import {PromptCancelledError, type PromptBackend} from '../../src/lib/inquire/types.js'
import {composeOnTerminal, type SurfaceOptions} from '../../src/lib/query/surface.js'
import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

describe('compose: one loop for every surface', () => {
  let dir: string
  let draftPath: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-one-loop-'))
    draftPath = join(dir, 'conversations', 'new', 'QUERY_MESSAGE.md')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const options = (backend: PromptBackend, editor: MockEditorBackend | undefined, notices: string[] = []): SurfaceOptions => ({
    backend,
    editor,
    noEditorReason: 'no editor configured',
    editMode: 'emacs',
    mode: false,
    preferEditor: false,
    draftPath,
    cwd: dir,
    seed: '',
    config: defaultConfig({}),
    modelId: 'echo/default',
    notice: async (line) => {
      notices.push(line)
    },
  })

  it('Ctrl+X hands the buffer to the query document, and a saved document ends the composition', async () => {
    const backend = new MockPromptBackend().withReplyOutcomes([{type: 'open-editor', currentText: 'half typed'}])
    const editor = new MockEditorBackend([{outcome: 'saved', text: ''}])
    const r = await composeOnTerminal(options(backend, editor))
    expect(r).to.deep.equal({type: 'query', text: 'half typed'})
    expect(editor.fileCalls).to.deep.equal([{paths: [draftPath], cwd: dir}])
    expect(backend.calls, 'no second prompt after the document was sent').to.have.length(1)
  })

  it('a failed editor after Ctrl+X keeps the buffer and says so, and the prompt comes back with it', async () => {
    const notices: string[] = []
    const backend = new MockPromptBackend().withReplyOutcomes([
      {type: 'open-editor', currentText: 'keep me'},
      {type: 'submit', text: 'keep me'},
    ])
    const editor = new MockEditorBackend([{error: 'spawn', message: 'ENOENT'}])
    const r = await composeOnTerminal(options(backend, editor, notices))
    expect(r).to.deep.equal({type: 'query', text: 'keep me'})
    expect(notices).to.deep.equal(["⚠ Couldn't open your editor: failed to spawn editor 'mock-editor': ENOENT. Keeping your text."])
    const second = backend.calls[1]
    expect(second.kind === 'reply' && second.request.initialText).to.equal('keep me')
  })

  it('a rejected inline prompt is a cancel, as at every reply surface, with what was typed kept on disk', async () => {
    const rejecting: PromptBackend = {
      inlineSelect: async () => 'y',
      confirm: async () => true,
      text: async () => '',
      async inlineReply(request) {
        request.onChange?.('typed before the prompt went away')
        throw new PromptCancelledError('interrupted')
      },
    }
    const r = await composeOnTerminal(options(rejecting, undefined))
    expect(r).to.deep.equal({type: 'cancelled', inline: true})
    expect(readFileSync(join(dir, 'conversations', 'new', INLINE_QUERY_FILE), 'utf8')).to.equal('typed before the prompt went away')
  })

  it('no module outside compose/ runs an inline prompt loop or asks the editor for text itself', () => {
    const lib = join(ROOT, 'src', 'lib')
    const callers = (pattern: RegExp) =>
      filesUnder(lib)
        .filter((f) => pattern.test(readFileSync(f, 'utf8')))
        .map((f) => relative(lib, f).split(sep).join('/'))
        .filter((f) => !f.startsWith('inquire/') && !f.startsWith('editor/'))
        .sort()
    expect(callers(/\.inlineReply\(/)).to.deep.equal(['compose/inline.ts'])
    expect(callers(/\.editText\(/)).to.deep.equal(['compose/compose.ts', 'compose/inline.ts'])
  })
})
