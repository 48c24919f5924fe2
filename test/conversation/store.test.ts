import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {event, type ConversationEvent} from '../../src/lib/conversation/events.js'
import {ConversationStore, conversationConfig} from '../../src/lib/conversation/store.js'
import {defaultWorkspaceRoot, ensureWorkspace, findWorkspace, initWorkspace} from '../../src/lib/conversation/workspace.js'
import {userDataDir} from '../../src/lib/conversation/paths.js'

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'store-child.ts')

function child(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {stdio: ['pipe', 'pipe', 'pipe']})
}

/** Resolves with the first stdout line matching `re`. */
function waitForLine(p: ChildProcessWithoutNullStreams, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    let err = ''
    p.stderr.on('data', (d) => (err += d))
    const onData = (d: Buffer) => {
      buf += d
      const line = buf.split('\n').find((l) => re.test(l))
      if (line !== undefined) {
        p.stdout.off('data', onData)
        resolve(line)
      }
    }
    p.stdout.on('data', onData)
    p.on('close', (code, sig) => reject(new Error(`child exited (${code ?? sig}) before ${re}: ${buf} ${err}`)))
  })
}

function finished(p: ChildProcessWithoutNullStreams): Promise<{code: number | null; signal: string | null; stdout: string; stderr: string}> {
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d) => (stdout += d))
    p.stderr.on('data', (d) => (stderr += d))
    p.on('close', (code, signal) => resolve({code, signal, stdout, stderr}))
  })
}

