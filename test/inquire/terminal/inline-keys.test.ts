// The inline reply's keys in a real pseudo-terminal (issue 24): Ctrl+R drawn
// and behaving as readline's, Ctrl+G opening the editor, the help line naming
// only keys that work (and the editor Ctrl+X opens), vi mode's newline and
// per-mode Enter, and user bindings from `editor.inline.keys`.
import {expect} from 'chai'
import {fixture, keys, ptyTestContext, spawnPty, tsxArgs, type PtyOptions, type PtySession} from '../../helpers/pty.js'

describe('inline reply keys (pty)', function () {
  this.timeout(30_000)
  const ctx = ptyTestContext()

  async function run(config: Record<string, unknown>, opts: PtyOptions = {}): Promise<PtySession> {
    const term = (ctx.term = await spawnPty(tsxArgs(fixture('reply.ts'), JSON.stringify(config)), {...opts, env: {JP_TEST_DIR: ctx.tmp.dir, ...opts.env}}))
    await term.waitForText(String(config.message ?? 'Reply:'))
    await term.settle(100)
    return term
  }

  async function outcome(t: PtySession): Promise<unknown> {
    await t.waitForExit()
    return JSON.parse(ctx.tmp.read('result.json'))
  }

  const history = ['git commit -m fix', 'git checkout main', 'git push']

  describe('Ctrl+R', () => {
    it("draws readline's (reverse-i-search)`TEXT': MATCH on the prompt's line, older on Ctrl+R, and Enter submits the match", async () => {
      const t = await run({message: 'Reply:', history})
      t.send(keys.ctrl('r'))
      await t.waitForText("(reverse-i-search)`': ")
      expect(t.screen()[0].trimEnd()).to.equal("(reverse-i-search)`':")
      expect(t.screen()[1]).to.equal('Ctrl+R for older · Enter to send · Esc to go back')
      t.type('git')
      await t.waitForText("(reverse-i-search)`git': git push")
      // The cursor sits on the match, as readline puts it.
      expect(t.cursor()).to.deep.equal({x: "(reverse-i-search)`git': ".length, y: 0})
      t.send(keys.ctrl('r'))
      await t.waitForText("(reverse-i-search)`git': git checkout main")
      t.send(keys.ctrl('r') + keys.ctrl('r'))
      await t.waitForText("(failed reverse-i-search)`git': git commit -m fix")
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'git commit -m fix'})
      expect(t.screen()[0]).to.equal('Reply: git commit -m fix')
    })

    it('Esc gives back the buffer and the cursor exactly, and the prompt line', async () => {
      const t = await run({message: 'Reply:', history, initialText: 'my draft'})
      t.send(keys.left + keys.left)
      await t.waitFor(() => t.cursor().x === 'Reply: my dra'.length, 'cursor moved')
      t.send(keys.ctrl('r') + 'push')
      await t.waitForText("(reverse-i-search)`push': git push")
      t.send(keys.escape)
      await t.waitForText('Reply: my draft')
      expect(t.cursor()).to.deep.equal({x: 'Reply: my dra'.length, y: 0})
      expect(t.screen()[1]).to.equal('Enter to send · Alt+Enter for newline · Ctrl+X to edit in $EDITOR')
      t.send('X' + keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'my draXft'})
    })

    it('Ctrl+G also gives back the buffer; Ctrl+C backs out of the search first, then cancels', async () => {
      const t = await run({message: 'Reply:', history, initialText: 'draft'})
      t.send(keys.ctrl('r') + 'main')
      await t.waitForText("(reverse-i-search)`main': git checkout main")
      t.send(keys.ctrl('g'))
      await t.waitForText('Reply: draft')
      t.send(keys.ctrl('r') + 'main')
      await t.waitForText("(reverse-i-search)`main': git checkout main")
      t.send(keys.ctrlC)
      await t.waitForText('Reply: draft')
      t.send(keys.ctrlC)
      expect(await outcome(t)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: 'draft'})
    })

    it('another editing key takes the match and acts on it (Ctrl+A then typing)', async () => {
      const t = await run({message: 'Reply:', history})
      t.send(keys.ctrl('r') + 'push')
      await t.waitForText("`push': git push")
      t.send(keys.ctrlA + 'X')
      await t.waitForText('Reply: Xgit push')
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'Xgit push'})
    })

    it('a multi-line entry is shown and taken whole', async () => {
      const t = await run({message: 'Reply:', history: ['first\nsecond line', 'other']})
      t.send(keys.ctrl('r') + 'sec')
      await t.waitForText("(reverse-i-search)`sec': first")
      expect(t.screen().slice(0, 2)).to.deep.equal(["(reverse-i-search)`sec': first", '… second line'])
      expect(t.cursor()).to.deep.equal({x: 2, y: 1})
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'first\nsecond line'})
    })

    it("searches this conversation's entries first, then the older ones (the workspace's)", async () => {
      const t = await run({message: 'Reply:', history: ['mine: deploy'], olderEntries: ['theirs: deploy staging']})
      t.send(keys.ctrl('r') + 'deploy')
      await t.waitForText("`deploy': mine: deploy")
      t.send(keys.ctrl('r'))
      await t.waitForText("`deploy': theirs: deploy staging")
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'theirs: deploy staging'})
    })

    it('finds a draft cancelled with Ctrl+C at the previous prompt', async () => {
      const t = await run({message: 'Reply:', repeat: 2, history: ['old one']})
      t.send('unsent idea' + keys.ctrlC)
      await t.waitFor(() => t.screen().filter((l) => l.startsWith('Reply:')).length === 2, 'second prompt')
      await t.settle()
      t.send(keys.ctrl('r') + 'idea')
      await t.waitForText("`idea': unsent idea")
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal([{type: 'cancelled', reason: 'interrupted', text: 'unsent idea'}, {type: 'submit', text: 'unsent idea'}])
    })
  })

  describe('Ctrl+G and the help line', () => {
    it('Ctrl+G opens the editor like Ctrl+X', async () => {
      const t = await run({message: 'Reply:', initialText: 'to edit'})
      t.send(keys.ctrl('g'))
      expect(await outcome(t)).to.deep.equal({type: 'open-editor', currentText: 'to edit'})
    })

    it('names the editor Ctrl+X opens', async () => {
      const t = await run({message: 'Reply:', editorName: '$VISUAL (nvim)'})
      expect(t.screen()[1]).to.equal('Enter to send · Alt+Enter for newline · Ctrl+X to edit in $VISUAL (nvim)')
      t.send(keys.enter)
      await outcome(t)
    })

    it('without the editor escape, neither Ctrl+X nor Ctrl+G is offered or bound', async () => {
      const t = await run({message: 'Reply:', editorEscape: false})
      expect(t.screenText()).to.not.contain('Ctrl+X').and.not.contain('Ctrl+G')
      t.send('a' + keys.ctrl('g') + keys.ctrlX + 'b' + keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'ab'})
    })

    it('names the keys as bound: Enter for newline and Alt+Enter to send', async () => {
      const t = await run({message: 'Reply:', keys: {emacs: {enter: 'newline', 'alt-enter': 'submit', 'ctrl-x': 'none'}}})
      expect(t.screen()[1]).to.equal('Alt+Enter to send · Enter for newline · Ctrl+G to edit in $EDITOR')
      t.send('one' + keys.enter + 'two')
      await t.waitForText('… two')
      t.send(keys.altEnter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'one\ntwo'})
    })
  })

  describe('vi mode', () => {
    it("Alt+Enter in normal mode puts the newline after the cursor's character, as vim's a (l1 Esc Alt+Enter l2)", async () => {
      const t = await run({message: 'Reply:', editMode: 'vi'})
      t.type('l1')
      await t.waitForText('Reply: l1')
      t.send(keys.escape)
      await t.waitForText('vi normal')
      t.send(keys.altEnter)
      await t.waitForText('vi insert')
      t.type('l2')
      await t.waitForText('… l2')
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'l1\nl2'})
    })

    it("Enter's meaning per vi mode is bindable: newline in insert mode, submit in normal mode", async () => {
      const t = await run({message: 'Reply:', editMode: 'vi', keys: {vi_insert: {enter: 'newline', 'alt-enter': 'submit'}}})
      expect(t.screen()[1]).to.equal('Alt+Enter to send · Enter for newline · Ctrl+X to edit in $EDITOR · vi insert')
      t.send('one' + keys.enter + 'two')
      await t.waitForText('… two')
      t.send(keys.escape)
      await t.waitForText('vi normal')
      // Normal mode kept its own table.
      expect(t.screen().at(-1) === '' ? t.screenText().split('\n').at(-1) : t.screen().at(-1)).to.equal('Enter to send · Alt+Enter for newline · Ctrl+X to edit in $EDITOR · vi normal')
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'one\ntwo'})
    })

    it('Ctrl+R searches from insert mode', async () => {
      const t = await run({message: 'Reply:', editMode: 'vi', history})
      t.send(keys.ctrl('r') + 'checkout')
      await t.waitForText("(reverse-i-search)`checkout': git checkout main")
      t.send(keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'git checkout main'})
    })
  })

  describe('a bracketed paste whose end marker never comes', () => {
    it('ends after a quiet moment with its text in the buffer; the prompt goes on', async () => {
      const t = await run({message: 'Reply:'})
      t.send('\x1b[200~pasted\rtext')
      await t.waitForText('… text')
      expect(t.screen().slice(0, 2)).to.deep.equal(['Reply: pasted', '… text'])
      t.send('!' + keys.enter)
      expect(await outcome(t)).to.deep.equal({type: 'submit', text: 'pasted\ntext!'})
    })

    it('Ctrl+C ends it keeping the text, and the next Ctrl+C cancels as usual', async () => {
      const t = await run({message: 'Reply:'})
      t.send('\x1b[200~stuck paste')
      await t.settle(50)
      t.send(keys.ctrlC)
      await t.waitForText('Reply: stuck paste')
      t.send(keys.ctrlC)
      expect(await outcome(t)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: 'stuck paste'})
    })
  })
})
