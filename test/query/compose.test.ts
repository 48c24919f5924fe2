// composeQuery at the editor seam (MockEditorBackend: it saves or cancels
// without touching the file, so the document reads back as seeded).
import {expect} from 'chai'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {MockEditorBackend} from '../../src/lib/editor/mock.js'
import {activeConfigToml, adoptDraft, composeQuery} from '../../src/lib/query/draft.js'
import {buildQueryDocument} from '../../src/lib/query/document.js'

describe('composeQuery', () => {
  let dir: string
  let draft: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-compose-'))
    draft = join(dir, 'data', 'conversations', 'new', 'QUERY_MESSAGE.md')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const opts = (editor: MockEditorBackend, seed = '') => ({editor, draftPath: draft, cwd: dir, seed, config: defaultConfig(), modelId: 'echo/default'})

  it('seeds a missing draft with the given text, calls editFile once with the path and cwd, and returns the query', async () => {
    const editor = new MockEditorBackend([{outcome: 'saved', text: ''}])
    const r = await composeQuery(opts(editor, 'from the command line'))
    expect(r).to.deep.equal({type: 'query', text: 'from the command line'})
    expect(editor.fileCalls).to.deep.equal([{paths: [draft], cwd: dir}])
    expect(statSync(draft).mode & 0o777).to.equal(0o600)
    expect(statSync(join(draft, '..')).mode & 0o777).to.equal(0o700)
  })

  it('an empty document removes the draft', async () => {
    const r = await composeQuery(opts(new MockEditorBackend([{outcome: 'saved', text: ''}])))
    expect(r).to.deep.equal({type: 'empty'})
    expect(existsSync(draft)).to.equal(false)
  })

  it('an existing but empty draft is seeded like a missing one', async () => {
    await adoptDraft(join(dir, 'nothing'), draft) // creates the directory, nothing to move
    writeFileSync(draft, '')
    const r = await composeQuery(opts(new MockEditorBackend([{outcome: 'saved', text: ''}]), 'seeded'))
    expect(r).to.deep.equal({type: 'query', text: 'seeded'})
  })

  it('an existing draft wins, text given now is appended rather than lost, and its configuration block is kept as the user left it', async () => {
    await adoptDraft(join(dir, 'nothing'), draft)
    const block = activeConfigToml('echo/default', 'low')
    writeFileSync(draft, buildQueryDocument({query: 'kept draft', configToml: block}))
    const r = await composeQuery(opts(new MockEditorBackend([{outcome: 'saved', text: ''}]), 'new words'))
    expect(r).to.deep.equal({type: 'query', text: 'kept draft\n\nnew words', delta: {assistant: {model: {id: 'echo/default', parameters: {reasoning: 'low'}}}}})
    expect(readFileSync(draft, 'utf8')).to.include(block)
  })

  it('a draft whose block does not parse opens with its error and is never rebuilt: still broken re-opens, cancel restores it', async () => {
    await adoptDraft(join(dir, 'nothing'), draft)
    const broken = buildQueryDocument({query: 'kept draft', configToml: 'stale = 1'})
    writeFileSync(draft, broken)
    const editor = new MockEditorBackend([{outcome: 'saved', text: ''}, {outcome: 'cancelled'}])
    expect(await composeQuery(opts(editor))).to.deep.equal({type: 'cancelled'})
    expect(editor.fileCalls).to.have.length(2)
    expect(readFileSync(draft, 'utf8')).to.equal(broken)
  })

  it('cancelled: the draft is restored byte for byte (or removed when there was none)', async () => {
    await adoptDraft(join(dir, 'nothing'), draft)
    writeFileSync(draft, 'before\n')
    expect(await composeQuery(opts(new MockEditorBackend([{outcome: 'cancelled'}]), 'x'))).to.deep.equal({type: 'cancelled'})
    expect(readFileSync(draft, 'utf8')).to.equal('before\n')
    rmSync(draft)
    expect(await composeQuery(opts(new MockEditorBackend([{outcome: 'cancelled'}]), 'x'))).to.deep.equal({type: 'cancelled'})
    expect(existsSync(draft)).to.equal(false)
  })

  it('a spawn error restores the draft and propagates the EditorError', async () => {
    await adoptDraft(join(dir, 'nothing'), draft)
    writeFileSync(draft, 'before\n')
    let error: unknown
    try {
      await composeQuery(opts(new MockEditorBackend([{error: 'spawn'}])))
    } catch (e) {
      error = e
    }
    expect((error as Error).message).to.match(/^failed to spawn editor 'mock-editor'/)
    expect(readFileSync(draft, 'utf8')).to.equal('before\n')
  })

  it('shows the configured reasoning in the block', () => {
    expect(activeConfigToml('a/b', 'high')).to.equal('[assistant.model]\nid = "a/b"\nparameters.reasoning = "high"')
    expect(activeConfigToml('a/b', undefined)).to.match(/^# parameters\.reasoning/m)
  })

  it('adoptDraft moves a new conversation draft to the conversation', async () => {
    await adoptDraft(join(dir, 'nothing'), draft)
    writeFileSync(draft, 'mine\n')
    const to = join(dir, 'data', 'conversations', 'jp-c1', 'QUERY_MESSAGE.md')
    await adoptDraft(draft, to)
    expect(existsSync(draft)).to.equal(false)
    expect(readFileSync(to, 'utf8')).to.equal('mine\n')
  })
})
