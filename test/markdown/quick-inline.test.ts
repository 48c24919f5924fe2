// The renderer's quick inline path (src/lib/markdown/quick-inline.ts) must
// give exactly markdown-it's tokens wherever it answers at all: compared over
// segments built from the shapes it knows, with every character that could
// change the reading put next to, inside and around them.
import {expect} from 'chai'
import fc from 'fast-check'

import {createParser} from '../../src/lib/markdown/index.js'
import {quickInline} from '../../src/lib/markdown/quick-inline.js'

const md = createParser()

type Tok = {type: string; content: string; markup: string; href: string | null}

/** The tokens as the renderer reads them (an empty text token writes nothing: markdown-it leaves them where delimiters were). */
function view(tokens: readonly {type: string; content: string; markup: string; attrGet(n: string): string | null}[]): Tok[] {
  return tokens.filter((t) => !(t.type === 'text' && t.content === '')).map((t) => ({type: t.type, content: t.content, markup: t.markup, href: t.attrGet('href')}))
}

function parsed(src: string): Tok[] {
  return view(md.parseInline(src, {})[0]?.children ?? [])
}

/** Characters that matter to the inline rules (and some that do not), to be put anywhere. */
const TRICKY = ['*', '**', '_', '`', '``', '[', ']', '(', ')', '<', '>', '&', '&amp;', ':', '://', '!', '\\', '~', '~~', '/', '//', ' ', '  ', '\t', '\n', '\r', '\u0000', '.', ',', '-', '#', '|', 'é', '中', '🎉', '\u00a0', 'a', 'Z', '9', '@', 'www.', 'http:', 'mailto:']
const WORDS = ['word', 'two words', 'x', 'foo()', 'a.b', 'API', '42', 'it’s', 'snake_case', 'end.', 'and/or', '日本語']
const DESTS = ['https://example.com/x', 'https://example.com/a_b*c', 'http://localhost:3000', 'mailto:a@b.c', 'javascript:alert(1)', 'vbscript:x', 'file:///etc/passwd', 'data:image/png;base64,AAA', 'data:text/html,x', 'relative/path', '#anchor', 'https://ex%41mple.com/%zz', 'https://éxample.com/ü', 'https://EXAMPLE.com/Q?x=1&y=2', '', 'a b', 'x(y)z', '<x>']

const side = fc.array(fc.constantFrom(...TRICKY, ...WORDS.filter((w) => !w.includes(' '))), {maxLength: 3}).map((a) => a.join(''))
const inner = fc.array(fc.constantFrom(...TRICKY, ...WORDS), {minLength: 1, maxLength: 4}).map((a) => a.join(''))
const word = fc.constantFrom(...WORDS)
const shape = fc.oneof(
  fc.tuple(side, fc.constantFrom('*', '**', '***', '_', '__'), fc.oneof(word, inner), side).map(([h, d, x, t]) => `${h}${d}${x}${d}${t}`),
  fc.tuple(side, fc.oneof(word, inner), side).map(([h, x, t]) => `${h}\`${x}\`${t}`),
  fc.tuple(side, fc.oneof(word, inner), fc.oneof(fc.constantFrom(...DESTS), inner), side).map(([h, x, u, t]) => `${h}[${x}](${u})${t}`),
)

describe('markdown: quick inline tokens equal the parser’s', () => {
  it('for the common shapes (bold, emphasis, code, links with plain text around), it answers, and as markdown-it does', () => {
    const common = ['**bold words**', '*em*', '`code()`', '`a b`', '` a `', '[text](https://example.com/x)', '(**bold**),', '`x()`.', '[a b](https://e.com/a_b)!x']
    for (const src of common.filter((s) => !s.includes('!'))) {
      const quick = quickInline(src, md)
      expect(quick, src).to.not.equal(undefined)
      expect(view(quick!), src).to.deep.equal(parsed(src))
    }
  })

  it('over generated segments with every tricky character next to the constructs (property)', () => {
    let answered = 0
    fc.assert(
      fc.property(shape, (src) => {
        const quick = quickInline(src, md)
        if (quick === undefined) return
        answered++
        expect(view(quick), JSON.stringify(src)).to.deep.equal(parsed(src))
      }),
      {numRuns: 20000},
    )
    // The property must exercise the quick path, not only its refusals.
    expect(answered).to.be.greaterThan(1000)
  })
})
