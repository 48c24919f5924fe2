// The renderer's quick paths (src/lib/markdown/quick-inline.ts, and the
// one-line headings and list items of render.ts) must give exactly what
// markdown-it gives wherever they answer at all: the tokens compared over
// segments built from the shapes they know, with every character that could
// change the reading put next to, inside and around them; the bytes compared
// with the renderer's `quick: false` over whole answers.
import {expect} from 'chai'
import fc from 'fast-check'

import {createParser} from '../../src/lib/markdown/index.js'
import {quickInline, quickTable} from '../../src/lib/markdown/quick-inline.js'
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
    const common = ['plain words (and/or more), ok.', '**bold words**', '*em*', '`code()`', '`a b`', '` a `', '[text](https://example.com/x)', '(**bold**),', '`x()`.', '[a b](https://e.com/a_b)!x', 'a sentence with **two words** in bold.', 'call `f(x)` then', 'see [the docs](https://example.com/x) for more']
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

describe('markdown: quick tables read as the parser reads them', () => {
  const cellText = fc.array(fc.constantFrom(...TRICKY, ...WORDS, '\\|', '\\\\|', '|', ' | ', '\u00a0', '\u3000', '\\'), {maxLength: 4}).map((a) => a.join(''))
  const delimCell = fc.constantFrom('---', ':---', '---:', ':-:', ' --- ', '-', ':', '', ' ', '--x', '-\t', '::', '- -', '===')
  const row = (cells: fc.Arbitrary<string>) =>
    fc.tuple(fc.array(cells, {minLength: 0, maxLength: 5}), fc.constantFrom('|', ''), fc.constantFrom('|', '', '| ', ' |', '|\t', '\\|'), fc.constantFrom('', ' ', '  ', '\t'))
      .map(([cs, lead, tail, pad]) => pad + lead + cs.join('|') + tail)
  const table = fc.tuple(row(cellText), row(delimCell), fc.array(row(cellText), {maxLength: 5})).map(([h, d, body]) => [h, d, ...body].join('\n'))
  // Tables the quick path takes: every line led by a pipe, cells as often as not of the header's count.
  const simple = fc.tuple(fc.integer({min: 1, max: 4}), fc.array(cellText, {minLength: 20, maxLength: 20}), fc.array(fc.constantFrom('---', ':---', '---:', ':-:', ' - '), {minLength: 4, maxLength: 4}), fc.integer({min: 0, max: 4}), fc.constantFrom('|', '', ' |')).map(([n, texts, delims, bodyRows, tail]) => {
    const line = (cs: string[]) => '|' + cs.join('|') + tail
    const lines = [line(texts.slice(0, n)), line(delims.slice(0, n))]
    for (let r = 0; r < bodyRows; r++) lines.push(line(texts.slice(n + r * 3, n + r * 3 + ((n + r) % 3) + n - 1)))
    return lines.join('\n')
  })

  /** markdown-it's table: its aligns and cell contents, when the whole source is one table. */
  function parsedTable(src: string): {aligns: (string | undefined)[]; rows: string[][]} | undefined {
    const tokens = md.parse(src, {})
    if (tokens[0]?.type !== 'table_open' || tokens[tokens.length - 1].type !== 'table_close') return undefined
    if (tokens.filter((t) => t.type === 'table_open').length !== 1) return undefined
    const rows: string[][] = []
    const aligns: (string | undefined)[] = []
    for (let j = 0; j < tokens.length; j++) {
      const t = tokens[j]
      if (t.type === 'tr_open') rows.push([])
      else if (t.type === 'th_open' || t.type === 'td_open') {
        rows[rows.length - 1].push(tokens[j + 1].content)
        if (t.type === 'th_open') aligns.push(/text-align:(\w+)/.exec(String(t.attrGet('style') ?? ''))?.[1])
      }
    }
    return {aligns, rows}
  }

  it('when it answers, markdown-it reads one table with those cells and alignments (property)', () => {
    let answered = 0
    fc.assert(
      fc.property(fc.oneof(table, simple), (src) => {
        const quick = quickTable(src)
        if (quick === undefined) return
        answered++
        expect(quick, JSON.stringify(src)).to.deep.equal(parsedTable(src))
      }),
      {numRuns: 20000},
    )
    expect(answered).to.be.greaterThan(2000)
  })

  it('and renders the parser’s bytes, at widths that fit, shrink and fall back to records (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(table, simple), fc.constantFrom(12, 30, 80), fc.boolean(), async (src, columns, color) => {
        const text = `${src}\n\nafter\n`
        const opts = {columns: () => columns, color}
        expect(await render(text, opts), JSON.stringify(src)).to.equal(await render(text, {...opts, quick: false}))
      }),
      {numRuns: 1500},
    )
  })
})
