// Ctrl+R against GNU readline: every case's history and key bytes were typed
// into bash `read -e` in a real pseudo-terminal by
// fixtures/gen-readline-search.mjs, which recorded the screen, the cursor and
// the accepted line. Here the same bytes go through KeyDecoder →
// ReplySession (emacs keymap, the search, the line editor), the view is laid
// out by the prompt's own frame builder, and Enter accepts.
// fixtures/check-readline-search-tmux.mjs types the same cases into bash in
// tmux and checks that tmux shows what the fixture says (31 of 31 with
// tmux 3.3a, bash 5.2.15).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {readFileSync} from 'node:fs'

import {KeyDecoder} from '../../../src/lib/inquire/keys.js'
import {buildFrame, TOP} from '../../../src/lib/inquire/render/frame.js'
import {BufferLayout} from '../../../src/lib/inquire/render/buffer-layout.js'
import {ReplySession} from '../../../src/lib/inquire/reply-session.js'

interface SearchCase {
  name: string
  history: string[]
  keys: string
  screen: string[]
  cursor: {x: number; y: number}
  result: string
}

const fixture = JSON.parse(readFileSync(new URL('fixtures/readline-search.json', import.meta.url), 'utf8')) as {generatedBy: string; cases: SearchCase[]}

/** What jp shows after the keys: rows as readline draws them (continuation rows without jp's "… " prefix) and the cursor. */
function drive(c: SearchCase): {screen: string[]; cursor: {x: number; y: number}; result: string} {
  const session = new ReplySession({history: c.history, searchMemory: {}})
  const decoder = new KeyDecoder()
  for (const key of [...decoder.feed(c.keys), ...decoder.flush()]) session.handle(key)
  const view = session.view()
  // readline's prompt for this case is "> "; jp's frame puts one space after the message.
  const frame = buildFrame({message: view.searchPrompt ?? '>', text: view.text, cursor: view.cursor, width: 200, height: 50, color: false}, new BufferLayout(), TOP, false)
  const screen = frame.rows.map((r, i) => (i === 0 ? r : r.replace(/^… /, '')).trimEnd())
  const cursor = {x: frame.cursorRow === 0 ? frame.cursorCol : frame.cursorCol - 2, y: frame.cursorRow}
  const [enter] = new KeyDecoder().feed('\r')
  const end = session.handle(enter)
  expect(end.type, 'Enter submits').to.equal('submit')
  return {screen, cursor, result: session.editor.text}
}

describe(`Ctrl+R history search matches readline (${fixture.generatedBy})`, () => {
  it('has at least 12 cases', () => {
    expect(fixture.cases.length).to.be.at.least(12)
  })
  for (const c of fixture.cases) {
    it(`${c.name}: ${JSON.stringify(c.screen[0])} → ${JSON.stringify(c.result)}`, () => {
      // xterm keeps the spaces readline wrote at a row's end; jp writes none there.
      expect(drive(c)).to.deep.equal({screen: c.screen.map((r) => r.trimEnd()), cursor: c.cursor, result: c.result})
    })
  }
})
