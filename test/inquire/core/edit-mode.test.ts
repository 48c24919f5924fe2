// Every binding of the emacs and vi keymaps (SPEC §6), driven through real
// decoded key bytes so the decoder and keymap agree on key names.
import {expect} from 'chai'
import {describe, it} from 'mocha'

import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import {createEditMode, type EditAction, type EditModeHandler} from '../../../src/lib/inquire/edit-mode/index.js'
import {KeyDecoder} from '../../../src/lib/inquire/keys.js'

function ed(marked: string): LineEditor {
  const i = marked.indexOf('|')
  return new LineEditor(marked.slice(0, i) + marked.slice(i + 1), i)
}

function show(e: LineEditor): string {
  return e.text.slice(0, e.cursor) + '|' + e.text.slice(e.cursor)
}

/** Sends raw bytes; returns the action types produced. */
function press(mode: EditModeHandler, editor: LineEditor, bytes: string): string[] {
  const d = new KeyDecoder()
  return [...d.feed(bytes), ...d.flush()].map((k) => mode.handle(k, editor).type)
}

function run(modeName: 'emacs' | 'vi', marked: string, bytes: string, opts = {editorEscape: true}): {text: string; actions: string[]; mode: EditModeHandler} {
  const mode = createEditMode(modeName, opts)
  const e = ed(marked)
  const actions = press(mode, e, bytes)
  return {text: show(e), actions, mode}
}

const E = '\x1b'

