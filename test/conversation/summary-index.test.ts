// The summary index the resume picker lists from (conversation/summary-index.ts):
// it must list what `list` lists — conversations made, removed or retitled
// by another store (another jp) after the index was written, a lost or
// corrupt index — while reading metadata.json only where something changed;
// and its change log is never appended through a link.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {initWorkspace} from '../../src/lib/conversation/workspace.js'
import {writeConversation} from '../helpers/conversations.js'

const titles = (list: Array<{title?: string}>) => list.map((s) => s.title)

describe('conversation summary index (the picker listing)', () => {
  let dir: string
  let store: () => Promise<ConversationStore>
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-index-'))
    await initWorkspace(dir)
    // A fresh store each time: what one jp process sees of another's writes.
    store = async () => {
      const {findWorkspace} = await import('../../src/lib/conversation/workspace.js')
      return new ConversationStore(await findWorkspace({cwd: dir, env: {...process.env, JP_USER_DATA_DIR: join(dir, 'data')}}), {env: {JP_USER_DATA_DIR: join(dir, 'data')}})
    }
    writeConversation(dir, 'jp-c1', {title: 'one', created_at: '2024-01-01T00:00:00Z'})
    writeConversation(dir, 'jp-c2', {title: 'two', created_at: '2024-01-02T00:00:00Z'})
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('lists as `list` does, and writes the index', async () => {
    const s = await store()
    expect(await s.listIndexed()).to.deep.equal(await s.list())
    expect(existsSync(join(dir, '.jp', 'conversation-index.json'))).to.equal(true)
  })

  it('answers from the index: a metadata.json changed behind jp is not read again', async () => {
    await (await store()).listIndexed()
    writeFileSync(join(dir, '.jp', 'conversations', 'jp-c1', 'metadata.json'), JSON.stringify({title: 'changed by hand', created_at: '2024-01-01T00:00:00Z'}))
    expect(titles(await (await store()).listIndexed())).to.deep.equal(['two', 'one'])
  })

  it('verified (grep): a metadata.json changed by hand is read again', async () => {
    await (await store()).listIndexed()
    writeFileSync(join(dir, '.jp', 'conversations', 'jp-c1', 'metadata.json'), JSON.stringify({title: 'changed by hand', created_at: '2024-01-01T00:00:00Z'}))
    writeFileSync(join(dir, '.jp', 'conversations', 'jp-c2', 'metadata.json'), '{corrupt')
    const list = await (await store()).listIndexed({verify: true})
    expect(list.map((s) => s.title ?? s.error)).to.deep.equal(['changed by hand', list[1].error])
    expect(list[1].error).to.include('jp-c2')
  })

  it("sees another store's metadata writes, new conversations and removals", async () => {
    await (await store()).listIndexed()
    const other = await store()
    const conv = await other.load('jp-c1')
    await other.saveMetadata('jp-c1', {...conv.metadata, title: 'renamed', last_activated_at: '2024-02-01T00:00:00Z'})
    writeConversation(dir, 'jp-c3', {title: 'three', created_at: '2024-01-03T00:00:00Z'})
    rmSync(join(dir, '.jp', 'conversations', 'jp-c2'), {recursive: true})
    const s = await store()
    expect(titles(await s.listIndexed())).to.deep.equal(['renamed', 'three'])
    expect(await s.listIndexed()).to.deep.equal(await s.list())
  })

  it('a corrupt or foreign index is rebuilt from the files', async () => {
    const index = join(dir, '.jp', 'conversation-index.json')
    for (const bad of ['{not json', JSON.stringify({version: 99, logOffset: 0, summaries: [{id: 'jp-c1', title: 'stale'}]})]) {
      writeFileSync(index, bad)
      expect(titles(await (await store()).listIndexed())).to.deep.equal(['two', 'one'])
      expect(JSON.parse(readFileSync(index, 'utf8')).version).to.equal(1)
    }
  })

  it('never appends to the change log through a link', async () => {
    const target = join(dir, 'victim')
    writeFileSync(target, 'precious\n')
    symlinkSync(target, join(dir, '.jp', 'conversation-index.log'))
    const s = await store()
    const conv = await s.load('jp-c1')
    await s.saveMetadata('jp-c1', {...conv.metadata, title: 'renamed'})
    expect(readFileSync(target, 'utf8')).to.equal('precious\n')
  })
})

describe('conversation summary index: conversations/ not listed again while unchanged', () => {
  let dir: string
  let convs: string
  const env = () => ({JP_USER_DATA_DIR: join(dir, 'data')})
  const store = async () => {
    const {findWorkspace} = await import('../../src/lib/conversation/workspace.js')
    return new ConversationStore(await findWorkspace({cwd: dir, env: {...process.env, ...env()}}), {env: env()})
  }
  /** Sets conversations/'s mtime (and atime) to `seconds` ago. */
  const age = (seconds: number) => {
    const t = new Date(Date.now() - seconds * 1000)
    utimesSync(convs, t, t)
    return t
  }
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-index-dir-'))
    await initWorkspace(dir)
    convs = join(dir, '.jp', 'conversations')
    writeConversation(dir, 'jp-c1', {title: 'one', created_at: '2024-01-01T00:00:00Z'})
    writeConversation(dir, 'jp-c2', {title: 'two', created_at: '2024-01-02T00:00:00Z'})
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('a settled directory the index saw is not listed again (an entry slipped in behind the same mtime is not seen)', async () => {
    const then = age(60)
    await (await store()).listIndexed()
    writeConversation(dir, 'jp-c3', {title: 'three', created_at: '2024-01-03T00:00:00Z'})
    utimesSync(convs, then, then)
    expect(titles(await (await store()).listIndexed())).to.deep.equal(['two', 'one'])
    // grep's verified listing always lists the directory.
    expect(titles(await (await store()).listIndexed({verify: true}))).to.deep.equal(['three', 'two', 'one'])
  })

  it('a directory changed within the last seconds is listed every time (a change in the same clock tick would keep its mtime)', async () => {
    const recent = age(0.5)
    await (await store()).listIndexed()
    writeConversation(dir, 'jp-c3', {title: 'three', created_at: '2024-01-03T00:00:00Z'})
    utimesSync(convs, recent, recent)
    expect(titles(await (await store()).listIndexed())).to.deep.equal(['three', 'two', 'one'])
  })

  it('after the index saw a settled directory: conversations made, removed and retitled are seen', async () => {
    age(60)
    await (await store()).listIndexed()
    writeConversation(dir, 'jp-c3', {title: 'three', created_at: '2024-01-03T00:00:00Z'})
    rmSync(join(convs, 'jp-c1'), {recursive: true})
    const other = await store()
    const conv = await other.load('jp-c2')
    await other.saveMetadata('jp-c2', {...conv.metadata, title: 'renamed'})
    expect(titles(await (await store()).listIndexed())).to.deep.equal(['three', 'renamed'])
    // Settled again, then the retitle alone (the change log).
    age(60)
    await (await store()).listIndexed()
    const again = await store()
    await again.saveMetadata('jp-c3', {...(await again.load('jp-c3')).metadata, title: 'three again'})
    expect(titles(await (await store()).listIndexed())).to.deep.equal(['three again', 'renamed'])
    const s = await store()
    expect(await s.listIndexed()).to.deep.equal(await s.list())
  })
})
