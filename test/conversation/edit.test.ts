// The edit policy of `jp conversation edit` at the editor seam.
import {expect} from 'chai'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {
  applyProperties,
  CANCELLED_MESSAGE,
  editConversationFiles,
  fileProblem,
  planEdit,
  restore,
  snapshot,
} from '../../src/lib/conversation/edit-policy.js'
import {MockEditorBackend} from '../../src/lib/editor/mock.js'

describe('conversation edit policy', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-cedit-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const paths = (d: string) => ({dir: d, events: join(d, 'events.json'), metadata: join(d, 'metadata.json'), baseConfig: join(d, 'base_config.json')})

  describe('planEdit', () => {
    it('directory mode opens each directory and checks all three files', () => {
      const plan = planEdit([paths('/a'), paths('/b')], {})
      expect(plan.open).to.deep.equal(['/a', '/b'])
      expect(plan.check.map((c) => c.path)).to.deep.equal([
        '/a/events.json',
        '/a/metadata.json',
        '/a/base_config.json',
        '/b/events.json',
        '/b/metadata.json',
        '/b/base_config.json',
      ])
    })
    it('file flags open exactly those files of every conversation', () => {
      const plan = planEdit([paths('/a'), paths('/b')], {metadata: true, baseConfig: true})
      expect(plan.open).to.deep.equal(['/a/metadata.json', '/a/base_config.json', '/b/metadata.json', '/b/base_config.json'])
      expect(plan.check.map((c) => c.kind)).to.deep.equal(['metadata', 'base-config', 'metadata', 'base-config'])
    })
  })

  describe('fileProblem', () => {
    it('invalid JSON names line and column of the first error', async () => {
      expect(await fileProblem('events', '/x/events.json', '[\n  {"a": 1}\n  {"b": 2}\n]')).to.match(/^\/x\/events\.json:3:3: invalid JSON: /)
      expect(await fileProblem('metadata', '/m.json', '')).to.match(/^\/m\.json:1:1: invalid JSON: /)
    })
    it('an event of the wrong shape points at that event', async () => {
      const text = '[\n  {"timestamp": "t", "type": "turn_start"},\n  {"timestamp": "t", "type": "chat_request"}\n]\n'
      expect(await fileProblem('events', '/e.json', text)).to.equal('/e.json:3:3: event 1 (chat_request): "content" must be a string')
    })
    it('metadata must be an object with string (or null) well-known keys', async () => {
      expect(await fileProblem('metadata', '/m.json', '[]')).to.equal('/m.json:1:1: expected a JSON object')
      expect(await fileProblem('metadata', '/m.json', '{\n  "title": 3\n}')).to.equal('/m.json:2:3: "title" must be a string')
      expect(await fileProblem('metadata', '/m.json', '{"title": null, "extra": [1]}')).to.equal(undefined)
    })
    it('base config is validated against the config schema, pointing at the key', async () => {
      const text = '{\n  "interrupt": {\n    "escalation_cooldown_secs": "soon"\n  }\n}'
      const p = await fileProblem('base-config', '/b.json', text)
      expect(p).to.match(/^\/b\.json:3:5: interrupt\.escalation_cooldown_secs: /)
      expect(await fileProblem('base-config', '/b.json', '{"nope": 1}')).to.match(/^\/b\.json:1:2: nope: /)
      expect(await fileProblem('base-config', '/b.json', '{"assistant": {"model": {"id": "a/b"}}}')).to.equal(undefined)
    })
  })

  describe('snapshot and restore', () => {
    it('writes back only files whose bytes changed, and removes files that did not exist', async () => {
      const same = join(dir, 'same.json')
      const changed = join(dir, 'changed.json')
      const added = join(dir, 'added.json')
      writeFileSync(same, '{"a": 1}\n')
      writeFileSync(changed, '{"b": 1}\n')
      const snap = await snapshot([same, changed, added])
      const inode = statSync(same).ino
      writeFileSync(changed, 'edited')
      writeFileSync(added, 'new')
      await restore(snap)
      expect(statSync(same).ino).to.equal(inode)
      expect(readFileSync(changed, 'utf8')).to.equal('{"b": 1}\n')
      expect(existsSync(added)).to.equal(false)
    })
  })

  describe('editConversationFiles', () => {
    function conversation(): ReturnType<typeof paths> {
      const p = paths(dir)
      writeFileSync(p.events, '[]\n')
      writeFileSync(p.metadata, '{}\n')
      writeFileSync(p.baseConfig, '{}\n')
      return p
    }

    it('runs the editor once with every path in cwd and keeps a valid edit', async () => {
      const p = conversation()
      const editor = new MockEditorBackend([{outcome: 'saved', text: ''}])
      await editConversationFiles(planEdit([p], {events: true, metadata: true}), {editor, cwd: '/ws', report: () => {}})
      expect(editor.fileCalls).to.deep.equal([{paths: [p.events, p.metadata], cwd: '/ws'}])
    })

    it('cancelled: restores and rejects with the pinned message', async () => {
      const p = conversation()
      const editor = new MockEditorBackend([{outcome: 'cancelled'}])
      let error: unknown
      await editConversationFiles(planEdit([p], {}), {editor, cwd: dir, report: () => {}}).catch((e) => (error = e))
      expect((error as Error).message).to.equal(CANCELLED_MESSAGE)
    })

    it('a spawn error rejects with the EditorError message', async () => {
      const p = conversation()
      let error: unknown
      await editConversationFiles(planEdit([p], {}), {
        editor: new MockEditorBackend([{error: 'spawn', message: 'ENOENT'}]),
        cwd: dir,
        report: () => {},
      }).catch((e) => (error = e))
      expect((error as Error).message).to.equal("failed to spawn editor 'mock-editor': ENOENT")
    })

    it('with content that does not load: reports, asks, re-opens on yes, and discards on no', async () => {
      const p = conversation()
      writeFileSync(p.metadata, '{') // already broken: every round finds it broken
      const reports: string[] = []
      const questions: string[] = []
      const answers = [true, false]
      const editor = new MockEditorBackend([
        {outcome: 'saved', text: ''},
        {outcome: 'saved', text: ''},
      ])
      let error: unknown
      await editConversationFiles(planEdit([p], {metadata: true}), {
        editor,
        cwd: dir,
        report: (l) => reports.push(l),
        confirmReopen: async (q) => {
          questions.push(q)
          return answers.shift()!
        },
      }).catch((e) => (error = e))
      expect(editor.fileCalls).to.have.length(2)
      expect(questions).to.deep.equal(['Re-open the editor to fix it?', 'Re-open the editor to fix it?'])
      expect(reports[0]).to.match(/^The edited file could not be loaded back: .*metadata\.json:1:2: invalid JSON/)
      expect((error as Error).message).to.equal('the edit could not be loaded and was discarded; the conversation is unchanged')
    })
  })

  describe('applyProperties', () => {
    it('sets the title, pins once (keeping an existing pin time) and unpins', () => {
      const now = () => 'NOW'
      expect(applyProperties({title: 'a'}, {title: 'b'}, now)).to.deep.equal({title: 'b'})
      expect(applyProperties({}, {pin: true}, now)).to.deep.equal({pinned_at: 'NOW'})
      expect(applyProperties({pinned_at: 'THEN'}, {pin: true}, now)).to.deep.equal({pinned_at: 'THEN'})
      expect(applyProperties({pinned_at: 'THEN', x: 1}, {pin: false}, now)).to.deep.equal({pinned_at: null, x: 1})
    })
  })
})