describe('emacs keymap', () => {
  const edits: Array<[string, string, string, string]> = [
    // [name, before, keys, after]
    ['Ctrl+A', 'ab\ncd|', '\x01', 'ab\n|cd'],
    ['Home', 'ab\ncd|', E + '[H', 'ab\n|cd'],
    ['Ctrl+E', 'a|b\ncd', '\x05', 'ab|\ncd'],
    ['End', 'a|b\ncd', E + '[F', 'ab|\ncd'],
    ['Ctrl+B', 'ab|', '\x02', 'a|b'],
    ['Left', 'ab|', E + '[D', 'a|b'],
    ['Ctrl+F', '|ab', '\x06', 'a|b'],
    ['Right', '|ab', E + '[C', 'a|b'],
    ['Alt+B', 'foo bar|', E + 'b', 'foo |bar'],
    ['Ctrl+Left', 'foo bar|', E + '[1;5D', 'foo |bar'],
    ['Alt+F', '|foo bar', E + 'f', 'foo| bar'],
    ['Ctrl+Right', '|foo bar', E + '[1;5C', 'foo| bar'],
    ['Alt+<', 'a\nb|', E + '<', '|a\nb'],
    ['Alt+>', '|a\nb', E + '>', 'a\nb|'],
    ['Backspace', 'ab|', '\x7f', 'a|'],
    ['Ctrl+H', 'ab|', '\x08', 'a|'],
    ['Delete', '|ab', E + '[3~', '|b'],
    ['Ctrl+D', '|ab', '\x04', '|b'],
    ['Ctrl+W', 'a foo.bar|', '\x17', 'a |'],
    ['Alt+Backspace', 'a foo.bar|', E + '\x7f', 'a foo.|'],
    ['kitty Alt+Backspace', 'a foo.bar|', E + '[127;3u', 'a foo.|'],
    ['Alt+D', '|foo bar', E + 'd', '| bar'],
    ['Ctrl+Delete', '|foo bar', E + '[3;5~', '| bar'],
    ['Ctrl+K', 'a|bc\nd', '\x0b', 'a|\nd'],
    ['Ctrl+U', 'x\nab|c', '\x15', 'x\n|c'],
    ['Ctrl+Y', 'ab|', '\x15\x19\x19', 'abab|'],
    ['Ctrl+T', 'ab|', '\x14', 'ba|'],
    ['Alt+U', '|ab cd', E + 'u', 'AB| cd'],
    ['Alt+L', '|AB cd', E + 'l', 'ab| cd'],
    ['Alt+C', '|ab cd', E + 'c', 'Ab| cd'],
    ['Ctrl+_ undo', 'ab|', 'cd\x1f', 'ab|'],
    ['Ctrl+Z undo', 'ab|', 'cd\x1a', 'ab|'],
    // Ctrl+G opens the editor (SPEC §18); redo is Ctrl+Alt+_ (emacs 28's C-M-_) and kitty's Ctrl+Shift+Z.
    ['Ctrl+Alt+_ redo', 'ab|', 'cd\x1f' + E + '\x1f', 'abcd|'],
    ['Ctrl+Shift+Z (kitty) redo', 'ab|', 'cd\x1f' + E + '[122;6u', 'abcd|'],
    ['typing', '|', 'héllo 👍', 'héllo 👍|'],
    ['Shift+Enter (kitty)', 'ab|', E + '[13;2u', 'ab\n|'],
    ['Alt+Enter', 'ab|', E + '\r', 'ab\n|'],
    ['Ctrl+J', 'ab|', '\n', 'ab\n|'],
    ['bracketed paste, verbatim with newlines', 'a|b', E + '[200~x\r\ny\rz' + E + '[201~', 'ax\ny\nz|b'],
    ['Up inside a buffer', 'ab\ncd|', E + '[A', 'ab|\ncd'],
    ['Down inside a buffer', 'a|b\ncd', E + '[B', 'ab\nc|d'],
    ['Ctrl+P / Ctrl+N inside a buffer', 'ab\ncd|', '\x10', 'ab|\ncd'],
  ]
  for (const [name, before, keys, after] of edits) {
    it(`${name}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`, () => {
      expect(run('emacs', before, keys).text).to.equal(after)
    })
  }

  it('Alt+Y replaces the yank with the older kill', () => {
    // Kill "two", move (so the next kill is a new entry), kill "one", go to
    // the end, yank ("one") and pop to the older entry ("two").
    expect(run('emacs', 'one two|', '\x17\x02\x17\x05\x19').text).to.equal(' one|')
    expect(run('emacs', 'one two|', '\x17\x02\x17\x05\x19' + E + 'y').text).to.equal(' two|')
  })

  const actions: Array<[string, string, string, string[]]> = [
    ['Enter submits', 'ab|', '\r', ['submit']],
    ['Enter submits an empty buffer', '|', '\r', ['submit']],
    ['kitty Enter submits', 'ab|', E + '[13u', ['submit']],
    ['Ctrl+C cancels', 'ab|', '\x03', ['cancel']],
    ['kitty Ctrl+C cancels', 'ab|', E + '[99;5u', ['cancel']],
    ['Ctrl+D on an empty buffer cancels', '|', '\x04', ['cancel']],
    ['Ctrl+D at the end of a non-empty buffer does nothing', 'ab|', '\x04', ['none']],
    ['Ctrl+X opens the editor', 'ab|', '\x18', ['open-editor']],
    ['kitty Ctrl+X opens the editor', 'ab|', E + '[120;5u', ['open-editor']],
    ['Ctrl+G opens the editor', 'ab|', '\x07', ['open-editor']],
    ['Ctrl+R starts a history search', 'ab|', '\x12', ['history-search']],
    ['Esc is unbound', 'ab|', E, ['none']],
    ['kitty Esc is unbound', 'ab|', E + '[27u', ['none']],
    ['Ctrl+Q is unbound', 'ab|', '\x11', ['none']],
    ['Ctrl+L redraws', 'ab|', '\x0c', ['redraw']],
    ['Up on the first line walks history', 'ab|\ncd', E + '[A', ['history-prev']],
    ['Down on the last line walks history', 'ab\nc|d', E + '[B', ['history-next']],
    ['typing reports changed', '|', 'x', ['changed']],
    ['a motion reports moved', 'ab|', '\x02', ['moved']],
    ['Backspace at the start reports none', '|ab', '\x7f', ['none']],
  ]
  for (const [name, before, keys, expected] of actions) {
    it(name, () => {
      const r = run('emacs', before, keys)
      expect(r.actions).to.deep.equal(expected)
      if (!expected.includes('changed') && !expected.includes('moved')) expect(r.text).to.equal(before)
    })
  }

  it('Ctrl+X is unbound when editorEscape is false', () => {
    const r = run('emacs', 'ab|', '\x18', {editorEscape: false})
    expect(r.actions).to.deep.equal(['none'])
    expect(r.text).to.equal('ab|')
  })

  it('Ctrl+G does nothing when editorEscape is false', () => {
    expect(run('emacs', 'ab|', '\x07', {editorEscape: false}).actions).to.deep.equal(['none'])
  })

  it('has a bar cursor', () => {
    expect(createEditMode('emacs').cursorShape).to.equal('bar')
  })

  it('a redraw between kills starts a new kill-ring entry (readline)', () => {
    const mode = createEditMode('emacs')
    const e = ed('one two|')
    press(mode, e, '\x17\x0c\x17')
    expect(e.killRingSize).to.equal(2)
  })
})

