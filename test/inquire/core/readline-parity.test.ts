// Emacs-mode parity with GNU readline on a single line: every case's key
// bytes were typed into bash `read -e` in a real pseudo-terminal by
// fixtures/gen-readline-parity.mjs, which recorded the resulting line. Here
// the same bytes go through KeyDecoder → emacs keymap → LineEditor.
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {readFileSync} from 'node:fs'

import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import {createEditMode} from '../../../src/lib/inquire/edit-mode/index.js'
import {KeyDecoder} from '../../../src/lib/inquire/keys.js'

interface ParityCase {
  name: string
  keys: string
  expected: string
}

const fixture = JSON.parse(readFileSync(new URL('fixtures/readline-parity.json', import.meta.url), 'utf8')) as {generatedBy: string; cases: ParityCase[]}

function type(keys: string): string {
  const decoder = new KeyDecoder()
  const editor = new LineEditor()
  const mode = createEditMode('emacs')
  for (const key of [...decoder.feed(keys), ...decoder.flush()]) mode.handle(key, editor)
  return editor.text
}

describe(`emacs keymap matches readline (${fixture.generatedBy})`, () => {
  it('has a non-trivial fixture', () => {
    expect(fixture.cases.length).to.be.greaterThan(100)
  })
  for (const c of fixture.cases) {
    it(`${c.name} → ${JSON.stringify(c.expected)}`, () => {
      expect(type(c.keys)).to.equal(c.expected)
    })
  }
})
