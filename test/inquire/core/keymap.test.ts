// The keymap tables at work: decoded keys → chord ids → the table's action →
// EditCommands on the LineEditor, with user bindings over the defaults, two-key
// sequences, and the history search reached from a key.
import {expect} from 'chai'
import {describe, it} from 'mocha'

import type {KeyBindings} from '../../../src/lib/config/keymaps.js'
import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import {createEditMode, keyChord, type EditModeHandler} from '../../../src/lib/inquire/edit-mode/index.js'
import {KeyDecoder} from '../../../src/lib/inquire/keys.js'
import {ReplySession} from '../../../src/lib/inquire/reply-session.js'

const E = '\x1b'

function decode(bytes: string) {
  const d = new KeyDecoder()
  return [...d.feed(bytes), ...d.flush()]
}

function press(mode: EditModeHandler, editor: LineEditor, bytes: string): string[] {
  return decode(bytes).map((k) => mode.handle(k, editor).type)
}

function show(e: LineEditor): string {
  return e.text.slice(0, e.cursor) + '|' + e.text.slice(e.cursor)
}

describe('keyChord: decoded keys meet the key spec grammar', () => {
  const cases: Array<[string, string, string]> = [
    ['Ctrl+R', '\x12', 'ctrl-r'],
    ['kitty Ctrl+R', E + '[114;5u', 'ctrl-r'],
    ['Alt+Enter', E + '\r', 'alt-enter'],
    ['kitty Shift+Enter', E + '[13;2u', 'shift-enter'],
    ['Ctrl+J', '\n', 'ctrl-j'],
    ['Alt+B', E + 'b', 'alt-b'],
    ['Alt+Shift+B', E + 'B', 'alt-shift-b'],
    ['Ctrl+Alt+_', E + '\x1f', 'ctrl-alt-_'],
    ['kitty Ctrl+Shift+Z', E + '[122;6u', 'ctrl-shift-z'],
    ['Ctrl+Left', E + '[1;5D', 'ctrl-left'],
    ['Shift+Tab', E + '[Z', 'shift-tab'],
    ['Esc', E, 'escape'],
    ['Space', ' ', 'space'],
    ['Ctrl+Space', '\x00', 'ctrl-space'],
    ['A', 'A', 'A'],
    ['$', '$', '$'],
    ['F5', E + '[15~', 'f5'],
  ]
  for (const [name, bytes, chord] of cases) {
    it(`${name} → ${chord}`, () => {
      const keys = decode(bytes)
      expect(keys).to.have.length(1)
      expect(keyChord(keys[0])).to.equal(chord)
    })
  }
  it('a paste is no chord', () => {
    expect(keyChord(decode(E + '[200~x' + E + '[201~')[0])).to.equal(undefined)
  })
})

describe('user bindings over the default tables', () => {
  const make = (mode: 'emacs' | 'vi', bindings: KeyBindings) => createEditMode(mode, {bindings})

  it('vi_insert: Enter inserts a newline and Alt+Enter submits (the claude-code request)', () => {
    const mode = make('vi', {vi_insert: {enter: 'newline', 'alt-enter': 'submit'}})
    const e = new LineEditor()
    expect(press(mode, e, 'a\rb')).to.deep.equal(['changed', 'changed', 'changed'])
    expect(e.text).to.equal('a\nb')
    expect(press(mode, e, E + '\r')).to.deep.equal(['submit'])
    // Normal mode keeps its own table: Enter still submits there.
    press(mode, e, E)
    expect(press(mode, e, '\r')).to.deep.equal(['submit'])
  })

  it('vi_normal: Enter bound to newline opens a line after the cursor character', () => {
    const mode = make('vi', {vi_normal: {enter: 'newline'}})
    const e = new LineEditor()
    press(mode, e, 'l1')
    press(mode, e, E)
    press(mode, e, '\rl2')
    expect(show(e)).to.equal('l1\nl2|')
  })

  it('"none" unbinds a key', () => {
    const mode = make('emacs', {emacs: {'ctrl-z': 'none', 'ctrl-u': 'none'}})
    const e = new LineEditor('ab')
    expect(press(mode, e, 'c\x1a\x15')).to.deep.equal(['changed', 'none', 'none'])
    expect(e.text).to.equal('abc')
  })

  it('a two-key sequence: its first key waits, the second acts; Ctrl+X alone no longer opens the editor', () => {
    const mode = make('emacs', {emacs: {'ctrl-x ctrl-e': 'open_editor'}})
    const e = new LineEditor('ab')
    expect(press(mode, e, '\x18')).to.deep.equal(['none'])
    expect(press(mode, e, '\x05')).to.deep.equal(['open-editor'])
    // Ctrl+G still opens it, in one key.
    expect(press(mode, e, '\x07')).to.deep.equal(['open-editor'])
  })

  it('after a sequence key, a key that continues none acts as itself (emacs)', () => {
    const mode = make('emacs', {emacs: {'ctrl-x ctrl-e': 'open_editor'}})
    const e = new LineEditor('ab')
    press(mode, e, '\x18')
    expect(press(mode, e, 'c')).to.deep.equal(['changed'])
    expect(e.text).to.equal('abc')
  })

  it('vi_insert "j j" = vi_normal_mode: jj leaves insert mode, jx types both', () => {
    const mode = make('vi', {vi_insert: {'j j': 'vi_normal_mode'}})
    const e = new LineEditor()
    press(mode, e, 'ajx')
    expect(e.text).to.equal('ajx')
    press(mode, e, 'jj')
    expect(mode.cursorShape).to.equal('block')
    expect(show(e)).to.equal('aj|x')
  })

  it('vi_normal: an operator followed by no motion drops both keys (vi drops dx)', () => {
    const mode = createEditMode('vi')
    const e = new LineEditor('abc')
    press(mode, e, E)
    expect(press(mode, e, 'dx')).to.deep.equal(['none', 'none'])
    expect(e.text).to.equal('abc')
    press(mode, e, 'x')
    expect(e.text).to.equal('ab')
  })

  it('a user sequence in vi_normal: "g g" and "G"', () => {
    const mode = make('vi', {vi_normal: {'g g': 'move_buffer_start', G: 'move_buffer_end'}})
    const e = new LineEditor('one\ntwo\nthree')
    press(mode, e, E + '')
    press(mode, e, 'gg')
    expect(e.cursor).to.equal(0)
    press(mode, e, 'G')
    // Normal mode rests on the last character.
    expect(show(e)).to.equal('one\ntwo\nthre|e')
  })

  it('Shift falls back to the key without it, unless the Shift form is bound', () => {
    const e = new LineEditor('ab')
    const plain = createEditMode('emacs')
    press(plain, e, E + '[1;2H')
    expect(e.cursor).to.equal(0)
    const bound = make('emacs', {emacs: {'shift-home': 'move_buffer_end'}})
    press(bound, e, E + '[1;2H')
    expect(e.cursor).to.equal(2)
  })

  it('the mode names its table and bindings (the help line reads them)', () => {
    const mode = make('vi', {vi_insert: {'alt-enter': 'submit'}})
    expect(mode.table).to.equal('vi_insert')
    expect(mode.keymap.get('alt-enter')).to.equal('submit')
    press(mode, new LineEditor('x'), E)
    expect(mode.table).to.equal('vi_normal')
    expect(mode.keymap.get('alt-enter')).to.equal('newline')
  })
})

