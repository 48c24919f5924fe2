// EditorConfig.command() resolution (SPEC §5), ported from git's
// t/t7005-editor.sh and extended with jp's shell-mode and skip rules. Every
// resolution that names a runnable editor is proven by running it for real.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'

import {EditorConfig, type EditorSectionInput} from '../../src/lib/config/editor.js'
import {isConfigError} from '../../src/lib/config/errors.js'
import {TerminalEditorBackend} from '../../src/lib/editor/terminal.js'
import {isEditorError} from '../../src/lib/editor/types.js'
import {cleanEnv, editorPath, readRecord, tempDir, type TempDir} from './helpers.js'

describe('EditorConfig.command() resolution (git t7005 port)', () => {
  let t: TempDir
  let notices: string[]

  beforeEach(() => {
    t = tempDir()
    notices = []
    // One script per source, each writing "Edited by <source>", as git's test does.
    for (const tag of ['EDITOR', 'VISUAL', 'JP_EDITOR', 'editor_cmd']) {
      t.write(`e-${tag}.sh`, `#!/bin/sh\nEDITOR_TAG=${tag} exec '${editorPath('write.sh')}' "$@"\n`, 0o755)
    }
    t.write('e space.sh', `#!/bin/sh\nfor last; do :; done\necho space > "$last"\n`, 0o755)
    t.write('target.txt', 'original\n')
  })
  afterEach(() => t.cleanup())

  function config(section: EditorSectionInput, env: NodeJS.ProcessEnv = {}) {
    return new EditorConfig(section, {env: cleanEnv(env), notice: (l) => notices.push(l), cwd: t.dir})
  }

  /** Resolves, runs the editor on target.txt in the temp dir, and returns the file's content. */
  async function edit(section: EditorSectionInput, env: NodeJS.ProcessEnv = {}): Promise<string> {
    const c = config(section, env)
    const cmd = c.command()
    expect(cmd, 'an editor should resolve').to.not.equal(undefined)
    const outcome = await new TerminalEditorBackend(cmd!, {env: c.env}).editFile({paths: ['target.txt'], cwd: t.dir})
    expect(outcome).to.equal('saved')
    return t.read('target.txt')
  }

  const sources = ['EDITOR', 'VISUAL', 'JP_EDITOR', 'editor_cmd'] as const
  const setSource = (tag: string, section: EditorSectionInput, env: NodeJS.ProcessEnv) => {
    if (tag === 'editor_cmd') section.cmd = './e-editor_cmd.sh'
    else env[tag] = `./e-${tag}.sh`
  }

  for (const tag of sources) {
    it(`uses ${tag} alone`, async () => {
      const section: EditorSectionInput = {}
      const env: NodeJS.ProcessEnv = {}
      setSource(tag, section, env)
      expect(await edit(section, env)).to.equal(`Edited by ${tag}\n`)
    })
  }

  it('lets the highest source win as sources are added cumulatively (override)', async () => {
    const section: EditorSectionInput = {}
    const env: NodeJS.ProcessEnv = {}
    for (const tag of sources) {
      setSource(tag, section, env)
      expect(await edit({...section}, {...env})).to.equal(`Edited by ${tag}\n`)
    }
  })

  it('runs an editor whose path has a space, quoted in the variable', async () => {
    expect(await edit({}, {EDITOR: '"./e space.sh"'})).to.equal('space\n')
  })

  it('runs an editor whose path has a backslash-escaped space in the variable', async () => {
    expect(await edit({}, {VISUAL: './e\\ space.sh'})).to.equal('space\n')
  })

  it('runs an editor whose path has a space, quoted in editor.cmd', async () => {
    expect(await edit({cmd: '"./e space.sh"'})).to.equal('space\n')
  })

  it('keeps editor.cmd (string) arguments in order with the paths last', async () => {
    const record = t.path('record.log')
    const c = config({cmd: `'${editorPath('record.sh')}' --one "two words" ''`})
    await new TerminalEditorBackend(c.command()!, {env: cleanEnv({EDITOR_RECORD: record})}).editFile({
      paths: ['target.txt', 'b.txt'],
      cwd: t.dir,
    })
    expect(readRecord(record).arg).to.deep.equal(['--one', 'two words', '', 'target.txt', 'b.txt'])
  })

  it('keeps editor.cmd (table) arguments in order with the path last', async () => {
    const record = t.path('record.log')
    const c = config({cmd: {program: editorPath('record.sh'), args: ['-a', 'b c'], shell: false}})
    await new TerminalEditorBackend(c.command()!, {env: cleanEnv({EDITOR_RECORD: record})}).editFile({paths: ['target.txt'], cwd: t.dir})
    expect(readRecord(record).arg).to.deep.equal(['-a', 'b c', 'target.txt'])
  })

  it('keeps the arguments of an editor variable (JP_EDITOR="code --wait" style)', () => {
    const cmd = config({}, {JP_EDITOR: `${editorPath('record.sh')} --wait -n`})!.command()!
    expect(cmd.source).to.equal('JP_EDITOR')
    expect(cmd.argv(['/p/x.md'])).to.deep.equal({file: editorPath('record.sh'), args: ['--wait', '-n', '/p/x.md']})
  })

  describe('shell mode', () => {
    async function runShell(program: string, args: string[], paths: string[]) {
      const record = t.path('record.log')
      const c = config({cmd: {program, args, shell: true}}, {PATH: `${t.dir}:${process.env.PATH}`})
      const outcome = await new TerminalEditorBackend(c.command()!, {env: cleanEnv({EDITOR_RECORD: record})}).editFile({
        paths,
        cwd: t.dir,
      })
      return {outcome, record: existsSync(record) ? readRecord(record) : {}}
    }

    it('runs pipes and && and forwards the paths with "$@"', async () => {
      const {outcome, record} = await runShell(`printf 'pre\\n' | cat >> "$1" && '${editorPath('record.sh')}'`, [], ['target.txt'])
      expect(outcome).to.equal('saved')
      expect(record.arg).to.deep.equal(['target.txt'])
      expect(t.read('target.txt')).to.equal('original\npre\nrecorded\n')
    })

    it('forwards several paths as separate words', async () => {
      t.write('second file.txt', '')
      const {record} = await runShell(`'${editorPath('record.sh')}'`, [], ['target.txt', 'second file.txt'])
      expect(record.arg).to.deep.equal(['target.txt', 'second file.txt'])
    })

    it('does not double an explicit "$@"', async () => {
      const {record} = await runShell(`'${editorPath('record.sh')}' --before "$@" --after`, [], ['target.txt'])
      expect(record.arg).to.deep.equal(['--before', 'target.txt', '--after'])
    })

    it('does not append "$@" when the program uses $*', () => {
      const cmd = config({cmd: {program: 'vi $*', args: [], shell: true}}).command()!
      expect(cmd.argv(['a'])).to.deep.equal({file: '/bin/sh', args: ['-c', 'vi $*', 'jp-editor', 'a']})
    })

    it('quotes multi-word and special arguments', async () => {
      const {record} = await runShell(`'${editorPath('record.sh')}'`, ['two words', "it's", '$HOME', '*'], ['target.txt'])
      expect(record.arg).to.deep.equal(['two words', "it's", '$HOME', '*', 'target.txt'])
    })

    it('never interpolates a path into the shell text', async () => {
      const evil = 'x; touch pwned; $(touch pwned2).txt'
      t.write(evil, '')
      const {record} = await runShell(`'${editorPath('record.sh')}'`, [], [evil])
      expect(record.arg).to.deep.equal([evil])
      expect(existsSync(t.path('pwned'))).to.equal(false)
      expect(existsSync(t.path('pwned2'))).to.equal(false)
      const {args} = config({cmd: {program: 'vi', args: [], shell: true}}).command()!.argv([evil])
      expect(args[1]).to.not.include(evil)
    })

    it('on Windows warns and spawns the program directly', () => {
      const c = new EditorConfig(
        {cmd: {program: 'notepad', args: ['/a'], shell: true}},
        {env: {}, notice: (l) => notices.push(l), platform: 'win32'},
      )
      expect(c.command()!.argv(['f.md'])).to.deep.equal({file: 'notepad', args: ['/a', 'f.md']})
      expect(notices).to.have.length(1)
      expect(notices[0]).to.match(/editor\.cmd.*Windows/)
    })
  })

  describe('skipping unusable variables', () => {
    it('skips a variable with unbalanced quoting, with a notice naming it', async () => {
      expect(await edit({}, {JP_EDITOR: 'vim "oops', EDITOR: './e-EDITOR.sh'})).to.equal('Edited by EDITOR\n')
      expect(notices).to.have.length(1)
      expect(notices[0]).to.include('JP_EDITOR').and.include('unbalanced quoting')
      expect(notices[0]).to.not.include('\n')
    })

    it('a notice quoting a variable reaches the sink sanitized; without a sink nothing is written to stderr (the library has no stdio of its own)', () => {
      const env = cleanEnv({VISUAL: 'no-such-editor-\x1b]0;t\x07 x', EDITOR: './e-EDITOR.sh'})
      expect(new EditorConfig({}, {env, notice: (l) => notices.push(l), cwd: t.dir}).command()?.source).to.equal('EDITOR')
      expect(notices).to.have.length(1)
      expect(notices[0]).to.include('no-such-editor-\\u001b]0;t\\u0007').and.not.match(/[\x1b\x07]/)
      const written: string[] = []
      const write = process.stderr.write
      process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write
      try {
        expect(new EditorConfig({}, {env, cwd: t.dir}).command()?.source).to.equal('EDITOR')
      } finally {
        process.stderr.write = write
      }
      expect(written).to.deep.equal([])
    })

    it('skips a variable whose program does not exist, with a notice naming it', async () => {
      expect(await edit({}, {VISUAL: 'no-such-editor-jp-test --flag', EDITOR: './e-EDITOR.sh'})).to.equal('Edited by EDITOR\n')
      expect(notices).to.have.length(1)
      expect(notices[0]).to.include('VISUAL').and.include('no-such-editor-jp-test')
    })

    it('skips a path that is not an executable file', () => {
      t.write('not-exec.sh', '#!/bin/sh\n', 0o644)
      mkdirSync(t.path('a-dir'))
      const c = config({}, {JP_EDITOR: './not-exec.sh', VISUAL: './a-dir', EDITOR: './e-EDITOR.sh'})
      expect(c.command()!.source).to.equal('EDITOR')
      expect(notices.map((n) => n.split(':')[1])).to.deep.equal([' ignoring editor variable JP_EDITOR', ' ignoring editor variable VISUAL'])
    })

    it('reports a skipped variable once per config, however often it resolves', () => {
      const c = config({}, {JP_EDITOR: 'nope-jp-test'})
      expect(c.command()).to.equal(undefined)
      expect(c.command()).to.equal(undefined)
      expect(notices).to.have.length(1)
    })

    it('consults only the configured variables, in their order', () => {
      const c = config({envs: ['MY_EDITOR', 'EDITOR']}, {JP_EDITOR: './e-JP_EDITOR.sh', EDITOR: './e-EDITOR.sh', MY_EDITOR: './e-VISUAL.sh'})
      expect(c.command()!.source).to.equal('MY_EDITOR')
      expect(config({envs: []}, {EDITOR: './e-EDITOR.sh'}).command()).to.equal(undefined)
    })

    it('resolves to no editor when nothing is set', () => {
      expect(config({}).command()).to.equal(undefined)
      expect(config({}, {EDITOR: '   '}).command()).to.equal(undefined)
      expect(notices).to.deep.equal([])
    })
  })

  describe('editor.cmd', () => {
    it('falls through to the variables when blank', async () => {
      expect(await edit({cmd: '  \t'}, {EDITOR: './e-EDITOR.sh'})).to.equal('Edited by EDITOR\n')
      expect(await edit({cmd: {program: ' ', args: [], shell: false}}, {EDITOR: './e-EDITOR.sh'})).to.equal('Edited by EDITOR\n')
    })

    it('is a config error naming editor.cmd when its quoting is unbalanced', () => {
      let error: unknown
      try {
        config({cmd: "vim 'unterminated"}, {EDITOR: './e-EDITOR.sh'}).command()
      } catch (e) {
        error = e
      }
      expect(isConfigError(error), String(error)).to.equal(true)
      expect((error as Error).message).to.include('editor.cmd').and.include('unbalanced')
    })

    it('naming a missing program is a spawn error, not a fall-through', async () => {
      const c = config({cmd: 'no-such-editor-jp-test --wait'}, {EDITOR: './e-EDITOR.sh'})
      const cmd = c.command()!
      expect(cmd.source).to.equal('editor.cmd')
      let error: unknown
      try {
        await new TerminalEditorBackend(cmd, {env: c.env}).editFile({paths: ['target.txt'], cwd: t.dir})
      } catch (e) {
        error = e
      }
      expect(isEditorError(error), String(error)).to.equal(true)
      expect((error as {kind: string}).kind).to.equal('spawn')
      expect((error as Error).message).to.equal("failed to spawn editor 'no-such-editor-jp-test': not found")
      expect(readFileSync(t.path('target.txt'), 'utf8')).to.equal('original\n')
    })

    it('pins a relative program path to where jp started, not the edit cwd', async () => {
      mkdirSync(t.path('sub'))
      writeFileSync(t.path('sub', 'target.txt'), 'x\n')
      const c = config({cmd: './e-editor_cmd.sh'})
      await new TerminalEditorBackend(c.command()!, {env: c.env}).editFile({paths: ['target.txt'], cwd: t.path('sub')})
      expect(readFileSync(t.path('sub', 'target.txt'), 'utf8')).to.equal('Edited by editor_cmd\n')
    })
  })

  // The help line's "Ctrl+X to edit in NAME" (SPEC §18): the editor Ctrl+X opens, not always $EDITOR.
  describe('label(): how the prompt names the editor', () => {
    it('names editor.cmd by its program, a variable by name and program, a plugin backend by name, and none as undefined', () => {
      expect(config({cmd: 'nvim -f'}).label()).to.equal('nvim')
      expect(config({cmd: "'/opt/My Editor/ed.sh' -w"}).label()).to.equal('ed.sh')
      expect(config({cmd: {program: 'code --wait', args: [], shell: true}}).label()).to.equal('code')
      expect(config({}, {VISUAL: './e-VISUAL.sh', EDITOR: './e-EDITOR.sh'}).label()).to.equal('$VISUAL (e-VISUAL.sh)')
      expect(config({envs: ['EDITOR']}, {VISUAL: './e-VISUAL.sh', EDITOR: './e-EDITOR.sh'}).label()).to.equal('$EDITOR (e-EDITOR.sh)')
      expect(config({backend: 'vscode-remote'}, {EDITOR: './e-EDITOR.sh'}).label()).to.equal('vscode-remote')
      expect(config({}).label()).to.equal(undefined)
    })
  })
})
