import {expect} from 'chai'
import {describe, it} from 'mocha'

import {ESC_TIMEOUT_MS, type Key, KeyDecoder, PASTE_QUIET_MS} from '../../../src/lib/inquire/keys.js'
import {keyFeed} from '../../../src/lib/inquire/prompt-io.js'

/** Decodes `input` in one chunk (plus a flush) and returns compact descriptions. */
function decode(...chunks: string[]): string[] {
  const d = new KeyDecoder()
  const keys: Key[] = []
  for (const c of chunks) keys.push(...d.feed(c))
  keys.push(...d.flush())
  return keys.map(show)
}

function show(k: Key): string {
  const mods = (k.ctrl ? 'C-' : '') + (k.meta ? 'M-' : '') + (k.shift ? 'S-' : '')
  return k.name === 'char' || k.name === 'paste' ? `${k.name}:${k.text}` : mods + k.name
}

describe('KeyDecoder', () => {
  it('exports an ESC timeout in the 25–50 ms range', () => {
    expect(ESC_TIMEOUT_MS).to.be.within(25, 50)
  })

  describe('legacy control bytes', () => {
    const table: Array<[string, string]> = [
      ['\x01', 'C-a'], ['\x02', 'C-b'], ['\x05', 'C-e'], ['\x03', 'C-c'], ['\x04', 'C-d'],
      ['\x0b', 'C-k'], ['\x15', 'C-u'], ['\x17', 'C-w'], ['\x18', 'C-x'], ['\x19', 'C-y'],
      ['\x1a', 'C-z'], ['\x07', 'C-g'], ['\x0c', 'C-l'], ['\x14', 'C-t'], ['\x11', 'C-q'],
      ['\x7f', 'backspace'], ['\x08', 'C-h'], ['\x0d', 'enter'], ['\x0a', 'C-j'],
      ['\x09', 'tab'], ['\x1f', 'C-_'], ['\x00', 'C-space'], ['\x1c', 'C-\\'], ['\x1d', 'C-]'],
    ]
    for (const [input, expected] of table) {
      it(`${JSON.stringify(input)} → ${expected}`, () => {
        expect(decode(input)).to.deep.equal([expected])
      })
    }
    it('keeps the raw byte as the sequence', () => {
      expect(new KeyDecoder().feed('\x01')[0].sequence).to.equal('\x01')
    })
  })

  describe('ESC-prefixed Alt/Meta', () => {
    const table: Array<[string, string]> = [
      ['\x1bb', 'M-b'], ['\x1bf', 'M-f'], ['\x1bd', 'M-d'], ['\x1by', 'M-y'],
      ['\x1b<', 'M-<'], ['\x1b>', 'M->'], ['\x1b\x7f', 'M-backspace'], ['\x1b\x08', 'M-backspace'],
      ['\x1b\r', 'M-enter'], ['\x1bB', 'M-S-b'], ['\x1b ', 'M-space'], ['\x1b\x01', 'C-M-a'],
      ['\x1bé', 'M-é'],
    ]
    for (const [input, expected] of table) {
      it(`${JSON.stringify(input)} → ${expected}`, () => {
        expect(decode(input)).to.deep.equal([expected])
      })
    }
    it('an ESC prefix split from its key across chunks still makes one Alt key', () => {
      const d = new KeyDecoder()
      expect(d.feed('\x1b')).to.deep.equal([])
      expect(d.pending).to.equal(true)
      // Still pending: a combining mark could follow the letter.
      expect(d.feed('b').map(show)).to.deep.equal([])
      expect(d.flush().map(show)).to.deep.equal(['M-b'])
      expect(d.pending).to.equal(false)
    })
  })

  describe('lone ESC', () => {
    it('is pending until flushed, then is escape', () => {
      const d = new KeyDecoder()
      expect(d.feed('\x1b')).to.deep.equal([])
      expect(d.pending).to.equal(true)
      expect(d.flush().map(show)).to.deep.equal(['escape'])
      expect(d.pending).to.equal(false)
      expect(d.flush()).to.deep.equal([])
    })
    it('ESC ESC flushes as Alt+Escape', () => {
      expect(decode('\x1b\x1b')).to.deep.equal(['M-escape'])
    })
    it('a flushed ESC [ is Alt+[ and ESC O is Alt+Shift+O', () => {
      expect(decode('\x1b[')).to.deep.equal(['M-['])
      expect(decode('\x1bO')).to.deep.equal(['M-S-o'])
    })
    it('a truncated CSI is dropped on flush, never inserted', () => {
      expect(decode('\x1b[1;5')).to.deep.equal([])
    })
  })

  describe('CSI and SS3 cursor keys', () => {
    const table: Array<[string, string]> = [
      ['\x1b[A', 'up'], ['\x1b[B', 'down'], ['\x1b[C', 'right'], ['\x1b[D', 'left'],
      ['\x1bOA', 'up'], ['\x1bOB', 'down'], ['\x1bOC', 'right'], ['\x1bOD', 'left'],
      ['\x1b[1;5C', 'C-right'], ['\x1b[1;5D', 'C-left'], ['\x1b[1;3D', 'M-left'], ['\x1b[1;3C', 'M-right'],
      ['\x1b[1;2A', 'S-up'], ['\x1b[1;6C', 'C-S-right'], ['\x1b[5D', 'C-left'], ['\x1bO5C', 'C-right'],
      ['\x1b[H', 'home'], ['\x1b[F', 'end'], ['\x1bOH', 'home'], ['\x1bOF', 'end'],
      ['\x1b[1~', 'home'], ['\x1b[7~', 'home'], ['\x1b[4~', 'end'], ['\x1b[8~', 'end'],
      ['\x1b[2~', 'insert'], ['\x1b[3~', 'delete'], ['\x1b[3;5~', 'C-delete'], ['\x1b[3;2~', 'S-delete'],
      ['\x1b[5~', 'pageup'], ['\x1b[6~', 'pagedown'], ['\x1b[1;5H', 'C-home'], ['\x1b[1;5F', 'C-end'],
      ['\x1b[Z', 'S-tab'], ['\x1bOP', 'f1'], ['\x1b[15~', 'f5'], ['\x1bOM', 'enter'],
      ['\x1b\x1b[A', 'M-up'],
    ]
    for (const [input, expected] of table) {
      it(`${JSON.stringify(input)} → ${expected}`, () => {
        expect(decode(input)).to.deep.equal([expected])
      })
    }
    it('a CSI split at every byte decodes to the same key', () => {
      const seq = '\x1b[1;5C'
      for (let cut = 1; cut < seq.length; cut++) {
        const d = new KeyDecoder()
        const first = d.feed(seq.slice(0, cut))
        expect(first, `cut ${cut}`).to.deep.equal([])
        expect(d.pending).to.equal(true)
        expect(d.feed(seq.slice(cut)).map(show), `cut ${cut}`).to.deep.equal(['C-right'])
      }
    })
  })

  describe('kitty CSI-u', () => {
    const table: Array<[string, string]> = [
      ['\x1b[13;2u', 'S-enter'], ['\x1b[13;3u', 'M-enter'], ['\x1b[13u', 'enter'],
      ['\x1b[99;5u', 'C-c'], ['\x1b[120;5u', 'C-x'], ['\x1b[100;5u', 'C-d'], ['\x1b[97;5u', 'C-a'],
      ['\x1b[27u', 'escape'], ['\x1b[127;3u', 'M-backspace'], ['\x1b[127;5u', 'C-backspace'],
      ['\x1b[9;2u', 'S-tab'], ['\x1b[98;3u', 'M-b'], ['\x1b[32;5u', 'C-space'],
      ['\x1b[97u', 'char:a'], ['\x1b[97;2u', 'char:A'], ['\x1b[97:65;2u', 'char:A'], ['\x1b[233u', 'char:é'],
      ['\x1b[57414u', 'enter'], ['\x1b[27;5;99~', 'C-c'],
    ]
    for (const [input, expected] of table) {
      it(`${JSON.stringify(input)} → ${expected}`, () => {
        expect(decode(input)).to.deep.equal([expected])
      })
    }
    it('drops key-release events', () => {
      expect(decode('\x1b[97;1:3u')).to.deep.equal([])
    })
  })

  describe('bracketed paste', () => {
    it('is one paste key with CRLF and CR turned into LF', () => {
      expect(decode('\x1b[200~one\r\ntwo\rthree\nfour\x1b[201~')).to.deep.equal(['paste:one\ntwo\nthree\nfour'])
    })
    it('keeps escape sequences and control bytes inside the paste verbatim', () => {
      expect(decode('\x1b[200~a\x1b[Ab\x03\x1b[201~')).to.deep.equal(['paste:a\x1b[Ab\x03'])
    })
    it('survives being split across any number of chunks, at every position', () => {
      const input = 'x\x1b[200~line 1\r\nline 2 ✓ 👍\x1b[201~y'
      for (let a = 1; a < input.length; a++) {
        for (let b = a; b < input.length; b += 3) {
          const got = decode(input.slice(0, a), input.slice(a, b), input.slice(b))
          expect(got, `cuts ${a},${b}`).to.deep.equal(['char:x', 'paste:line 1\nline 2 ✓ 👍', 'char:y'])
        }
      }
    })
    it('one byte at a time', () => {
      const input = '\x1b[200~a\r\nb\x1b[201~'
      expect(decode(...[...input])).to.deep.equal(['paste:a\nb'])
    })
    it('is not pending and not flushed while its end marker is missing', () => {
      const d = new KeyDecoder()
      expect(d.feed('\x1b[200~abc')).to.deep.equal([])
      expect(d.pending).to.equal(false)
      expect(d.flush()).to.deep.equal([])
      expect(d.feed('def\x1b[201~').map(show)).to.deep.equal(['paste:abcdef'])
    })
    it('an empty paste is an empty paste key', () => {
      expect(decode('\x1b[200~\x1b[201~')).to.deep.equal(['paste:'])
    })
    it('endPaste() ends a paste whose end marker never came, keeping everything held (a partial marker too)', () => {
      const d = new KeyDecoder()
      expect(d.feed('\x1b[200~one\r\ntwo\x1b[20')).to.deep.equal([])
      expect(d.inPaste).to.equal(true)
      expect(d.endPaste().map(show)).to.deep.equal(['paste:one\ntwo\x1b[20'])
      expect(d.inPaste).to.equal(false)
      // What follows is typed again, and a late end marker is swallowed like any unknown sequence.
      expect(d.feed('x\x1b[201~y').map(show)).to.deep.equal(['char:x', 'char:y'])
      expect(d.endPaste()).to.deep.equal([])
    })
  })

  describe('UTF-8 text', () => {
    it('each character is its own char key', () => {
      expect(decode('héllo')).to.deep.equal(['char:h', 'char:é', 'char:l', 'char:l', 'char:o'])
    })
    it('a multi-codepoint grapheme arriving in one chunk is one key', () => {
      const family = '👨‍👩‍👧‍👦'
      const flag = '🇯🇵'
      const combining = 'e\u0301'
      expect(decode(family + flag + combining + '字')).to.deep.equal([`char:${family}`, `char:${flag}`, `char:${combining}`, 'char:字'])
    })
    it('text around control keys keeps its order', () => {
      expect(decode('ab\x01c\x1bbd')).to.deep.equal(['char:a', 'char:b', 'C-a', 'char:c', 'M-b', 'char:d'])
    })
  })

  describe('unknown sequences are swallowed whole', () => {
    const table = ['\x1b[?1;2c', '\x1b[>1u', '\x1b[999~', '\x1b[1;5X', '\x1b[200;5u'.replace('200', '57344'), '\x1bOz', '\x1b[[A', '\x9b']
    for (const input of table) {
      it(`${JSON.stringify(input)} then text`, () => {
        expect(decode(input + 'ok')).to.deep.equal(['char:o', 'char:k'])
      })
    }
    it('a stray paste end marker is dropped', () => {
      expect(decode('\x1b[201~z')).to.deep.equal(['char:z'])
    })
    it('a CSI broken by a control byte is dropped and the byte still decodes', () => {
      expect(decode('\x1b[1;\x01')).to.deep.equal(['C-a'])
    })
  })
})

