// The renderer's quick paths (src/lib/markdown/quick-inline.ts, and the
// one-line headings and list items of render.ts) must give exactly what
// markdown-it gives wherever they answer at all: the tokens compared over
// segments built from the shapes they know, with every character that could
// change the reading put next to, inside and around them; the bytes compared
// with the renderer's `quick: false` over whole answers.
import {expect} from 'chai'
import fc from 'fast-check'

import {createParser} from '../../src/lib/markdown/index.js'
import {quickInline} from '../../src/lib/markdown/quick-inline.js'
import {CORPUS} from './corpus.js'
import {render} from './render-helpers.js'

const md = createParser()

type Tok = {type: string; content: string; markup: string; href: string | number | null}

/** The tokens as the renderer reads them (an empty text token writes nothing: markdown-it leaves them where delimiters were). */
function view(tokens: readonly {type: string; content: string; markup: string; attrGet(n: string): string | number | null}[]): Tok[] {
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
  inner,
  fc.tuple(side, fc.constantFrom('*', '**', '***', '_', '__'), fc.oneof(word, inner), side).map(([h, d, x, t]) => `${h}${d}${x}${d}${t}`),
  fc.tuple(side, fc.oneof(word, inner), side).map(([h, x, t]) => `${h}\`${x}\`${t}`),
  fc.tuple(side, fc.oneof(word, inner), fc.oneof(fc.constantFrom(...DESTS), inner), side).map(([h, x, u, t]) => `${h}[${x}](${u})${t}`),
)

describe('markdown: quick inline tokens equal the parser’s', () => {
  it('for the common shapes (bold, emphasis, code, links with plain text around), it answers, and as markdown-it does', () => {
    const common = ['plain words (and/or more), ok.', '**bold words**', '*em*', '`code()`', '`a b`', '` a `', '[text](https://example.com/x)', '(**bold**),', '`x()`.', '[a b](https://e.com/a_b)!x']
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

describe('markdown: the quick paths render the parser’s bytes', () => {
  const line = fc.array(fc.oneof(fc.constantFrom(...TRICKY, ...WORDS), shape), {minLength: 0, maxLength: 5}).map((a) => a.join(' '))
  const lead = fc.constantFrom('# ', '## ', '###### ', '####### ', '#', '# #', '- ', '* ', '+ ', '1. ', '7) ', '-  ', '-     ', '- [ ] ', '- [x] ', '1.', '  - ', '10. ', '- # ', '- > ', '- 1. ', '- ---', '')
  const answer = fc.array(fc.tuple(lead, fc.constantFrom('', 'A', 'x', '"', "'", '(', '[', '`', '*'), line, fc.constantFrom('\n', '\n\n', '\n  more\n')), {minLength: 1, maxLength: 8}).map((blocks) =>
    blocks.map(([l, c, t, sep]) => l + c + t + sep).join(''),
  )

  it('for every corpus answer, at 40 and 100 columns, colour on and off', async () => {
    for (const {name, text} of CORPUS)
      for (const opts of [{columns: () => 40}, {columns: () => 100, color: false, hyperlinks: true}]) expect(await render(text, opts), name).to.equal(await render(text, {...opts, quick: false}))
  })

  it('for generated headings, list items and paragraphs with tricky text (property)', async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.constantFrom(24, 80), fc.boolean(), async (text, columns, dim) => {
        const opts = {columns: () => columns, base: dim ? {dim: true} : undefined}
        const a = await render(text, opts)
        const b = await render(text, {...opts, quick: false})
        expect(a, JSON.stringify(text)).to.equal(b)
      }),
      {numRuns: 1500},
    )
  })
})
