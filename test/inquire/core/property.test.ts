// Property tests of the key decoder and the line-editing core on random input.
//
// Invariants checked:
//  D1. The decoder never throws, whatever bytes arrive.
//  D2. A 'char' key's text never contains ESC or any C0/C1 control character
//      or DEL: escape sequences are never inserted as text.
//  D3. A 'paste' key's text never contains CR (CRLF and CR become LF).
//  D4. Chunking does not matter: splitting the same input at any code-point
//      boundaries (no flush in between) yields the same keys, up to how a
//      run of text is split into grapheme keys (we compare concatenated
//      text plus the sequence of non-text keys).
//  E1. Random key streams through the emacs and vi keymaps never throw.
//  E2. After every key the cursor is within [0, text.length] and on a
//      grapheme boundary of the text.
//  E3. Undoing enough times restores the text the editor started with.
//  E4. Every EditAction is one of the contract's types.
import {expect} from 'chai'
import fc from 'fast-check'
import {describe, it} from 'mocha'

import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import {createEditMode} from '../../../src/lib/inquire/edit-mode/index.js'
import {type Key, KeyDecoder} from '../../../src/lib/inquire/keys.js'
import {graphemeBoundaries} from '../../../src/lib/inquire/text.js'

const E = '\x1b'
const KEY_SEQUENCES = [
  '\r', '\n', '\t', '\x7f', '\x08', '\x00', '\x1f', '\x1a',
  ...Array.from({length: 26}, (_, i) => String.fromCharCode(i + 1)),
  E, E + 'b', E + 'f', E + 'd', E + 'y', E + 'u', E + 'l', E + 'c', E + '<', E + '>', E + '\x7f', E + '\r',
  E + '[A', E + '[B', E + '[C', E + '[D', E + '[1;5C', E + '[1;5D', E + '[1;3D', E + 'OA', E + 'OH',
  E + '[H', E + '[F', E + '[1~', E + '[4~', E + '[3~', E + '[3;5~', E + '[2~', E + '[5~', E + '[6~',
  E + '[13;2u', E + '[99;5u', E + '[27u', E + '[127;3u', E + '[97;5u', E + '[120;5u',
  E + '[200~a\r\nb' + E + '[201~', E + '[200~' + E + '[201~', E + '[201~', E + '[?1;2c', E + '[',
  'h', 'j', 'k', 'l', 'w', 'b', 'e', '0', '$', '^', 'x', 'X', 'd', 'c', 'p', 'P', 'u', 'i', 'a', 'A', 'I', 'o', 'O', 'D', 'C', 'S',
  ' ', '.', "'", '-', 'é', 'e\u0301', 'ß', '字', '日本', '😊', '👨‍👩‍👧‍👦', '🇯🇵', '👍🏽',
]

/** Text fragments that make interesting buffers. */
const fragment = fc.oneof(
  fc.constantFrom('foo', 'bar', ' ', '\n', '\r\n', "can't", 'café', 'e\u0301', '👨‍👩‍👧‍👦', '🇯🇵', '日本語', 'ß', '.', '  '),
  fc.string({unit: 'grapheme', maxLength: 4}),
)
const initialText = fc.array(fragment, {maxLength: 8}).map((parts) => parts.join(''))
const keyInput = fc.array(fc.oneof({weight: 5, arbitrary: fc.constantFrom(...KEY_SEQUENCES)}, {weight: 1, arbitrary: fc.string({unit: 'binary', maxLength: 6})}), {maxLength: 60})
  .map((parts) => parts.join(''))