describe('KeyDecoder: Alt + a grapheme split across reads', () => {
  for (const text of ['👨‍👩‍👧‍👦', '🇫🇷', 'é', 'e\u0301']) {
    it(`decodes ESC ${text} as one Alt key at every split point`, () => {
      const input = '\x1b' + text
      for (let cut = 1; cut < input.length; cut++) {
        const d = new KeyDecoder()
        const keys = [...d.feed(input.slice(0, cut)), ...d.feed(input.slice(cut)), ...d.flush()]
        expect(keys.map((k) => [k.name, k.meta]), `cut at ${cut}`).to.deep.equal([[text, true]])
      }
    })
  }
})

describe('KeyDecoder: Meta + a base letter and combining marks, at every split point', () => {
  // ESC e U+0301 used to be M-é in one read but M-e plus a stray combining
  // mark when the mark came in the next read (issue 16, item 8).
  const cases: Array<[string, string[]]> = [
    ['\x1be\u0301', ['M-e\u0301']],
    ['\x1bo\u0308\u0301', ['M-o\u0308\u0301']],
    ['\x1bA\u030a', ['M-S-a\u030a']],
    ['\x1be\u0301x', ['M-e\u0301', 'char:x']],
    ['a\x1be\u0301\x1bb', ['char:a', 'M-e\u0301', 'M-b']],
  ]
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} decodes the same however it is split into two or three reads`, () => {
      const cps = Array.from(input)
      const at = (from: number, to?: number) => cps.slice(from, to).join('')
      for (let i = 0; i <= cps.length; i++) {
        expect(decode(at(0, i), at(i)), `split at ${i}`).to.deep.equal(expected)
        for (let j = i; j <= cps.length; j++) {
          expect(decode(at(0, i), at(i, j), at(j)), `split at ${i} and ${j}`).to.deep.equal(expected)
        }
      }
    })
  }

  it('holds Alt + letter at the end of a read until the next read or the ESC timeout', () => {
    const d = new KeyDecoder()
    expect(d.feed('\x1bb')).to.deep.equal([])
    expect(d.pending).to.equal(true)
    expect(d.flush().map(show)).to.deep.equal(['M-b'])
    expect(d.feed('\x1bb').map(show)).to.deep.equal([])
    expect(d.feed('c').map(show)).to.deep.equal(['M-b', 'char:c'])
  })
})

describe('keyFeed: a paste whose end marker never comes', function () {
  this.timeout(5000)
  it(`is ended after ${PASTE_QUIET_MS} ms of silence, its text kept`, async () => {
    const got: string[] = []
    const feed = keyFeed((keys) => got.push(...keys.map(show)))
    feed.feed('\x1b[200~half a paste\r')
    expect(got).to.deep.equal([])
    await new Promise((r) => setTimeout(r, PASTE_QUIET_MS + 100))
    expect(got).to.deep.equal(['paste:half a paste\n'])
    feed.feed('\r')
    expect(got.at(-1)).to.equal('enter')
    feed.stop()
  })
  it('more of the paste before the quiet period keeps it open', async () => {
    const got: string[] = []
    const feed = keyFeed((keys) => got.push(...keys.map(show)))
    feed.feed('\x1b[200~a')
    await new Promise((r) => setTimeout(r, PASTE_QUIET_MS / 2))
    feed.feed('b')
    await new Promise((r) => setTimeout(r, PASTE_QUIET_MS / 2))
    feed.feed('c\x1b[201~')
    expect(got).to.deep.equal(['paste:abc'])
    feed.stop()
  })
  it('a Ctrl+C read on its own ends it (the text kept, that Ctrl+C used up); the next Ctrl+C is a key', () => {
    for (const ctrlC of ['\x03', '\x1b[99;5u']) {
      const got: string[] = []
      const feed = keyFeed((keys) => got.push(...keys.map(show)))
      feed.feed('\x1b[200~stuck')
      feed.feed(ctrlC)
      expect(got).to.deep.equal(['paste:stuck'])
      feed.feed(ctrlC)
      expect(got).to.deep.equal(['paste:stuck', 'C-c'])
      feed.stop()
    }
  })
  it('a Ctrl+C byte inside pasted text stays text', () => {
    const got: string[] = []
    const feed = keyFeed((keys) => got.push(...keys.map(show)))
    feed.feed('\x1b[200~a\x03b')
    feed.feed('\x1b[201~')
    expect(got).to.deep.equal(['paste:a\x03b'])
    feed.stop()
  })
})