describe('vi keymap', () => {
  it('starts in insert mode with a bar cursor; Esc switches to normal with a block cursor', () => {
    const mode = createEditMode('vi')
    const e = ed('|')
    expect(mode.cursorShape).to.equal('bar')
    press(mode, e, 'abc' + E)
    expect(mode.cursorShape).to.equal('block')
    expect(show(e)).to.equal('ab|c')
    press(mode, e, 'i')
    expect(mode.cursorShape).to.equal('bar')
  })

  // [name, before, keys typed after Esc, after] — every case starts in normal mode via Esc.
  const normal: Array<[string, string, string, string]> = [
    ['h', 'abc|', 'h', 'a|bc'],
    ['h stops at the line start', 'x\n|abc', 'hh', 'x\n|abc'],
    ['l', '|abc', '0l', 'a|bc'],
    ['l stops on the last char', 'ab|c', 'll', 'ab|c'],
    ['j', 'ab|c\ndef', '0j', 'abc\n|def'],
    ['k', 'abc\nde|f', '0k', '|abc\ndef'],
    ['w', 'foo.bar baz|', '0w', 'foo|.bar baz'],
    ['w twice', 'foo.bar baz|', '0ww', 'foo.|bar baz'],
    ['b', 'foo bar|', 'b', 'foo |bar'],
    ['e', 'foo bar|', '0e', 'fo|o bar'],
    ['e to the next word', 'foo bar|', '0ee', 'foo ba|r'],
    ['0', 'ab\ncd|', '0', 'ab\n|cd'],
    ['$', 'ab|c', '0$', 'ab|c'],
    ['^', '  ab|c', '^', '  |abc'],
    ['x', 'ab|c', '0x', '|bc'],
    ['x on a grapheme', 'a👨‍👩‍👧|', 'x', '|a'],
    ['dd', 'one\ntwo|\nthree', 'dd', 'one\n|three'],
    ['dd on the last line', 'one\ntwo|', 'dd', '|one'],
    ['dd on the only line', 'one|', 'dd', '|'],
    ['dw', 'foo bar baz|', '0dw', '|bar baz'],
    ['dw keeps the newline', 'foo\nbar|', 'k0dw', '|\nbar'],
    ['db', 'foo bar|', 'db', 'foo |r'],
    ['d$', 'foo bar|', '0wd$', 'foo| '],
    ['D', 'foo bar|', 'bD', 'foo| '],
    ['p after x (cursor on the put text)', 'abc|', '0xp', 'b|ac'],
    ['P', 'abc|', '0xP', '|abc'],
    ['dd then p puts the line below', 'one\ntwo|', 'kddp', 'two\n|one'],
    ['u undoes', 'abc|', 'xu', 'ab|c'],
    ['Ctrl+R redoes', 'abc|', 'xu\x12', 'a|b'],
  ]
  for (const [name, before, keys, after] of normal) {
    it(`normal ${name}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`, () => {
      const mode = createEditMode('vi')
      const e = ed(before)
      press(mode, e, E)
      press(mode, e, keys)
      expect(show(e)).to.equal(after)
      expect(mode.cursorShape).to.equal('block')
    })
  }

  const toInsert: Array<[string, string, string, string]> = [
    ['i', 'abc|', 'iX', 'abX|c'],
    ['a', 'abc|', '0aX', 'aX|bc'],
    ['A', 'abc|', '0AX', 'abcX|'],
    ['I', '  abc|', 'IX', '  X|abc'],
    ['o', 'ab|\ncd', 'oX', 'ab\nX|\ncd'],
    ['O', 'ab\ncd|', 'OX', 'ab\nX|\ncd'],
    ['cw', 'foo bar|', '0cwX', 'X| bar'],
    ['cw mid word', 'foo bar|', '0lcwX', 'fX| bar'],
    ['cc', 'ab\ncd|', 'ccX', 'ab\nX|'],
    ['C', 'abcd|', '0lCX', 'aX|'],
  ]
  for (const [name, before, keys, after] of toInsert) {
    it(`${name} enters insert mode: ${JSON.stringify(before)} → ${JSON.stringify(after)}`, () => {
      const mode = createEditMode('vi')
      const e = ed(before)
      press(mode, e, E)
      press(mode, e, keys)
      expect(show(e)).to.equal(after)
      expect(mode.cursorShape).to.equal('bar')
    })
  }

  for (const state of ['insert', 'normal'] as const) {
    const prefix = state === 'normal' ? E : ''
    const both: Array<[string, string, string]> = [
      ['Enter submits', '\r', 'submit'],
      ['Ctrl+C cancels', '\x03', 'cancel'],
      ['Ctrl+X opens the editor', '\x18', 'open-editor'],
    ]
    for (const [name, keys, action] of both) {
      it(`${state} mode: ${name}`, () => {
        const mode = createEditMode('vi')
        const e = ed('ab|')
        press(mode, e, prefix)
        expect(press(mode, e, keys)).to.deep.equal([action])
      })
    }
    it(`${state} mode: Shift+Enter and Alt+Enter insert a newline`, () => {
      const mode = createEditMode('vi')
      const e = ed('ab|')
      press(mode, e, prefix)
      press(mode, e, E + '[13;2u')
      press(mode, e, E + '\r')
      expect(e.text.split('\n')).to.have.length(3)
    })
    it(`${state} mode: Ctrl+X unbound without editorEscape`, () => {
      const mode = createEditMode('vi', {editorEscape: false})
      const e = ed('ab|')
      press(mode, e, prefix)
      expect(press(mode, e, '\x18')).to.deep.equal(['none'])
    })
  }

  it("normal mode: Alt+Enter puts the newline after the cursor's character, as vim's a (l1 Esc Alt+Enter l2)", () => {
    const mode = createEditMode('vi')
    const e = ed('|')
    press(mode, e, 'l1')
    press(mode, e, E)
    press(mode, e, E + '\r')
    expect(mode.cursorShape).to.equal('bar')
    press(mode, e, 'l2')
    expect(show(e)).to.equal('l1\nl2|')
  })

  it("normal mode: Shift+Enter mid line splits after the cursor's character", () => {
    const mode = createEditMode('vi')
    const e = ed('abc|')
    press(mode, e, E)
    press(mode, e, '0' + E + '[13;2u')
    expect(show(e)).to.equal('a\n|bc')
  })

  it('k on the first line and j on the last walk history in normal mode', () => {
    const mode = createEditMode('vi')
    const e = ed('ab|')
    press(mode, e, E)
    expect(press(mode, e, 'k')).to.deep.equal(['history-prev'])
    expect(press(mode, e, 'j')).to.deep.equal(['history-next'])
  })

  it('Esc in normal mode cancels a pending operator', () => {
    const mode = createEditMode('vi')
    const e = ed('abc|')
    press(mode, e, E + 'd' + E)
    press(mode, e, 'x')
    expect(e.text).to.equal('ab')
  })

  it('insert mode keeps the emacs editing keys', () => {
    const mode = createEditMode('vi')
    const e = ed('|')
    const actions: EditAction['type'][] = press(mode, e, 'foo bar\x17') as EditAction['type'][]
    expect(actions.at(-1)).to.equal('changed')
    expect(e.text).to.equal('foo ')
  })
})
