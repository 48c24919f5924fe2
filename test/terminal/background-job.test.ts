// Issue 42, finding 6: `jp query -n hi > out &` in an interactive shell was
// stopped by SIGTTOU (it changed the terminal's modes from a background
// process group). A jp whose group is not the terminal's foreground group
// behaves as without a terminal, and is not stopped: started in the
// background of a real shell on a pty with `stty tostop`, it completes and
// the shell reports the job done.
import {expect} from 'chai'
import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'
import {BIN, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {spawnPty, type PtySession} from '../helpers/pty.js'
import {inBackgroundGroup} from '../../src/lib/terminal/tty.js'

describe('jp as a background job of an interactive shell (issue 42)', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let term: PtySession

  before(async () => {
    // A workspace and a model: jp has no notice to print on stderr (the
    // terminal), which `tostop` would stop as it stops any program's write.
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0', JP_CFG_ASSISTANT_MODEL_ID: 'echo/default'})
    mkdirSync(join(sb.cwd, '.jp'), {recursive: true})
    term = await spawnPty(['--norc', '--noprofile', '-i'], {file: '/bin/bash', cwd: sb.cwd, cols: 120, rows: 30, env: {...sb.env, TERM: 'xterm-256color'}})
    term.type("PS1='$ '\r")
    term.type('stty tostop\r')
    term.type("echo 'ready'\r")
    await term.waitForText(/^ready$/m, 20_000)
  })
  after(() => {
    term?.dispose()
    sb?.cleanup()
  })

  it('runs to the end as a non-interactive query, and the shell reports it Done (not Stopped)', async () => {
    const out = join(sb.dir, 'out.txt')
    term.type(`${process.execPath} ${BIN} query -n hello-from-bg > ${out} & wait $!; echo "exit=$?"; jobs; echo 'end'\r`)
    await term.waitForText(/^end$/m, 40_000)
    const screen = term.screenText()
    expect(screen, screen).to.match(/^exit=0$/m)
    expect(screen).not.to.match(/Stopped/)
    expect(readFileSync(out, 'utf8')).to.include('hello-from-bg')
  })

  it('a foreground test process is not taken for a background job', () => {
    // The suite itself runs in the foreground of its terminal, or has none.
    expect(inBackgroundGroup()).to.equal(false)
  })
})
