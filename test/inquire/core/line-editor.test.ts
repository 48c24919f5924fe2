// LineEditor unit tests. Many cases are ported from reedline's own suite
// (src/core_editor/line_buffer.rs and editor.rs), with byte offsets turned
// into UTF-16 offsets and readline semantics where the SPEC picks readline
// (transpose, word motions, case commands).
import {expect} from 'chai'
import {describe, it} from 'mocha'

import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'

function at(text: string, cursor: number): LineEditor {
  return new LineEditor(text, cursor)
}

/** Renders text with a | at the cursor. */
function show(e: LineEditor): string {
  return e.text.slice(0, e.cursor) + '|' + e.text.slice(e.cursor)
}

/** Parses 'ab|cd' into an editor with the cursor at the bar. */
function ed(marked: string): LineEditor {
  const i = marked.indexOf('|')
  return new LineEditor(marked.slice(0, i) + marked.slice(i + 1), i)
}

describe('LineEditor', () => {
  describe('construction and cursor', () => {
    it('starts with the cursor at the end by default', () => {
      expect(new LineEditor('hello').cursor).to.equal(5)
    })
    it('snaps a cursor inside a grapheme to its start', () => {
      expect(new LineEditor('a👍b', 2).cursor).to.equal(1)
      expect(new LineEditor('e\u0301x', 1).cursor).to.equal(0)
      expect(new LineEditor('a\r\nb', 2).cursor).to.equal(1)
    })
    it('clamps an out-of-range cursor', () => {
      expect(new LineEditor('abc', 99).cursor).to.equal(3)
      expect(new LineEditor('abc', -4).cursor).to.equal(0)
    })
    it('setCursor snaps to a boundary', () => {
      const e = at('👨‍👩‍👧x', 0)
      e.setCursor(3)
      expect(e.cursor).to.equal(0)
    })
  })

  describe('grapheme motions and deletion', () => {
    const clusters = ['😊', '👨‍👩‍👧‍👦', '🇯🇵', 'e\u0301', 'a\u0308\u0301', '字', '🏳️‍🌈', '👍🏽']
    for (const g of clusters) {
      it(`Backspace and Delete remove ${JSON.stringify(g)} as one unit`, () => {
        const back = at(`a${g}`, 1 + g.length)
        back.deleteBackward()
        expect(show(back)).to.equal('a|')
        const del = at(`${g}b`, 0)
        del.deleteForward()
        expect(show(del)).to.equal('|b')
      })
      it(`Left and Right step over ${JSON.stringify(g)} in one move`, () => {
        const e = at(`x${g}y`, 1)
        e.moveRight()
        expect(e.cursor).to.equal(1 + g.length)
        e.moveLeft()
        expect(e.cursor).to.equal(1)
      })
    }
    it('deletes one flag of two adjacent flags', () => {
      const e = at('🇯🇵🇺🇸', 8)
      e.deleteBackward()
      expect(e.text).to.equal('🇯🇵')
    })
    it('ported: delete_left_grapheme / delete_right_grapheme', () => {
      for (const [input, expected] of [['This is a test', 'This is a tes'], ['This is a test 😊', 'This is a test '], ['', '']]) {
        const left = at(input, input.length)
        left.deleteBackward()
        expect(left.text).to.equal(expected)
        const right = at(input, input.length)
        right.moveLeft()
        right.deleteForward()
        expect(right.text).to.equal(expected)
      }
    })
    it('Backspace at a line start joins lines, CR LF as one unit', () => {
      const e = at('ab\r\ncd', 4)
      e.deleteBackward()
      expect(show(e)).to.equal('ab|cd')
      const f = at('ab\ncd', 2)
      f.deleteForward()
      expect(show(f)).to.equal('ab|cd')
    })
    it('does nothing at the buffer edges', () => {
      const e = at('ab', 0)
      expect(e.deleteBackward()).to.equal(false)
      e.moveBufferEnd()
      expect(e.deleteForward()).to.equal(false)
      expect(e.text).to.equal('ab')
    })
  })

  describe('word motion (readline alphanumeric words)', () => {
    // Every cursor position of each string → [Alt+F target, Alt+B target].
    const tables: Record<string, Array<[number, number]>> = {
      'foo.bar baz': [[3, 0], [3, 0], [3, 0], [7, 0], [7, 0], [7, 4], [7, 4], [11, 4], [11, 4], [11, 8], [11, 8], [11, 8]],
      "can't stop now": [[3, 0], [3, 0], [3, 0], [5, 0], [5, 0], [10, 4], [10, 4], [10, 6], [10, 6], [10, 6], [14, 6], [14, 6], [14, 11], [14, 11], [14, 11]],
      'café résumé': [[4, 0], [4, 0], [4, 0], [4, 0], [11, 0], [11, 0], [11, 5], [11, 5], [11, 5], [11, 5], [11, 5], [11, 5]],
    }
    for (const [text, table] of Object.entries(tables)) {
      it(`at every position of ${JSON.stringify(text)}`, () => {
        expect(table).to.have.length(text.length + 1)
        table.forEach(([right, left], pos) => {
          const r = at(text, pos)
          r.moveWordRight()
          expect(r.cursor, `Alt+F from ${pos}`).to.equal(right)
          const l = at(text, pos)
          l.moveWordLeft()
          expect(l.cursor, `Alt+B from ${pos}`).to.equal(left)
        })
      })
    }
    it('treats decomposed accents as part of the word', () => {
      const text = 'cafe\u0301 re\u0301sume\u0301'
      const e = at(text, 0)
      e.moveWordRight()
      expect(e.cursor).to.equal(5)
      e.moveBufferEnd()
      e.moveWordLeft()
      expect(e.cursor).to.equal(6)
    })
    it('crosses lines', () => {
      const e = at('one\ntwo', 3)
      e.moveWordRight()
      expect(e.cursor).to.equal(7)
      e.moveWordLeft()
      e.moveWordLeft()
      expect(e.cursor).to.equal(0)
    })
  })

  describe('kills', () => {
    it('ported: clear_to_line_end, incl. LF and CR LF', () => {
      for (const [input, output] of [['This is a test', 'This is'], ['This is a test\nunrelated', 'This is\nunrelated'], ['This is a test\r\nunrelated', 'This is\r\nunrelated']]) {
        const e = at(input, 7)
        e.killLineEnd()
        expect(show(e)).to.equal(output.slice(0, 7) + '|' + output.slice(7))
      }
    })
    it('Ctrl+K at a line end joins the next line (LF and CR LF)', () => {
      for (const input of ['ab\ncd', 'ab\r\ncd']) {
        const e = at(input, 2)
        e.killLineEnd()
        expect(show(e)).to.equal('ab|cd')
      }
    })
    it('Ctrl+K twice kills the line then its newline into one entry', () => {
      const e = at('ab\ncd\nef', 3)
      e.killLineEnd()
      e.killLineEnd()
      expect(e.text).to.equal('ab\nef')
      e.yank()
      expect(e.text).to.equal('ab\ncd\nef')
    })
    it('Ctrl+U kills to the line start only', () => {
      const e = at('one\ntwo three', 7)
      e.killLineStart()
      expect(show(e)).to.equal('one\n| three')
    })
    it('ported: delete_word_left / delete_word_right', () => {
      const l = at('This is a test', 14)
      l.killWordBackward()
      expect(l.text).to.equal('This is a ')
      const r = at('This is a test', 14)
      r.moveWordLeft()
      r.killWordForward()
      expect(r.text).to.equal('This is a ')
    })
    it('cut word left/right through contractions', () => {
      const cases: Array<[string, 'left' | 'right' | 'big', string]> = [
        ["can't stop|", 'left', "can't |"],
        ["can't| stop", 'left', 'can\'| stop'],
        ["can't| stop", 'big', '| stop'],
        ["|can't stop", 'right', "|'t stop"],
        ["can|'t stop", 'right', 'can| stop'],
        ["don't |", 'big', '|'],
        ["don't |", 'left', "don'|"],
      ]
      for (const [input, kind, expected] of cases) {
        const e = ed(input)
        if (kind === 'left') e.killWordBackward()
        else if (kind === 'right') e.killWordForward()
        else e.killBigWordBackward()
        expect(show(e), `${kind} on ${input}`).to.equal(expected)
      }
    })
    it('ported: big word left index (Ctrl+W) stops only at whitespace', () => {
      for (const [input, expected] of [['abc def ghi', 'abc def |i'], ['abc def-ghi', 'abc |i'], ['abc def.ghi', 'abc |i'], ['abc def   i', 'abc |i']]) {
        const e = at(input, 10)
        e.killBigWordBackward()
        expect(show(e)).to.equal(expected)
      }
    })
  })

  describe('kill ring', () => {
    it('consecutive forward kills append to one entry', () => {
      const e = at('one two three', 0)
      e.killWordForward()
      e.killWordForward()
      e.moveBufferEnd()
      e.yank()
      expect(e.text).to.equal(' threeone two')
      expect(e.killRingSize).to.equal(1)
    })
    it('consecutive backward kills prepend', () => {
      const e = at('one two three', 13)
      e.killBigWordBackward()
      e.killBigWordBackward()
      e.yank()
      expect(e.text).to.equal('one two three')
      expect(e.killRingSize).to.equal(1)
    })
    it('a motion between kills starts a new entry', () => {
      const e = at('one two three', 13)
      e.killBigWordBackward()
      e.moveLeft()
      e.killBigWordBackward()
      expect(e.killRingSize).to.equal(2)
    })
    it('yank-pop cycles older entries only right after a yank, and wraps', () => {
      const e = at('a b c', 5)
      for (let i = 0; i < 3; i++) {
        e.killBigWordBackward()
        e.breakChain()
        e.deleteBackward()
      }
      expect(e.text).to.equal('')
      expect(e.yankPop()).to.equal(false)
      e.yank()
      expect(e.text).to.equal('a')
      e.yankPop()
      expect(e.text).to.equal('b')
      e.yankPop()
      expect(e.text).to.equal('c')
      e.yankPop()
      expect(e.text).to.equal('a')
      e.moveLeft()
      expect(e.yankPop()).to.equal(false)
      expect(e.text).to.equal('a')
    })
    it('keeps at most 10 entries', () => {
      const e = new LineEditor()
      for (let i = 0; i < 12; i++) {
        e.insert(`w${i}`)
        e.killLineStart()
        e.breakChain()
      }
      expect(e.killRingSize).to.equal(10)
    })
    it('yank with an empty ring does nothing', () => {
      const e = at('x', 1)
      expect(e.yank()).to.equal(false)
      expect(e.text).to.equal('x')
    })
  })

  describe('transpose (readline)', () => {
    const cases: Array<[string, number, string, number]> = [
      ['This is a test', 13, 'This is a tets', 14],
      ['This is a test', 14, 'This is a tets', 14],
      ['This is a test', 4, 'Thi sis a test', 5],
      ['This is a test', 0, 'This is a test', 0],
      ['a', 1, 'a', 1],
      ['a👍', 3, '👍a', 3],
      ['x👨‍👩‍👧y', 1, '👨‍👩‍👧xy', 9],
      ['ab\ncd', 2, 'ba\ncd', 2],
      ['ab\ncd', 3, 'ab\ncd', 3],
    ]
    for (const [input, pos, output, out] of cases) {
      it(`${JSON.stringify(input)} at ${pos}`, () => {
        const e = at(input, pos)
        e.transpose()
        expect([e.text, e.cursor]).to.deep.equal([output, out])
      })
    }
  })

  describe('case commands (cursor to end of word)', () => {
    const cases: Array<['up' | 'down' | 'cap', string, number, string, number]> = [
      ['up', 'This is a test', 13, 'This is a tesT', 14],
      ['up', 'This is a test', 10, 'This is a TEST', 14],
      ['up', '', 0, '', 0],
      ['up', 'This', 0, 'THIS', 4],
      ['up', 'This', 4, 'This', 4],
      ['up', 'straße x', 0, 'STRASSE x', 7],
      ['up', 'café', 0, 'CAFÉ', 4],
      ['down', 'This is a TEST', 10, 'This is a test', 14],
      ['down', 'THIS', 0, 'this', 4],
      ['down', 'STRASSE', 0, 'strasse', 7],
      ['cap', 'this is', 0, 'This is', 4],
      ['cap', 'hELLO', 1, 'hEllo', 5],
      ['cap', 'ßtraße', 0, 'Sstraße', 7],
      ['cap', '...foo bar', 0, '...Foo bar', 6],
      ['cap', "can't", 0, "Can't", 3],
    ]
    for (const [op, input, pos, output, out] of cases) {
      it(`${op} ${JSON.stringify(input)} at ${pos}`, () => {
        const e = at(input, pos)
        if (op === 'up') e.upcaseWord()
        else if (op === 'down') e.downcaseWord()
        else e.capitalizeWord()
        expect([e.text, e.cursor]).to.deep.equal([output, out])
      })
    }
  })

  describe('lines', () => {
    it('ported: first line detection', () => {
      for (const [input, pos, expected] of [['line', 4, true], ['line 1\nline 2\nline 3', 0, true], ['line 1\nline 2\nline 3', 6, true], ['line 1\nline 2\nline 3', 8, false], ['\nabc', 0, true], ['\nabc', 1, false]] as const) {
        expect(at(input, pos).isOnFirstLine(), `${input}@${pos}`).to.equal(expected)
      }
    })
    it('ported: last line detection', () => {
      const cases = [['line', 4, true], ['line\nline', 9, true], ['line 1\nline 2\nline 3', 8, false], ['line 1\nline 2\nline 3', 13, false], ['line 1\nline 2\nline 3', 14, true], ['line 1\nline 2\nline 3', 20, true], ['line 1\nline 2\nline 3\n', 20, false], ['line 1\nline 2\nline 3\n', 21, true]] as const
      for (const [input, pos, expected] of cases) {
        expect(at(input, pos).isOnLastLine(), `${input}@${pos}`).to.equal(expected)
      }
    })
    it('ported: line end and start, CR LF aware', () => {
      const ends = [['line', 0, 4], ['line\nline', 1, 4], ['line\nline', 7, 9], ['line\n', 4, 4], ['line\n', 5, 5], ['\n', 0, 0], ['\r\n', 0, 0], ['line\r\nword', 1, 4], ['line\r\nword', 7, 10]] as const
      for (const [input, pos, expected] of ends) {
        const e = at(input, pos)
        e.moveLineEnd()
        expect(e.cursor, `end ${JSON.stringify(input)}@${pos}`).to.equal(expected)
      }
      const starts = [['', 0, 0], ['line', 3, 0], ['\n', 1, 1], ['\n', 0, 0], ['\nline', 3, 1], ['a\nb', 2, 2], ['a\nb', 3, 2], ['a\r\nb', 3, 3]] as const
      for (const [input, pos, expected] of starts) {
        const e = at(input, pos)
        e.moveLineStart()
        expect(e.cursor, `start ${JSON.stringify(input)}@${pos}`).to.equal(expected)
      }
    })
    it('ported: current line number', () => {
      const cases = [['', 0, 0], ['\n', 0, 0], ['\n', 1, 1], ['a\nb', 1, 0], ['a\nb', 2, 1], ['a\r\nb', 3, 1]] as const
      for (const [input, pos, expected] of cases) expect(at(input, pos).lineIndex).to.equal(expected)
    })
    it('buffer start and end', () => {
      const e = at('ab\ncd', 3)
      e.moveBufferStart()
      expect(e.cursor).to.equal(0)
      e.moveBufferEnd()
      expect(e.cursor).to.equal(5)
    })
  })

  describe('up/down keep the display column', () => {
    it('ported: moving up', () => {
      for (const [input, pos, out] of [['line 1\nline 2', 7, 0], ['line 1\nline 2', 8, 1], ['line\nlong line', 14, 4], ['line\nlong line', 8, 3], ['line\n\nline', 8, 5]] as const) {
        const e = at(input, pos)
        expect(e.moveUp()).to.equal(true)
        expect(e.cursor, `${JSON.stringify(input)}@${pos}`).to.equal(out)
      }
    })
    it('ported: moving down', () => {
      const cases = [['line 1\nline 2', 0, 7], ['long line\nline', 8, 14], ['long line\nline', 4, 14], ['long line\nline', 3, 13], ['long line\nline\nline', 8, 14], ['line\n\nline', 3, 5]] as const
      for (const [input, pos, out] of cases) {
        const e = at(input, pos)
        expect(e.moveDown()).to.equal(true)
        expect(e.cursor, `${JSON.stringify(input)}@${pos}`).to.equal(out)
      }
    })
    it('reports false at the first/last line and does not move', () => {
      const e = at('line 1\nline 2', 2)
      expect(e.moveUp()).to.equal(false)
      expect(e.cursor).to.equal(2)
      e.moveBufferEnd()
      expect(e.moveDown()).to.equal(false)
      expect(e.cursor).to.equal(13)
    })
    it('measures columns in cells: emoji and CJK are two wide', () => {
      const emoji = at('line 1\n😇line 2', 9) // after the emoji: column 2
      emoji.moveUp()
      expect(emoji.cursor).to.equal(2)
      const down = at('日本語\nabcdef', 3) // end of line 1: column 6
      down.moveDown()
      expect(down.cursor).to.equal(10)
      const up = at('日本語\nabcdef', 7) // column 3 lands after 日 (column 2), never inside 本
      up.moveUp()
      expect(up.cursor).to.equal(1)
      const mixed = at('ab\n日本語', 5) // column 4 → end of "ab"
      mixed.moveUp()
      expect(mixed.cursor).to.equal(2)
    })
    it('keeps the goal column across a short line', () => {
      const e = at('long line\nab\nlong line', 8)
      e.moveDown()
      expect(e.cursor).to.equal(12)
      e.moveDown()
      expect(e.cursor).to.equal(21)
      e.moveUp()
      e.moveUp()
      expect(e.cursor).to.equal(8)
    })
    it('forgets the goal column after a horizontal motion', () => {
      const e = at('long line\nab\nlong line', 8)
      e.moveDown()
      e.moveLeft()
      e.moveDown()
      expect(e.cursor).to.equal(14)
    })
  })

  describe('undo/redo', () => {
    function typeChars(e: LineEditor, s: string): void {
      for (const ch of s) e.insert(ch)
    }
    it('ported: undo insert works on word boundaries', () => {
      const e = new LineEditor('This is  a')
      typeChars(e, ' test')
      expect(e.text).to.equal('This is  a test')
      e.undo()
      expect(e.text).to.equal('This is  a')
      e.redo()
      expect(e.text).to.equal('This is  a test')
    })
    it('typing a sentence undoes one word at a time', () => {
      const e = new LineEditor()
      typeChars(e, 'hello big world')
      const seen = []
      for (let i = 0; i < 4; i++) {
        e.undo()
        seen.push(e.text)
      }
      expect(seen).to.deep.equal(['hello big', 'hello', '', ''])
    })
    it('ported: undo backspace works on word boundaries', () => {
      const e = new LineEditor('This is  a test')
      for (let i = 0; i < 6; i++) e.deleteBackward()
      expect(e.text).to.equal('This is  ')
      e.undo()
      expect(e.text).to.equal('This is  a')
      e.undo()
      expect(e.text).to.equal('This is  a test')
    })
    it('ported: undo delete works on word boundaries', () => {
      const e = at('This  is a test', 0)
      for (let i = 0; i < 7; i++) e.deleteForward()
      expect(e.text).to.equal('s a test')
      e.undo()
      expect(e.text).to.equal('is a test')
      e.undo()
      expect(e.text).to.equal('This  is a test')
    })
    it('ported: undo insert with newline', () => {
      const e = new LineEditor('This is a')
      typeChars(e, ' \n test')
      expect(e.text).to.equal('This is a \n test')
      e.undo()
      expect(e.text).to.equal('This is a \n')
      e.undo()
      expect(e.text).to.equal('This is a')
    })
    for (const nl of ['\n', '\r\n']) {
      it(`ported: undo backspace with ${JSON.stringify(nl)}`, () => {
        const e = new LineEditor(`This is a ${nl} test`)
        for (let i = 0; i < 8; i++) e.deleteBackward()
        expect(e.text).to.equal('This is ')
        e.undo()
        expect(e.text).to.equal('This is a')
        e.undo()
        expect(e.text).to.equal(`This is a ${nl}`)
        e.undo()
        expect(e.text).to.equal(`This is a ${nl} test`)
      })
      it(`ported: undo delete with ${JSON.stringify(nl)}`, () => {
        const e = at(`This ${nl} is a test`, 0)
        for (let i = 0; i < 8; i++) e.deleteForward()
        expect(e.text).to.equal('s a test')
        e.undo()
        expect(e.text).to.equal('is a test')
        e.undo()
        expect(e.text).to.equal(`${nl} is a test`)
        e.undo()
        expect(e.text).to.equal(`This ${nl} is a test`)
      })
    }
    it('restores the cursor with the text', () => {
      const e = at('hello', 2)
      e.insert('X')
      e.moveBufferEnd()
      e.undo()
      expect(show(e)).to.equal('he|llo')
    })
    it('a motion does not create an undo step but breaks the typing group', () => {
      const e = new LineEditor()
      typeChars(e, 'ab')
      e.moveLeft()
      typeChars(e, 'c')
      expect(e.text).to.equal('acb')
      e.undo()
      expect(e.text).to.equal('ab')
      e.undo()
      expect(e.text).to.equal('')
    })
    it('a paste is one undo step; a kill is one undo step', () => {
      const e = new LineEditor('x ')
      e.insert('pasted text\nwith lines')
      e.killBigWordBackward()
      e.undo()
      expect(e.text).to.equal('x pasted text\nwith lines')
      e.undo()
      expect(e.text).to.equal('x ')
    })
    it('a new edit after undo drops the redo history', () => {
      const e = new LineEditor()
      typeChars(e, 'one two')
      e.undo()
      typeChars(e, 'X')
      e.redo()
      expect(e.text).to.equal('oneX')
    })
    it('undo at the start and redo at the end do nothing', () => {
      const e = new LineEditor('init')
      e.undo()
      expect(e.text).to.equal('init')
      e.redo()
      expect(e.text).to.equal('init')
    })
    it('setText (history navigation) is undoable, consecutive ones as one step', () => {
      const e = new LineEditor('draft')
      e.setText('older')
      e.setText('oldest')
      expect(show(e)).to.equal('oldest|')
      e.undo()
      expect(e.text).to.equal('draft')
      e.redo()
      expect(e.text).to.equal('oldest')
    })
  })
})