describe('conversation storage', () => {
  let dir: string
  let root: string
  let env: NodeJS.ProcessEnv
  let store: ConversationStore

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jp-store-'))
    root = join(dir, 'project')
    env = {HOME: join(dir, 'home'), JP_USER_DATA_DIR: join(dir, 'data')}
    store = new ConversationStore(await initWorkspace(root), {env})
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  describe('workspace', () => {
    it('finds the nearest .jp/ walking up, honours --workspace, and falls back to the user default', async () => {
      const deep = join(root, 'a', 'b')
      mkdirSync(deep, {recursive: true})
      expect((await findWorkspace({cwd: deep, env})).root).to.equal(root)
      const other = join(dir, 'other')
      await initWorkspace(other)
      expect((await findWorkspace({cwd: deep, explicit: other, env})).root).to.equal(other)
      expect((await findWorkspace({cwd: deep, explicit: join(other, '.jp'), env})).root).to.equal(other)
      const err = await findWorkspace({cwd: deep, explicit: join(dir, 'nowhere'), env}).catch((e: Error) => e)
      expect((err as Error).message).to.match(/--workspace-dir .*nowhere: no \.jp directory/)
      const outside = join(dir, 'loose')
      mkdirSync(outside)
      // (the temp dir is not inside any .jp/ workspace)
      const ws = await findWorkspace({cwd: outside, env})
      expect(ws.isDefault).to.equal(true)
      expect(ws.root).to.equal(defaultWorkspaceRoot(env))
      expect(ws.root.startsWith(userDataDir(env))).to.equal(true)
      expect(await ensureWorkspace(ws)).to.equal(true) // created now: the one time it is announced
      expect(await ensureWorkspace(ws)).to.equal(false)
    })

    it('userDataDir prefers JP_USER_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share', () => {
      expect(userDataDir({JP_USER_DATA_DIR: '/u', XDG_DATA_HOME: '/x', HOME: '/h'})).to.equal('/u')
      expect(userDataDir({XDG_DATA_HOME: '/x', HOME: '/h'})).to.equal('/x/jp')
      expect(userDataDir({HOME: '/h'})).to.equal('/h/.local/share/jp')
    })
  })

  describe('conversations', () => {
    it('creates unique jp-c<deciseconds> ids and round-trips events, metadata and base config', async () => {
      const before = Math.floor(Date.now() / 100)
      const a = await store.create({title: 'first'})
      const b = await store.create()
      expect(a).to.match(/^jp-c\d+$/)
      expect(Number(a.slice(4))).to.be.at.least(before)
      expect(b).to.not.equal(a)
      const events: ConversationEvent[] = [
        event.turnStart(),
        event.chatRequest('hi'),
        event.reasoning('hmm'),
        event.message('hello'),
        event.toolCallRequest('t1', 'grep', {pattern: 'x'}),
        event.toolCallResponse('t1', 'found', false),
        event.configDelta({assistant: {model: {id: 'a/b'}}}),
        {timestamp: '2030-01-01T00:00:00.000Z', type: 'from_the_future', payload: {keep: [1, 2]}},
      ]
      await store.saveEvents(a, events)
      await store.saveBaseConfig(a, {editor: {backend: 'terminal'}})
      const reader = new ConversationStore(store.workspace) // another command: reads from disk
      const loaded = await reader.load(a)
      expect(loaded.events).to.deep.equal(events)
      expect(loaded.metadata.title).to.equal('first')
      expect(loaded.baseConfig).to.deep.equal({editor: {backend: 'terminal'}})
      expect(await conversationConfig(store, loaded)).to.deep.equal({editor: {backend: 'terminal'}, assistant: {model: {id: 'a/b'}}})
      // the unknown event is written back unchanged
      await reader.saveEvents(a, loaded.events)
      await reader.closeEvents(a, loaded.events)
      expect(JSON.parse(readFileSync(store.paths(a).events, 'utf8'))[7]).to.deep.equal(events[7])
    })

    it('tracks the active conversation, lists pinned first, and removes conversations', async () => {
      const a = await store.create({title: 'a'})
      const b = await store.create({title: 'b'})
      expect(await store.activeId()).to.equal(undefined)
      await store.setActive(a)
      expect(await store.activeId()).to.equal(a)
      await store.saveMetadata(b, {...(await store.load(b)).metadata, pinned_at: '2020-01-01T00:00:00Z'})
      const list = await store.list()
      expect(list.map((c) => c.id)).to.deep.equal([b, a])
      expect(list.find((c) => c.id === a)?.active).to.equal(true)
      const draft = store.draftPath(a)
      mkdirSync(dirname(draft), {recursive: true})
      writeFileSync(draft, 'draft')
      await store.remove(a)
      expect(existsSync(store.paths(a).dir)).to.equal(false)
      expect(existsSync(draft)).to.equal(false)
      expect(await store.activeId()).to.equal(undefined)
      expect((await store.list()).map((c) => c.id)).to.deep.equal([b])
    })

    it('an unknown id is an error naming it', async () => {
      const e = await store.load('jp-c1').catch((err: Error) => err)
      expect((e as Error).message).to.equal(`conversation 'jp-c1' not found in workspace ${root} (see 'jp conversation ls')`)
      expect(((await store.setActive('../x').catch((err: Error) => err)) as Error).message).to.include("'../x' not found")
    })

    it('keeps the query draft in the user data dir, outside the workspace, keyed by workspace', async () => {
      const other = new ConversationStore(await initWorkspace(join(dir, 'other')), {env})
      const id = await store.create()
      const p = store.draftPath(id)
      expect(p.startsWith(join(dir, 'data') + '/')).to.equal(true)
      expect(p.startsWith(root)).to.equal(false)
      expect(p.endsWith(join(id, 'QUERY_MESSAGE.md'))).to.equal(true)
      expect(other.draftPath(id)).to.not.equal(p)
      expect(store.draftPath(null)).to.not.equal(p)
    })
  })

  describe('writes', () => {
    it('write only what changed: an identical save touches nothing; a new event is appended to the journal, not the history', async () => {
      const id = await store.create()
      const events = [event.chatRequest('same')]
      expect(await store.saveEvents(id, events)).to.equal(true)
      await store.closeEvents(id, events) // small: folded into events.json
      const p = store.paths(id)
      expect(existsSync(p.eventsLog)).to.equal(false)
      const past = new Date('2001-01-01T00:00:00Z')
      utimesSync(p.events, past, past)
      const reader = new ConversationStore(store.workspace)
      const loaded = (await reader.load(id)).events
      expect(await reader.saveEvents(id, loaded)).to.equal(false)
      expect(statSync(p.events).mtimeMs).to.equal(past.getTime())
      expect(existsSync(p.eventsLog)).to.equal(false)
      loaded.push(event.message('changed'))
      expect(await reader.saveEvents(id, loaded)).to.equal(true)
      expect(statSync(p.events).mtimeMs, 'events.json is not rewritten for one new event').to.equal(past.getTime())
      const log = readFileSync(p.eventsLog, 'utf8')
      expect(log).to.include('"changed"').and.not.include('"same"')
      expect((await new ConversationStore(store.workspace).load(id)).events.map((e) => e.type)).to.deep.equal(['chat_request', 'chat_response'])
      await reader.closeEvents(id, loaded)
      expect(existsSync(p.eventsLog)).to.equal(false)
      expect(JSON.parse(readFileSync(p.events, 'utf8'))).to.deep.equal(loaded)
    })

    it('a crash between the temp-file write and the rename leaves the old file intact', async () => {
      const id = await store.create()
      await store.saveEvents(id, [event.chatRequest('OLD CONTENT')])
      const path = store.paths(id).events
      const before = readFileSync(path)
      const r = await finished(child(['crash-save', root, id]))
      expect(r.signal).to.equal('SIGKILL')
      expect(r.stdout).to.not.include('not reached')
      expect(readFileSync(path).equals(before)).to.equal(true)
      // the interrupted write really happened: its temp file holds the new content
      const temps = readdirSync(store.paths(id).dir).filter((f) => f.startsWith('events.json.'))
      expect(temps).to.have.length(1)
      expect(readFileSync(join(store.paths(id).dir, temps[0]), 'utf8')).to.include('NEW CONTENT')
      // the next process to lock the conversation removes the leftover
      const next = new ConversationStore(store.workspace)
      const release = await next.lock(id)
      expect(readdirSync(store.paths(id).dir).filter((f) => f.startsWith('events.json.'))).to.deep.equal([])
      await release()
      // and the store still loads and saves normally afterwards
      expect((await next.load(id)).events).to.have.length(1)
      expect(await next.saveEvents(id, [event.chatRequest('NEXT')])).to.equal(true)
      expect((await new ConversationStore(store.workspace).load(id)).events[0]).to.include({content: 'NEXT'})
    })

    it('a corrupt events.json is reported with its path and left byte-identical', async () => {
      const id = await store.create()
      const path = store.paths(id).events
      const corrupt = '[\n  {"type": "chat_request", "timestamp": "x", "content": "a"},\n  {oops\n]\n'
      writeFileSync(path, corrupt)
      const e = await store.load(id).catch((err: Error) => err)
      expect((e as Error).message).to.match(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid JSON at line 3, column \\d+`))
      expect(readFileSync(path, 'utf8')).to.equal(corrupt)
      // a well-formed file with a malformed event is corrupt too
      writeFileSync(path, '[{"type": "chat_request", "timestamp": "t"}]')
      expect(((await store.load(id).catch((err: Error) => err)) as Error).message).to.include(`${path}: event 0 (chat_request): "content" must be a string`)
      expect(readFileSync(path, 'utf8')).to.equal('[{"type": "chat_request", "timestamp": "t"}]')
    })

    it('a bad base_config.json is a config error naming the file', async () => {
      const id = await store.create()
      writeFileSync(store.paths(id).baseConfig, '{"editor": {"colour": 1}}')
      const e = await store.load(id).catch((err: Error) => err)
      expect((e as Error).message).to.equal(`${store.paths(id).baseConfig}: editor.colour: unknown key (expected one of: cmd, envs, backend, inline)`)
    })
  })

  describe('locking between processes', () => {
    it('a second process waits, then fails naming the conversation and the holder pid', async () => {
      const id = await store.create()
      const holder = child(['hold', root, id])
      await waitForLine(holder, /^locked$/)
      const r = await finished(child(['try', root, id, '300']))
      expect(r.code).to.equal(3)
      expect(r.stderr.trim()).to.equal(
        `conversation ${id} is in use by another jp process (pid ${holder.pid}); wait for it to finish or pick another conversation`,
      )
      holder.stdin.end('release\n')
      await finished(holder)
    })

    it('a waiting process gets the lock once the holder releases it', async () => {
      const id = await store.create()
      const holder = child(['hold', root, id])
      await waitForLine(holder, /^locked$/)
      const waiter = child(['try', root, id, '20000'])
      const waiterDone = finished(waiter)
      // let the waiter find the lock taken, then release
      await new Promise((r) => setTimeout(r, 300))
      holder.stdin.end('release\n')
      const released = Number((await finished(holder)).stdout.match(/released (\d+)/)?.[1])
      const w = await waiterDone
      expect(w.code).to.equal(0)
      const acquired = Number(w.stdout.match(/acquired (\d+)/)?.[1])
      expect(acquired).to.be.at.least(released)
    })

    it('a lock left by a dead process is taken over', async () => {
      const id = await store.create()
      const dying = child(['lock-and-die', root, id])
      const r = await finished(dying)
      expect(r.signal).to.equal('SIGKILL')
      const lockFile = join(store.paths(id).dir, '.lock')
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).to.equal(dying.pid)
      const release = await store.lock(id, {waitMs: 0})
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).to.equal(process.pid)
      await release()
      expect(existsSync(lockFile)).to.equal(false)
    })

    it('remove refuses while another process holds the lock', async () => {
      const id = await store.create()
      const holder = child(['hold', root, id])
      await waitForLine(holder, /^locked$/)
      const e = await store.remove(id).catch((err: Error) => err)
      expect((e as Error).message).to.include(`conversation ${id} is in use`)
      expect(existsSync(store.paths(id).events)).to.equal(true)
      holder.stdin.end('release\n')
      await finished(holder)
    })
  })
})
