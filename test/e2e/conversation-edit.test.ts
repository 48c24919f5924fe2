// `jp conversation edit` on a real terminal: a broken edit asks to re-open
// the editor on /dev/tty, and the second editor run sees (and fixes) the
// user's broken text rather than a fresh copy.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {spawnPty} from '../helpers/pty.js'

const EDITOR = join(ROOT, 'test/query/fixtures/scripted-editor.sh')

describe('e2e: jp conversation edit on a terminal', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let editorDir: string
  let id: string

  beforeEach(async () => {
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    editorDir = join(sb.dir, 'editor')
    mkdirSync(editorDir)
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    expect((await runJp(['query', 'hello'], {sandbox: sb})).code).to.equal(0)
    id = readFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'utf8').trim()
  })
  afterEach(() => sb.cleanup())

  const metadataPath = () => join(sb.cwd, '.jp', 'conversations', id, 'metadata.json')
  const step = (n: number, script: string) => writeFileSync(join(editorDir, `step-${n}.sh`), script)

  async function editOnTty(answer: string): Promise<{code: number; screen: string}> {
    const term = await spawnPty([BIN, 'conversation', 'edit', '--metadata'], {
      cwd: sb.cwd,
      env: {...sb.env, JP_EDITOR: EDITOR, EDITOR_DIR: editorDir},
      cols: 200,
    })
    try {
      await term.waitForText('Re-open the editor to fix it? [y,n,?]')
      term.send(answer)
      const {exitCode} = await term.waitForExit()
      return {code: exitCode, screen: term.screenText()}
    } finally {
      term.dispose()
    }
  }

  it('invalid JSON: reports it, asks to re-open, and the second run fixes the text the first left', async () => {
    // Run 1 leaves a trailing comma; run 2 fixes exactly that text (it fails on anything else).
    step(1, `printf '{\\n  "title": "Fixed title",\\n}\\n' > "$1"\n`)
    step(2, `grep -q '"Fixed title",$' "$1" || exit 9\nsed -i 's/"Fixed title",$/"Fixed title"/' "$1"\n`)
    const r = await editOnTty('y')
    expect(r.code, r.screen).to.equal(0)
    expect(r.screen).to.include(`The edited file could not be loaded back: ${metadataPath()}:3:1: invalid JSON`)
    expect(readFileSync(join(editorDir, 'count'), 'utf8').trim()).to.equal('2')
    expect(readFileSync(metadataPath(), 'utf8')).to.equal('{\n  "title": "Fixed title"\n}\n')
  })

  // `kill -INT` / `kill -QUIT` from outside at the re-open prompt: no signal
  // router runs here, so the restore registry's stand-in restores the
  // terminal before the signal ends jp (128 + the signal, as any jp command).
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGQUIT', 131],
  ] as const) {
    it(`${signal} from outside at the re-open prompt: exit ${code}, the terminal restored (icanon echo)`, async () => {
      step(1, `printf '{ broken' > "$1"\n`)
      const [before, after, status] = ['stty-before', 'stty-after', 'status'].map((f) => join(sb.dir, f))
      const script = `stty -a > '${before}'; "$0" "$1" conversation edit --metadata; echo "exit=$?" > '${status}'; stty -a > '${after}'`
      const term = await spawnPty(['-c', script, process.execPath, BIN], {file: '/bin/sh', cwd: sb.cwd, env: {...sb.env, JP_EDITOR: EDITOR, EDITOR_DIR: editorDir}, cols: 200})
      try {
        await term.waitForText('Re-open the editor to fix it? [y,n,?]')
        await term.settle(100)
        expect(term.stty(), 'the prompt put the terminal in raw mode').to.match(/-icanon/)
        process.kill(Number(readFileSync(`/proc/${term.pid}/task/${term.pid}/children`, 'utf8').trim()), signal)
        await term.waitForExit()
        expect(readFileSync(status, 'utf8').trim()).to.equal(`exit=${code}`)
        const settled = readFileSync(after, 'utf8')
        expect(settled).to.match(/(^|\s)icanon(\s|$)/m).and.match(/(^|\s)echo(\s|$)/m)
        expect(settled).to.equal(readFileSync(before, 'utf8'))
      } finally {
        term.dispose()
      }
    })
  }

  it('answering n discards the edit and restores the file', async () => {
    const before = readFileSync(metadataPath())
    step(1, `printf '{ broken' > "$1"\n`)
    const r = await editOnTty('n')
    expect(r.code).to.equal(1)
    expect(r.screen).to.include('Error: the edit could not be loaded and was discarded; the conversation is unchanged')
    expect(existsSync(join(editorDir, 'argv-2'))).to.equal(false)
    expect(readFileSync(metadataPath())).to.deep.equal(before)
  })
})
