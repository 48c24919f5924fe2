// `jp conversation edit` is one library call (lib/conversation-edit/
// pipeline.ts, issue 21 finding 6): the command parses flags and reports;
// the lock loop, the compaction, the editor and the re-open question are the
// library's. Run in-process (test/helpers/in-process.ts) with real script
// editors.
import {expect} from 'chai'
import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {INJECTED_BUILDER_SLOT} from '../../src/lib/editor/inject.js'
import {makeSandbox, ROOT, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {runInProcess} from '../helpers/in-process.js'

describe('jp conversation edit: the command is thin, the policy a library call', function () {
  this.timeout(60_000)
  let sb: Sandbox
  beforeEach(() => (sb = makeSandbox()))
  afterEach(() => sb.cleanup())

  it('the command holds no lock loop, compaction or prompt: it calls runConversationEdit', () => {
    const text = readFileSync(join(ROOT, 'src/commands/conversation/edit.ts'), 'utf8')
    expect(text).to.include('runConversationEdit(')
    for (const policy of ['.lock(', 'compactEvents', 'inlineSelect', 'hasTty', 'editConversationFiles', 'EditorConfig']) {
      expect(text, policy).to.not.include(policy)
    }
  })

  it('every conversation (each once) is locked while the editor runs, and unlocked after', async () => {
    const a = writeConversation(sb.cwd, 'jp-c1', {title: 'one'})
    const b = writeConversation(sb.cwd, 'jp-c2', {title: 'two'})
    const seen = join(sb.dir, 'seen')
    const editor = join(sb.dir, 'check.sh')
    writeFileSync(
      editor,
      `#!/bin/sh\nfor f; do d=$(dirname "$f"); if [ -e "$d/.lock" ]; then echo "locked $(basename "$d")" >> ${seen}; fi; done\n`,
    )
    chmodSync(editor, 0o755)
    const r = await runInProcess(['conversation', 'edit', 'jp-c1', 'jp-c2', 'jp-c1', '--metadata', '-c', `editor.cmd=${editor}`], {sandbox: sb})
    expect(r.exitCode, r.stderr).to.equal(0)
    const lines = readFileSync(seen, 'utf8')
    expect(lines).to.include('locked jp-c1').and.include('locked jp-c2')
    expect(existsSync(join(a, '.lock')) || existsSync(join(b, '.lock')), 'locks released').to.equal(false)
  })

  it('property flags alone build no editor (none configured is fine) and change the metadata', async () => {
    const dir = writeConversation(sb.cwd, 'jp-c1', {title: 'before'})
    delete (globalThis as Record<symbol, unknown>)[INJECTED_BUILDER_SLOT]
    const r = await runInProcess(['conversation', 'edit', 'jp-c1', '--title', 'after', '--pin'], {sandbox: sb, env: {PATH: '/nonexistent'}})
    const helper = (globalThis as Record<symbol, unknown>)[INJECTED_BUILDER_SLOT]
    expect(helper, 'the init hook ran').to.be.a('function')
    expect(r.exitCode, r.stderr).to.equal(0)
    const meta = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as {title: string; pinned_at: string | null}
    expect(meta.title).to.equal('after')
    expect(meta.pinned_at).to.be.a('string')
  })
})