/** Splits `s` at code-point boundaries chosen by `cuts`. */
function chunk(s: string, cuts: number[]): string[] {
  const cps = Array.from(s)
  const points = [...new Set(cuts.map((c) => c % (cps.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let prev = 0
  for (const p of points) {
    out.push(cps.slice(prev, p).join(''))
    prev = p
  }
  out.push(cps.slice(prev).join(''))
  return out
}

function decodeChunks(chunks: string[]): Key[] {
  const d = new KeyDecoder()
  const keys: Key[] = []
  for (const c of chunks) keys.push(...d.feed(c))
  keys.push(...d.flush())
  return keys
}

/** Keys with runs of text merged (grapheme splitting may differ by chunking). */
function normalize(keys: Key[]): string[] {
  const out: string[] = []
  let text = ''
  for (const k of keys) {
    if (k.name === 'char') {
      text += k.text
      continue
    }
    if (text) out.push('text:' + text)
    text = ''
    out.push(`${k.ctrl ? 'C-' : ''}${k.meta ? 'M-' : ''}${k.shift ? 'S-' : ''}${k.name}:${k.text ?? ''}`)
  }
  if (text) out.push('text:' + text)
  return out
}

const ACTIONS = new Set(['none', 'changed', 'moved', 'redraw', 'submit', 'cancel', 'open-editor', 'history-prev', 'history-next', 'history-search', 'complete', 'complete-next', 'complete-prev'])

describe('properties', () => {
  it('D1–D3: the decoder never throws, never emits control text, never leaves CR in a paste', () => {
    fc.assert(
      fc.property(keyInput, fc.array(fc.nat(200), {maxLength: 6}), (input, cuts) => {
        for (const k of decodeChunks(chunk(input, cuts))) {
          if (k.name === 'char') expect(k.text).to.match(/^[^\x00-\x1f\x7f-\x9f]+$/u)
          if (k.name === 'paste') expect(k.text).not.to.include('\r')
        }
      }),
      {numRuns: 500},
    )
  })

  it('D4: chunking does not change the decoded keys', () => {
    fc.assert(
      fc.property(keyInput, fc.array(fc.nat(200), {minLength: 1, maxLength: 8}), (input, cuts) => {
        expect(normalize(decodeChunks(chunk(input, cuts)))).to.deep.equal(normalize(decodeChunks([input])))
      }),
      {numRuns: 500},
    )
  })

  for (const modeName of ['emacs', 'vi'] as const) {
    it(`E1–E4 (${modeName}): random key streams keep the cursor on a boundary and undo restores the start`, () => {
      fc.assert(
        fc.property(initialText, fc.nat(100), keyInput, (text, cursor, input) => {
          const editor = new LineEditor(text, cursor)
          const mode = createEditMode(modeName)
          const keys = decodeChunks([input])
          for (const key of keys) {
            const action = mode.handle(key, editor)
            expect(ACTIONS.has(action.type)).to.equal(true)
            expect(editor.cursor).to.be.within(0, editor.text.length)
            expect(graphemeBoundaries(editor.text)).to.include(editor.cursor)
          }
          for (let i = 0; i <= keys.length + 1; i++) editor.undo()
          expect(editor.text).to.equal(text)
        }),
        {numRuns: 400},
      )
    })
  }

  it('E2 directly on LineEditor commands with random arguments', () => {
    type Op = (e: LineEditor) => unknown
    const ops: Op[] = [
      (e) => e.moveLeft(), (e) => e.moveRight(), (e) => e.moveWordLeft(), (e) => e.moveWordRight(),
      (e) => e.moveUp(), (e) => e.moveDown(), (e) => e.moveLineStart(), (e) => e.moveLineEnd(),
      (e) => e.deleteBackward(), (e) => e.deleteForward(), (e) => e.killLineEnd(), (e) => e.killLineStart(),
      (e) => e.killWordBackward(), (e) => e.killWordForward(), (e) => e.killBigWordBackward(),
      (e) => e.yank(), (e) => e.yankPop(), (e) => e.transpose(), (e) => e.upcaseWord(), (e) => e.downcaseWord(),
      (e) => e.capitalizeWord(), (e) => e.undo(), (e) => e.redo(),
    ]
    const step = fc.oneof(
      fc.nat(ops.length - 1).map((i) => ops[i]),
      fragment.map((t): Op => (e) => e.insert(t)),
      fc.nat(60).map((n): Op => (e) => e.setCursor(n)),
      fc.tuple(fc.nat(60), fc.nat(60)).map(([a, b]): Op => (e) => e.deleteRange(a, b)),
      initialText.map((t): Op => (e) => e.setText(t)),
    )
    fc.assert(
      fc.property(initialText, fc.array(step, {maxLength: 40}), (text, steps) => {
        const e = new LineEditor(text)
        for (const op of steps) {
          op(e)
          expect(graphemeBoundaries(e.text)).to.include(e.cursor)
        }
        for (let i = 0; i <= steps.length; i++) e.undo()
        expect(e.text).to.equal(text)
      }),
      {numRuns: 500},
    )
  })
})
