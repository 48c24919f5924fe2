// Ctrl+L in a real pseudo-terminal: the reply is drawn again at the top of a
// cleared screen (the painter's frame, not bytes the prompt writes itself),
// and editing goes on from there.
import {expect} from 'chai'
import {fixture, keys, ptyTestContext, spawnPty, TSX} from '../../helpers/pty.js'

describe('inlineReply Ctrl+L (pty)', function () {
  this.timeout(30_000)
  const ctx = ptyTestContext()

  for (const editMode of ['emacs', 'vi'] as const) {
    it(`${editMode}: clears the screen and redraws the prompt on its first row, cursor in place; typing continues`, async () => {
      const {tmp} = ctx
      const term = (ctx.term = await spawnPty(['-c', 'echo above-one; echo above-two; "$NODE" --import "$TSX" "$FIX" "$ARG"'], {
        file: '/bin/sh',
        cwd: tmp.dir,
        env: {JP_TEST_DIR: tmp.dir, NODE: process.execPath, TSX, FIX: fixture('reply.ts'), ARG: JSON.stringify({message: 'Reply:', editMode})},
      }))
      await term.waitForText('Reply:')
      await term.settle(100)
      term.type('abc')
      await term.waitForText('Reply: abc')
      expect(term.screen()[2]).to.equal('Reply: abc')
      term.markOutput()
      term.send('\x0c')
      await term.waitFor(() => term.screen()[0] === 'Reply: abc', 'the prompt on the first row')
      expect(term.screenText()).to.not.contain('above-one')
      expect(term.outputSinceMark().startsWith('\x1b[H\x1b[2J')).to.equal(true)
      expect(term.cursor()).to.deep.equal({x: 10, y: 0})
      term.send('d' + keys.enter)
      await term.waitForExit()
      expect(JSON.parse(tmp.read('result.json'))).to.deep.equal({type: 'submit', text: 'abcd'})
    })
  }
})
