import {expect} from 'chai'
import fc from 'fast-check'

import {createSanitizer, sanitize} from '../../src/lib/printer/sanitize.js'

const ESC = '\u001b'
const BEL = '\u0007'
const ST = `${ESC}\\`

function pushAll(pieces: string[], keepColor = true): string {
  const s = createSanitizer({keepColor})
  return pieces.map((p) => s.push(p)).join('') + s.end()
}

/** Every way to cut `text` into two pieces, and one-character pieces. */
function allSplits(text: string): string[][] {
  const out: string[][] = [[...text]]
  for (let i = 0; i <= text.length; i++) out.push([text.slice(0, i), text.slice(i)])
  return out
}

// What is allowed to survive: printable text, \n, \t and SGR sequences.
const LEFTOVER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/
function withoutSgr(s: string): string {
  return s.replace(/\u001b\[[0-9;:]*m/g, '').replace(/[\n\t]/g, '')
}

describe('sanitize', () => {
  const cases: [string, string, string][] = [
    ['plain text with newline and tab', 'héllo\tworld\n🙂 ok', 'héllo\tworld\n🙂 ok'],
    ['SGR colour kept', `${ESC}[1;31mred${ESC}[0m`, `${ESC}[1;31mred${ESC}[0m`],
    ['SGR with colon sub-params kept', `${ESC}[38:2::10:20:30mx${ESC}[m`, `${ESC}[38:2::10:20:30mx${ESC}[m`],
    ['cursor movement dropped', `a${ESC}[2Ab${ESC}[10;5Hc${ESC}[2Jd${ESC}[K`, 'abcd'],
    ['private CSI dropped (alt screen, hide cursor, modifyOtherKeys)', `${ESC}[?1049h${ESC}[?25lx${ESC}[>4;2m`, 'x'],
    ['OSC title with BEL dropped', `${ESC}]0;pwned${BEL}after`, 'after'],
    ['OSC 8 hyperlink dropped, link text kept', `${ESC}]8;;http://evil${ST}click${ESC}]8;;${ST}`, 'click'],
    ['OSC 52 clipboard dropped', `x${ESC}]52;c;cm0gLXJmIH4=${BEL}y`, 'xy'],
    ['DCS dropped until ST (BEL does not end it)', `a${ESC}P1$r0m${BEL}still-in${ST}b`, 'ab'],
    ['an ESC inside a string aborts it and starts a new sequence, as terminals do', `a${ESC}]0;t${ESC}[2Jb${ESC}P1${ESC}[31mc`, `ab${ESC}[31mc`],
    ['SOS/PM/APC dropped', `${ESC}Xs${ST}${ESC}^p${ST}${ESC}_a${ST}ok`, 'ok'],
    ['C1 controls dropped, 8-bit CSI/OSC sequences too', `a\u009b2Jb\u009d0;t\u0007c\u0085d\u009c`, 'abcd'],
    ['8-bit DCS until 8-bit ST', `a\u0090junk\u009cb`, 'ab'],
    ['carriage return, backspace, bell, DEL dropped', 'ab\rc\bd\u0007e\u007ff\r\n', 'abcdef\n'],
    ['lone ESC at end dropped', `abc${ESC}`, 'abc'],
    ['lone ESC before text drops the ESC and its final byte', `a${ESC}7b${ESC}cc`, 'abc'],
    ['ESC before a control drops only the ESC', `a${ESC}\nb`, 'a\nb'],
    ['ESC with intermediate (charset) dropped', `a${ESC}(Bb${ESC}#8c`, 'abc'],
    ['CAN aborts a CSI', `a${ESC}[12\u0018b`, 'ab'],
    ['an over-long CSI is dropped whole', `a${ESC}[${'1;'.repeat(100)}mb`, 'ab'],
    ['a malformed CSI is dropped and the text after it kept', `a${ESC}[12\u00e9b`, 'aéb'],
  ]
  for (const [name, input, expected] of cases) {
    it(`${name}, at every split point`, () => {
      for (const pieces of allSplits(input)) {
        expect(pushAll(pieces), JSON.stringify(pieces)).to.equal(expected)
      }
    })
  }

  it('drops SGR too when colour is off (NO_COLOR)', () => {
    expect(sanitize(`${ESC}[31mred${ESC}[0m ${ESC}[2Jx`, {keepColor: false})).to.equal('red x')
  })

  it('is the same however the stream is chunked (property)', () => {
    const alphabet = fc.constantFrom('a', 'é', '🙂', '\n', '\t', '\r', ESC, '[', ']', 'P', '\\', BEL, ';', '1', 'm', 'H', '?', '\u009b', '\u009c', '\u0090', '\u0018', ' ', '(')
    fc.assert(
      fc.property(fc.array(alphabet, {maxLength: 60}), fc.array(fc.nat(60), {maxLength: 8}), (chars, cuts) => {
        const text = chars.join('')
        const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b)
        const pieces: string[] = []
        let prev = 0
        for (const p of points) {
          pieces.push(text.slice(prev, p))
          prev = p
        }
        pieces.push(text.slice(prev))
        const whole = sanitize(text)
        expect(pushAll(pieces)).to.equal(whole)
        expect(LEFTOVER_CONTROL.test(withoutSgr(whole)), JSON.stringify(whole)).to.equal(false)
        expect(LEFTOVER_CONTROL.test(withoutSgr(sanitize(text, {keepColor: false})).replace(/\u001b\[/g, '\u0001'))).to.equal(false)
      }),
      {numRuns: 2000},
    )
  })

  it('never lets an escape through when colour is off (property)', () => {
    fc.assert(
      fc.property(fc.string({unit: 'binary', maxLength: 80}), (text) => {
        const out = sanitize(text, {keepColor: false})
        expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(out), JSON.stringify(out)).to.equal(false)
      }),
      {numRuns: 2000},
    )
  })

  describe('format characters (bidi controls, zero-width, U+FEFF, U+2028/2029) with showFormat', () => {
    const show = (text: string) => sanitize(text, {showFormat: true})
    const dimmed = (name: string) => `${ESC}[2m⟨${name}⟩${ESC}[22m`

    it('each is shown as a dim placeholder, at every split point', () => {
      const cases: [string, string][] = [
        ['\u202e', 'U+202E'], ['\u202a', 'U+202A'], ['\u2066', 'U+2066'], ['\u2069', 'U+2069'], ['\u200e', 'U+200E'], ['\u200f', 'U+200F'],
        ['\u061c', 'U+061C'], ['\u200b', 'U+200B'], ['\u2060', 'U+2060'], ['\ufeff', 'U+FEFF'], ['\u2028', 'U+2028'], ['\u2029', 'U+2029'], ['\u{e0041}', 'U+E0041'],
      ]
      for (const [ch, name] of cases) {
        const input = `rm ${ch}evil`
        for (const pieces of allSplits(input)) {
          const s = createSanitizer({showFormat: true})
          expect(pieces.map((p) => s.push(p)).join('') + s.end(), JSON.stringify(pieces)).to.equal(`rm ${dimmed(name)}evil`)
        }
      }
    })

    it('without showFormat (the markdown renderer shows them) they are kept', () => {
      expect(sanitize('a\u202eb')).to.equal('a\u202eb')
    })

    it('none is left raw, whatever the text and chunking (property)', () => {
      const alphabet = fc.constantFrom('a', '\u202e', '\u2066', '\u200b', '\ufeff', '\u2028', '\u{e0001}', '🙂', ESC, '[', 'm', '\n')
      fc.assert(
        fc.property(fc.array(alphabet, {maxLength: 40}), fc.array(fc.nat(40), {maxLength: 6}), (chars, cuts) => {
          const text = chars.join('')
          const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b)
          const s = createSanitizer({showFormat: true})
          let out = ''
          let prev = 0
          for (const p of [...points, text.length]) {
            out += s.push(text.slice(prev, p))
            prev = p
          }
          out += s.end()
          expect(out).to.equal(show(text))
          expect(/[\p{Cf}\u2028\u2029]/u.test(out), JSON.stringify(out)).to.equal(false)
        }),
        {numRuns: 1000},
      )
    })
  })

  it('keeps plain text of any size unchanged', () => {
    const text = 'lorem ipsum\n'.repeat(10_000)
    expect(sanitize(text)).to.equal(text)
  })
})
