// The channels on a real terminal: prompts on /dev/tty even when stdout and
// stderr are redirected; model text sanitized on the terminal, raw in a file;
// restore sequences on the terminal only.
import {expect} from 'chai'
import {fileURLToPath} from 'node:url'

import {shQuote, spawnPty, tempDir, TSX} from '../helpers/pty.js'

const FIXTURE = fileURLToPath(new URL('./fixtures/channels.ts', import.meta.url))
const SIGNALS = fileURLToPath(new URL('../fixtures/signals/router-child.ts', import.meta.url))
const node = `${shQuote(process.execPath)} --import ${shQuote(TSX)}`

describe('printer channels in a pseudo-terminal', () => {
  it('keeps prompts on the tty when stdout and stderr go to files; stdout gets the model text unaltered', async () => {
    const t = tempDir()
    try {
      const s = await spawnPty(['-c', `${node} ${shQuote(FIXTURE)} > ${shQuote(t.file('out'))} 2> ${shQuote(t.file('err'))}`], {file: '/bin/sh'})
      const status = await s.waitForExit()
      expect(status.exitCode).to.equal(0)
      expect(s.screenText()).to.contain('PROMPT-ON-TTY hasTty=true')
      expect(s.output()).to.not.contain('ANSWER')
      expect(s.output()).to.not.contain('NOTICE')
      expect(s.output()).to.contain('\u001b[?25h')
      expect(t.read('out')).to.equal('ANSWER \u001b]0;pwned-title\u0007with\u001b[2J \u001b[32mgreen\u001b[0m end\r\n')
      expect(t.read('err')).to.equal('NOTICE-ON-STDERR\n')
      s.dispose()
    } finally {
      t.cleanup()
    }
  })

  it('sanitizes the model text shown on the terminal, keeping colour', async () => {
    const s = await spawnPty(['--import', TSX, FIXTURE])
    expect((await s.waitForExit()).exitCode).to.equal(0)
    expect(s.screenText()).to.contain('ANSWER with green end')
    expect(s.screenText()).to.contain('NOTICE-ON-STDERR')
    expect(s.output()).to.not.contain('pwned-title')
    expect(s.output()).to.not.contain('\u001b[2J')
    expect(s.output()).to.contain('\u001b[32mgreen\u001b[0m')
    s.dispose()
  })

  it('a real Ctrl+C on the terminal reaches the handler, a second escalates, and the terminal is restored', async () => {
    const s = await spawnPty(['--import', TSX, SIGNALS, 'handler'])
    await s.waitForText('ready')
    s.send('\u0003')
    await s.waitForText('handler 1')
    s.send('\u0003')
    const status = await s.waitForExit()
    expect(status.exitCode).to.equal(130)
    expect(s.screenText()).to.contain('cleanup saved')
    // The restore sequences went to the terminal: cursor shown, paste off, kitty popped.
    expect(s.output()).to.contain('\u001b[?25h\u001b[?2004l\u001b[<u')
    s.dispose()
  })
})