describe('ReplySession: the search from the prompt', () => {
  const keys = (s: ReplySession, bytes: string) => decode(bytes).map((k) => s.handle(k).type)

  it('Esc and Ctrl+C end the search and give back the buffer and cursor exactly (jp, not readline, for Esc)', () => {
    for (const end of [E, '\x03', '\x07']) {
      const s = new ReplySession({history: ['git push', 'git pull'], searchMemory: {}, initialText: 'draft'})
      keys(s, '\x02\x02\x12pu')
      expect(s.view()).to.deep.equal({text: 'git pull', cursor: 4, searchPrompt: "(reverse-i-search)`pu':"})
      expect(keys(s, end)).to.deep.equal(['moved'])
      expect(s.searching).to.equal(false)
      expect(s.view()).to.deep.equal({text: 'draft', cursor: 3})
    }
  })

  it('searches this conversation first, newest first, then the older (workspace) entries', () => {
    const s = new ReplySession({history: ['mine one', 'mine two'], olderHistory: () => ['other one', 'other two'], searchMemory: {}})
    keys(s, '\x12one')
    expect(s.view().text).to.equal('mine one')
    keys(s, '\x12')
    expect(s.view().text).to.equal('other one')
    keys(s, '\r')
    expect(s.editor.text).to.equal('other one')
  })

  it('older entries that arrive while searching are searched after the conversation\'s', () => {
    let older: string[] = []
    const s = new ReplySession({history: ['mine deploy'], olderHistory: () => older, searchMemory: {}})
    keys(s, '\x12deploy')
    expect(s.view().text).to.equal('mine deploy')
    older = ['theirs deploy']
    keys(s, '\x12')
    expect(s.view().text).to.equal('theirs deploy')
    keys(s, '\r')
    expect(s.editor.text).to.equal('theirs deploy')
  })

  it('a search that failed before the older entries arrived goes on into them when they do', () => {
    let older: string[] = []
    const s = new ReplySession({history: ['mine deploy'], olderHistory: () => older, searchMemory: {}})
    keys(s, '\x12deploy\x12')
    expect(s.view().searchPrompt).to.equal("(failed reverse-i-search)`deploy':")
    expect(s.olderHistoryArrived()).to.equal(false)
    older = ['theirs deploy']
    expect(s.olderHistoryArrived()).to.equal(true)
    expect(s.view()).to.deep.equal({text: 'theirs deploy', cursor: 7, searchPrompt: "(reverse-i-search)`deploy':"})
  })

  it('vi insert mode has Ctrl+R too; vi normal mode keeps Ctrl+R as redo', () => {
    const s = new ReplySession({editMode: 'vi', history: ['hello'], searchMemory: {}})
    keys(s, '\x12he')
    expect(s.searching).to.equal(true)
    keys(s, '\r')
    expect(s.editor.text).to.equal('hello')
  })

  it('a key bound to history_search by the user starts it', () => {
    const s = new ReplySession({editMode: 'vi', bindings: {vi_normal: {'/': 'history_search'}}, history: ['hello'], searchMemory: {}})
    keys(s, E)
    keys(s, '/')
    expect(s.searching).to.equal(true)
    keys(s, 'll')
    expect(s.view()).to.deep.equal({text: 'hello', cursor: 2, searchPrompt: "(reverse-i-search)`ll':"})
  })

  it('taking a match is one undo step', () => {
    const s = new ReplySession({history: ['git push'], searchMemory: {}, initialText: 'x'})
    keys(s, '\x12push\x05')
    expect(s.editor.text).to.equal('git push')
    keys(s, '\x1f')
    expect(s.editor.text).to.equal('x')
  })
})
