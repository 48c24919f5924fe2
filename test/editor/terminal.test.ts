// TerminalEditorBackend with real editor processes (SPEC §5, §14): small
// shell scripts that write, append, record, fail, die of a signal.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {EditorConfig, type EditorCommand} from '../../src/lib/config/editor.js'
import {TerminalEditorBackend} from '../../src/lib/editor/terminal.js'
import {isEditorError} from '../../src/lib/editor/types.js'
import {tempDirs} from '../../src/lib/process/temp-dirs.js'
import {cleanEnv, editorPath, readRecord, tempDir, type TempDir} from './helpers.js'

function direct(program: string, args: string[] = []): EditorCommand {
  return new EditorConfig({cmd: {program, args, shell: false}}, {env: {}}).command()!
}

async function rejection(p: Promise<unknown>): Promise<Error & {kind?: string}> {
  try {
    await p
  } catch (error) {
    return error as Error & {kind?: string}
  }
  throw new Error('expected a rejection')
}

describe('TerminalEditorBackend', () => {
  let t: TempDir
  let record: string
  let env: NodeJS.ProcessEnv
  let notices: string[]

  beforeEach(() => {
    t = tempDir()
    record = t.path('record.log')
    env = cleanEnv({EDITOR_RECORD: record})
    notices = []
  })
  afterEach(() => t.cleanup())

  const backend = (cmd: EditorCommand, extra: NodeJS.ProcessEnv = {}) =>
    new TerminalEditorBackend(cmd, {env: {...env, ...extra}, notice: (l) => notices.push(l), tmpdir: t.path('tmp')})

  beforeEach(() => {
    // A private parent for the backend's temp dirs, so leftovers are visible.
    mkdirSync(t.path('tmp'), {recursive: true})
  })

  describe('editText', () => {
    it('returns the edited text as saved when the editor exits 0', async () => {
      const result = await backend(direct(editorPath('append.sh'))).editText('first line\n')
      expect(result).to.deep.equal({outcome: 'saved', text: 'first line\nappended\n'})
    })

    it('hands the editor a 0600 .md file in a 0700 directory, and removes both', async () => {
      const result = await backend(direct(editorPath('record.sh'))).editText('draft\n')
      const r = readRecord(record)
      expect(r.filemode).to.deep.equal(['600'])
      expect(r.dirmode).to.deep.equal(['700'])
      const path = r.path[0]
      expect(path.endsWith('.md')).to.equal(true)
      expect(dirname(dirname(path))).to.equal(t.path('tmp'))
      expect(result).to.deep.equal({outcome: 'saved', text: 'draft\nrecorded\n'})
      expect(existsSync(path)).to.equal(false)
      expect(existsSync(dirname(path))).to.equal(false)
      expect(readdirSync(t.path('tmp'))).to.deep.equal([])
    })

    it('keeps its private directory in the exit registry while the editor runs (what process.exit or a crash leaves is removed), and takes it out after', async () => {
      const slow = t.write('slow.sh', '#!/bin/sh\nsleep 0.5\n', 0o755)
      const ours = () => tempDirs().filter((d) => dirname(d) === t.path('tmp'))
      const editing = backend(direct(slow)).editText('x')
      const until = Date.now() + 5_000
      while (ours().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
      const [registered] = ours()
      expect(registered, 'the editor\'s directory is registered while it runs').to.not.equal(undefined)
      expect(existsSync(registered)).to.equal(true)
      expect((await editing).outcome).to.equal('saved')
      expect(ours()).to.deep.equal([])
      expect(existsSync(registered)).to.equal(false)
    })

    it('uses the OS temp dir by default', async () => {
      const b = new TerminalEditorBackend(direct(editorPath('record.sh')), {env})
      await b.editText('x')
      const path = readRecord(record).path[0]
      expect(dirname(dirname(path))).to.equal(realpathSync(tmpdir()))
      expect(existsSync(dirname(path))).to.equal(false)
    })

    it('reports a non-zero exit as cancelled and still cleans up', async () => {
      const result = await backend(direct(editorPath('fail.sh'))).editText('keep me\n')
      expect(result.outcome).to.equal('cancelled')
      const path = readRecord(record).path[0]
      expect(existsSync(dirname(path))).to.equal(false)
      expect(readdirSync(t.path('tmp'))).to.deep.equal([])
    })

    it('reports death by a signal as cancelled and still cleans up', async () => {
      const result = await backend(direct(editorPath('killed.sh'))).editText('keep me\n')
      expect(result.outcome).to.equal('cancelled')
      expect(readdirSync(t.path('tmp'))).to.deep.equal([])
    })

    it('keeps editor exit codes apart: EDITOR_EXIT=1 cancels, 0 saves', async () => {
      expect((await backend(direct(editorPath('record.sh')), {EDITOR_EXIT: '1'}).editText('a')).outcome).to.equal('cancelled')
      expect((await backend(direct(editorPath('record.sh')), {EDITOR_EXIT: '0'}).editText('a')).outcome).to.equal('saved')
    })

    it('rejects with a spawn EditorError for a missing program, leaving no temp files', async () => {
      const error = await rejection(backend(direct(t.path('no-such-editor'))).editText('x'))
      expect(isEditorError(error)).to.equal(true)
      expect(error.kind).to.equal('spawn')
      expect(error.message).to.equal(`failed to spawn editor '${t.path('no-such-editor')}': not found`)
      expect(readdirSync(t.path('tmp'))).to.deep.equal([])
    })

    it('rejects with a spawn EditorError for a program that is not executable', async () => {
      const p = t.write('plain.txt', 'not a program', 0o644)
      const error = await rejection(backend(direct(p)).editText('x'))
      expect(error.kind).to.equal('spawn')
      expect(error.message).to.equal(`failed to spawn editor '${p}': permission denied`)
    })

    it('rejects with an io EditorError when the temp file cannot be created', async () => {
      const b = new TerminalEditorBackend(direct(editorPath('append.sh')), {env, tmpdir: t.path('missing', 'dir')})
      const error = await rejection(b.editText('x'))
      expect(isEditorError(error)).to.equal(true)
      expect(error.kind).to.equal('io')
      expect(error.message).to.match(/^editor file I\/O failed: /)
    })
  })

  describe('editFile', () => {
    it('runs the editor on the paths, in order, in cwd', async () => {
      t.write('a.txt', 'a\n')
      t.write('b.txt', 'b\n')
      const outcome = await backend(direct(editorPath('append.sh'))).editFile({paths: ['a.txt', 'b.txt'], cwd: t.dir})
      expect(outcome).to.equal('saved')
      expect(t.read('a.txt')).to.equal('a\nappended\n')
      expect(t.read('b.txt')).to.equal('b\nappended\n')
    })

    it('records the cwd and argv the editor saw', async () => {
      t.write('a.txt', '')
      await backend(direct(editorPath('record.sh'), ['--flag'])).editFile({paths: ['a.txt'], cwd: t.dir})
      const r = readRecord(record)
      expect(r.arg).to.deep.equal(['--flag', 'a.txt'])
      expect(r.cwd).to.deep.equal([realpathSync(t.dir)])
    })

    it('is cancelled on a non-zero exit and the file stays where the editor left it', async () => {
      t.write('a.txt', 'a\n')
      expect(await backend(direct(editorPath('fail.sh'))).editFile({paths: ['a.txt'], cwd: t.dir})).to.equal('cancelled')
      expect(t.read('a.txt')).to.equal('a\nhalf-written\n')
    })

    it('rejects with a spawn error naming a missing working directory', async () => {
      const error = await rejection(backend(direct(editorPath('append.sh'))).editFile({paths: ['a'], cwd: t.path('nowhere')}))
      expect(error.kind).to.equal('spawn')
      expect(error.message).to.include('working directory').and.include('nowhere')
    })
  })

  describe('GUI editor hint', () => {
    let bin: string
    beforeEach(() => {
      bin = t.path('bin')
      mkdirSync(bin, {recursive: true})
      // A stand-in for VS Code that forks and returns at once, touching nothing.
      writeFileSync(join(bin, 'code'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
      // One that does change the file (as if the user saved quickly).
      writeFileSync(join(bin, 'subl'), `#!/bin/sh\nfor last; do :; done\necho saved >> "$last"\n`, {mode: 0o755})
    })

    const gui = (program: string, args: string[] = []) => {
      const c = new EditorConfig({cmd: {program, args, shell: false}}, {env: {PATH: `${bin}:${process.env.PATH}`}})
      return backend(c.command()!, {PATH: `${bin}:${process.env.PATH}`})
    }

    it('names the wait flag when a known GUI editor returns at once with nothing changed', async () => {
      await gui('code').editText('x')
      expect(notices).to.have.length(1)
      expect(notices[0]).to.include("'code'").and.include('--wait')
      expect(notices[0]).to.not.include('\n')
    })

    it('also for editFile', async () => {
      t.write('a.txt', 'a')
      await gui('code').editFile({paths: ['a.txt'], cwd: t.dir})
      expect(notices).to.have.length(1)
    })

    it('says nothing when the wait flag is configured', async () => {
      await gui('code', ['--wait']).editText('x')
      await gui('code', ['-w']).editText('x')
      expect(notices).to.deep.equal([])
    })

    it('says nothing when the editor changed the file', async () => {
      await gui('subl').editText('x')
      expect(notices).to.deep.equal([])
    })

    it('says nothing for editors it does not know', async () => {
      await backend(direct(editorPath('record.sh'))).editText('x')
      writeFileSync(join(bin, 'vim'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
      await gui('vim').editText('x')
      expect(notices).to.deep.equal([])
    })
  })
})

