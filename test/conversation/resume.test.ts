// The resume picker's rows (conversation/resume.ts): at most MAX_ROWS, the
// most recent first; a conversation beyond them is found by typing.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {MAX_ROWS, resumeRows} from '../../src/lib/conversation/resume.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {findWorkspace, initWorkspace} from '../../src/lib/conversation/workspace.js'
import {writeConversation} from '../helpers/conversations.js'

describe('resume picker rows', () => {
  let dir: string
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-resume-'))
    await initWorkspace(dir)
    for (let i = 0; i < MAX_ROWS + 50; i++) {
      const at = new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString()
      writeConversation(dir, `jp-c${1000 + i}`, {title: `topic ${i}`, created_at: at}, [
        {timestamp: at, type: 'turn_start'},
        {timestamp: at, type: 'chat_request', content: `question ${i}`},
      ])
    }
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it(`offers at most ${MAX_ROWS} rows, newest first, with details on the first; typing reaches the rest`, async () => {
    const env = {JP_USER_DATA_DIR: join(dir, 'data')}
    const store = new ConversationStore(await findWorkspace({cwd: dir, env}), {env})
    const rows = await resumeRows(store, 200)
    const all = rows.source('')
    expect(all).to.have.length(MAX_ROWS)
    expect(all[0].value).to.equal(`jp-c${1000 + MAX_ROWS + 49}`)
    expect(all[0].name).to.match(new RegExp(`^topic ${MAX_ROWS + 49} · \\S+ · 1 turn · question ${MAX_ROWS + 49}$`))
    expect(rows.source('topic 3 ').map((r) => r.value)).to.include('jp-c1003')
    expect(rows.source('c1003').map((r) => r.value)[0]).to.equal('jp-c1003')
  })

  it('orders by recency alone: a pinned conversation (first in `jp c ls`) takes its place by age', async () => {
    const env = {JP_USER_DATA_DIR: join(dir, 'data')}
    writeConversation(dir, 'jp-c0999', {title: 'pinned and old', created_at: '2023-01-01T00:00:00.000Z', pinned_at: '2024-06-01T00:00:00.000Z'})
    const store = new ConversationStore(await findWorkspace({cwd: dir, env}), {env})
    expect((await store.listIndexed())[0].id).to.equal('jp-c0999')
    const values = (await resumeRows(store, 200)).source('').map((r) => r.value)
    expect(values[0]).to.equal(`jp-c${1000 + MAX_ROWS + 49}`)
    expect(values).to.not.include('jp-c0999')
    expect((await resumeRows(store, 200)).source('pinned').map((r) => r.value)).to.deep.equal(['jp-c0999'])
  })
})
