// The query pipeline's steps report what the user must fix as a QueryError
// carrying its exit code, and never exit the process themselves: the command
// alone turns the error into an exit (src/commands/query.ts).
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ConfigError} from '../../src/lib/config/errors.js'
import {ConversationStore} from '../../src/lib/conversation/store.js'
import {initWorkspace} from '../../src/lib/conversation/workspace.js'
import {openConversation, resolveConversation, titleFrom} from '../../src/lib/query/conversation.js'
import {isQueryError, QueryError, userFacing} from '../../src/lib/query/errors.js'

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('query pipeline steps', () => {
  let dir: string
  let store: ConversationStore

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-pipeline-'))
    const env = {HOME: join(dir, 'home'), JP_USER_DATA_DIR: join(dir, 'data')}
    store = new ConversationStore(await initWorkspace(join(dir, 'ws')), {env})
  })

  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('an unknown --id is a QueryError with exit code 1 naming the id', async () => {
    const error = await rejection(resolveConversation(store, {id: 'nope', newConversation: false}))
    expect(isQueryError(error)).to.equal(true)
    expect((error as QueryError).exitCode).to.equal(1)
    expect((error as Error).message).to.equal("no conversation with id 'nope' (see 'jp conversation ls')")
  })

  it('--new resolves to no conversation; otherwise the active one', async () => {
    const id = await store.create({title: 't'})
    await store.setActive(id)
    expect(await resolveConversation(store, {newConversation: true})).to.equal(undefined)
    expect(await resolveConversation(store, {newConversation: false})).to.equal(id)
    expect(await resolveConversation(store, {id, newConversation: false})).to.equal(id)
  })

  it('a conversation held by another writer is a QueryError, not a stack', async () => {
    const id = await store.create({title: 't'})
    const release = await store.lock(id)
    try {
      // Waits WRITER_LOCK_WAIT_MS for the other writer, then gives up.
      const error = await rejection(openConversation(store, id, 'q', undefined))
      expect(isQueryError(error)).to.equal(true)
      expect((error as Error).message).to.match(/locked|in use|another/i)
    } finally {
      await release()
    }
  }).timeout(10_000)

  it('opens a new conversation: created, active, titled from the query, and locked until released', async () => {
    const opened = await openConversation(store, undefined, '\n  first line\nsecond', undefined)
    try {
      expect(await store.activeId()).to.equal(opened.id)
      expect((await store.load(opened.id)).metadata.title).to.equal('first line')
      const error = await rejection(store.lock(opened.id))
      expect((error as Error).name).to.equal('ConversationLockedError')
    } finally {
      await opened.release()
    }
  })

  it('userFacing keeps a QueryError and wraps any other error with its message', async () => {
    const own = new QueryError('x', {exitCode: 3})
    expect(await rejection(userFacing(() => Promise.reject(own)))).to.equal(own)
    const wrapped = await rejection(userFacing(() => {
      throw new ConfigError({source: 'a.toml', line: 2, key: 'editor.cmd', problem: 'bad'})
    }))
    expect(isQueryError(wrapped)).to.equal(true)
    expect((wrapped as Error).message).to.equal('a.toml:2:1: editor.cmd: bad')
    expect((wrapped as QueryError).exitCode).to.equal(1)
  })

  it('isQueryError goes by name, so a copy of the module from dist/ is recognised too', () => {
    const foreign = Object.assign(new Error('m'), {name: 'QueryError', exitCode: 1})
    expect(isQueryError(foreign)).to.equal(true)
    expect(isQueryError(new Error('m'))).to.equal(false)
  })

  it('titles are the first non-blank line, cut at 60 characters', () => {
    expect(titleFrom('\n\n  hello  \nworld')).to.equal('hello')
    expect(titleFrom('x'.repeat(80))).to.equal('x'.repeat(59) + '…')
  })
})
