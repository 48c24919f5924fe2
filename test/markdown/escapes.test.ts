// Rendering can never turn model text into a terminal control sequence: the
// sanitizer (with every sequence dropped, as the printer runs it before the
// renderer) and then the renderer, fed the sanitizer's hostile inputs inside
// every markdown construct, write only the renderer's own SGR and OSC 8.
import {expect} from 'chai'
import fc from 'fast-check'

import {sanitize} from '../../src/lib/printer/sanitize.js'
import {plain, render} from './render-helpers.js'

const ESC = '\u001b'
const BEL = '\u0007'
/** Sequences a model might emit (the cases of test/printer/sanitize.test.ts), 8-bit forms too. */
const HOSTILE = [
  `${ESC}[2J${ESC}[H`, `${ESC}]0;pwned${BEL}`, `${ESC}]8;;http://evil${ESC}\\click${ESC}]8;;${ESC}\\`, `${ESC}]52;c;cm0gLXJmIH4=${BEL}`,
  `${ESC}P1$r0m${ESC}\\`, `${ESC}[?1049h`, `${ESC}[31mred${ESC}[0m`, '\u009b2J', '\u009d0;t\u0007', '\r', '\b', '\u007f', `${ESC}7`, `${ESC}(B`, `${ESC}[8m`,
]
/** Markdown contexts the text lands in. */
const CONTEXTS = [
  (x: string) => x, (x: string) => `**${x}**`, (x: string) => `\`${x}\``, (x: string) => `[${x}](https://e.com/${x})`, (x: string) => `# ${x}`,
  (x: string) => `- ${x}\n  - ${x}`, (x: string) => `> ${x}`, (x: string) => `| a | ${x} |\n|---|---|\n| ${x} | b |`, (x: string) => '```js\n' + x + '\n```',
  (x: string) => `![${x}](${x})`, (x: string) => `<https://e.com/${x}>`, (x: string) => `x${x}  \ny`,
]

/** What the renderer itself may write: SGR with its own parameters, and OSC 8 with a printable URL. */
function leftover(out: string): string {
  // eslint-disable-next-line no-control-regex
  return out.replace(/\u001b\[[0-9;]*m/g, '').replace(/\u001b\]8;;[\u0021-\u007e]*\u001b\\/g, '').replace(/\n/g, '')
}
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
/** Invisible or direction-changing: Unicode format characters (Cf) and the line/paragraph separators. */
const FORMAT = /[\p{Cf}\u2028\u2029]/u

/** Format characters, raw and as the entities markdown-it decodes into them (SPEC §19). */
const INVISIBLE: [string, string][] = [
  ['\u202e', 'U+202E'], ['\u202a', 'U+202A'], ['\u2066', 'U+2066'], ['\u2069', 'U+2069'], ['\u200e', 'U+200E'], ['\u200f', 'U+200F'],
  ['\u061c', 'U+061C'], ['\u200b', 'U+200B'], ['\u200d', 'U+200D'], ['\u2060', 'U+2060'], ['\ufeff', 'U+FEFF'], ['\u00ad', 'U+00AD'],
  ['\u2028', 'U+2028'], ['\u2029', 'U+2029'], ['\u{e0041}', 'U+E0041'], ['&#x202e;', 'U+202E'], ['&#x200b;', 'U+200B'], ['&#8206;', 'U+200E'], ['&#xFEFF;', 'U+FEFF'],
]

describe('markdown: no control sequence from model text', () => {
  for (const hyperlinks of [false, true]) {
    it(`every hostile sequence in every construct (hyperlinks ${hyperlinks})`, async () => {
      for (const h of HOSTILE) {
        for (const ctx of CONTEXTS) {
          const text = sanitize(ctx(`a${h}b`), {keepColor: false})
          const out = await render(text, {hyperlinks, columns: () => 30})
          expect(CONTROL.test(leftover(out)), JSON.stringify([ctx(h), out])).to.equal(false)
        }
      }
    })
  }

  it('random bytes in random constructs (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({unit: 'binary', maxLength: 60}), fc.nat(CONTEXTS.length - 1), fc.boolean(), async (s, k, hyperlinks) => {
        const out = await render(sanitize(CONTEXTS[k](s), {keepColor: false}), {hyperlinks, columns: () => 24})
        expect(CONTROL.test(leftover(out)), JSON.stringify(out)).to.equal(false)
      }),
      {numRuns: 500},
    )
  })

  for (const hyperlinks of [false, true]) {
    it(`every format character, raw or as an entity, in every construct is a dim placeholder (hyperlinks ${hyperlinks})`, async () => {
      for (const [ch, name] of INVISIBLE) {
        for (const ctx of CONTEXTS) {
          const out = await render(sanitize(ctx(`a${ch}b`), {keepColor: false}), {hyperlinks, columns: () => 30})
          expect(FORMAT.test(out), JSON.stringify([ctx(ch), out])).to.equal(false)
          expect(CONTROL.test(leftover(out)), JSON.stringify([ctx(ch), out])).to.equal(false)
          // Entities in code, an image's alt text and an autolink are shown as written; everywhere else they are decoded, and the character is shown.
          if (!ch.startsWith('&') || !/`|!\[|<https/.test(ctx(''))) expect(out, JSON.stringify([ctx(ch), out])).to.include(`\u001b[2m⟨${name}⟩\u001b[0m`)
        }
      }
    })
  }

  it('random text with format characters in random constructs: none raw (property)', async () => {
    const unit = fc.constantFrom('a', ' ', '*', '`', '\n', '&#x202e;', '\u202e', '\u2066', '\u200b', '\ufeff', '\u2028', '\u{e0001}', 'é')
    await fc.assert(
      fc.asyncProperty(fc.array(unit, {maxLength: 40}), fc.nat(CONTEXTS.length - 1), fc.boolean(), async (parts, k, hyperlinks) => {
        const out = await render(sanitize(CONTEXTS[k](parts.join('')), {keepColor: false}), {hyperlinks, columns: () => 24})
        expect(FORMAT.test(out), JSON.stringify(out)).to.equal(false)
      }),
      {numRuns: 300},
    )
  })

  it('model SGR is not passed through (the renderer styles the text itself)', async () => {
    const out = await render(sanitize(`plain ${ESC}[31mred${ESC}[0m`, {keepColor: false}))
    expect(out).to.equal('plain red\n')
  })
})

describe('markdown: links', () => {
  it('are their text then the URL; OSC 8 only with style.hyperlinks', async () => {
    const text = 'Read [the guide](https://example.com/guide) first.\n'
    const off = await render(text, {color: false})
    expect(plain(off)).to.equal('Read the guide (https://example.com/guide) first.\n')
    expect(off).to.not.include('\u001b]8;;')
    const on = await render(text, {color: false, hyperlinks: true})
    expect(on).to.include('\u001b]8;;https://example.com/guide\u001b\\')
    expect(plain(on)).to.equal(plain(off))
  })
})
