// The build's highlight.js patch (scripts/highlight-patch.js) makes each
// highlight call cheaper and must change nothing else: the renderer bundled
// with and without it renders the same bytes for every fence of the corpus
// and for generated code in every common language, line by line as an
// answer streams; the shipped bundle carries the patched code; and a patch
// whose code is gone from highlight.js fails the build.
import {expect} from 'chai'
import {build, type Plugin} from 'esbuild'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {ROOT} from '../helpers/cli.js'
import {CORPUS} from './corpus.js'

interface PatchModule {
  HIGHLIGHT_PATCHES: {why: string; from: string; to: string}[]
  patchHighlightCore(text: string, path?: string): string
  highlightWithoutPerCallCost(): Plugin
}
const patchModule = () => import(pathToFileURL(join(ROOT, 'scripts/highlight-patch.js')).href) as Promise<PatchModule>

/** highlight.js's common languages, by a name each answers to. */
const LANGUAGES = 'xml html bash sh c cpp csharp css markdown diff ruby go graphql ini java javascript js json kotlin less lua makefile perl objectivec php php-template plaintext python py python-repl r rust scss shell sql swift yaml typescript ts vbnet wasm'.split(' ')
/** Tokens of many languages: strings, comments and blocks opened and closed across lines, keywords, numbers, words of prose. */
const TOKENS = ['const', 'let', 'function', 'def', 'class', 'return', 'if', 'else', 'for', 'import', 'from', 'fn', 'pub', 'struct', 'int', 'SELECT', 'FROM', 'WHERE', 'echo', '$x', '@foo', '#include', '<div>', '</div>', '<a href="x">', '"str"', "'c'", '`tpl ${x}`', '"""', "'''", '/*', '*/', '//', '#', '--', ';', '{', '}', '(', ')', '[', ']', '=>', '->', '::', '=', '==', '+', '*', '/', '0x1F', '42', '3.14', 'true', 'null', 'None', 'self', 'this', 'foo', 'Qux', 'compute', 'console.log', '\\', ':', ',', 'key: value', '- item', '@@ -1 +1 @@', '+added', '<<EOF', 'EOF', 'TODO:', 'the', 'quick', 'brown', 'fox', 'it', 'is', 'é', '漢字', '\t', '|', '&&', '<?php', '?>', '{{', '}}', '=begin', '=end', '[section]', 'async', 'await', 'match', 'end', 'then', 'fi']

/** Answers of fenced code: 4 blocks of 5–34 token-soup lines in each language (a fixed seed). */
function generatedCode(): string[] {
  let seed = 12345
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]
  return LANGUAGES.map((lang) => {
    let text = ''
    for (let b = 0; b < 4; b++) {
      const lines: string[] = []
      for (let l = 5 + Math.floor(rnd() * 30); l > 0; l--) lines.push((rnd() < 0.3 ? '    ' : '') + Array.from({length: Math.floor(rnd() * 12)}, () => pick(TOKENS)).join(rnd() < 0.8 ? ' ' : ''))
      text += `Before.\n\n\`\`\`${lang}\n${lines.join('\n')}\n\`\`\`\n\n`
    }
    return text
  })
}

/**
 * Comments of English prose in every common language (the patch leaves out a
 * comment's English-words rule where it can change nothing): words of every
 * form that rule knows (one- and two-letter words, contractions, hyphenated,
 * capitalised), full stops, colons, runs of spaces, and doctags before,
 * inside and right after a run of words, in all the languages' comment
 * openers (so each grammar meets its own and others').
 */
function commentProse(): string[] {
  let seed = 424242
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]
  const words = ['I', 'a', 'is', 'so', 'us', 'to', 'at', 'if', 'in', 'it', 'on', "it's", "we'd", "they're", "can't", 'no-way', 'well-known', 'The', 'renderer', 'wraps', 'text', 'Fix', 'x', 'ab', 'TODO:', 'FIXME:', 'NOTE:', 'BUG:', 'XXX:', 'HACK:', 'OPTIMIZE:', 'TODO', 'todo:', 'Note:', 'end.', 'word:', 'e.g.', '*/', '-->', '#', '@param', 'http://x.y', '(paren)', '"quoted"']
  const openers = ['//', '#', '/*', '--', ';', '%', '/**', '<!--', '(*', "'", 'REM', '--[[', '=begin']
  const seps = [' ', ' ', ' ', ' ', '  ', '. ', ': ', '']
  return LANGUAGES.map((lang) => {
    const lines: string[] = []
    for (let l = 0; l < 60; l++) {
      let line = rnd() < 0.3 ? 'x = 1 ' : ''
      line += pick(openers) + (rnd() < 0.8 ? ' ' : '')
      for (let w = 2 + Math.floor(rnd() * 12); w > 0; w--) line += pick(words) + pick(seps)
      if (rnd() < 0.2) line += pick(['*/', '-->', '*)', ']]'])
      lines.push(line.trimEnd())
    }
    return `Prose.\n\n\`\`\`${lang}\n${lines.join('\n')}\n\`\`\`\n`
  })
}

/** The bench answer's kind of code: a declaration, then an English comment. */
const BENCH_CODE = '```js\n' + Array.from({length: 40}, (_, i) => `const v${i} = compute(${i}) // The renderer streams each paragraph as it arrives and wraps it.`).join('\n') + '\n```\n'

/** Renders every answer in 7-character chunks (a fence streams line by line) with the renderer bundled with or without the patch. */
const RENDER_ALL = `
import {createRenderer} from './index.ts'
import hljs from 'highlight.js/lib/common'
/** Comment modes (of the languages compiled so far) whose matcher leaves out their English-words rule. */
export function englishRunsLeftOut() {
  const seen = new Set()
  let n = 0
  const walk = (m) => {
    if (!m || typeof m !== 'object' || seen.has(m)) return
    seen.add(m)
    const run = (m.contains || []).find((c) => c && c.__jpEnglishRun)
    if (run && m.matcher && !m.matcher.rules.some(([, opts]) => opts.rule === run)) n++
    for (const c of m.contains || []) walk(c)
    for (const v of m.cachedVariants || []) walk(v)
    walk(m.starts)
  }
  for (const name of hljs.listLanguages()) walk(hljs.getLanguage(name))
  return n
}
export async function renderAll(answers, chunk) {
  const out = []
  for (const text of answers) {
    const r = createRenderer({columns: () => 80, color: true, hyperlinks: false, codeTheme: 'ansi'})
    let s = ''
    for (let i = 0; i < text.length; i += chunk) {
      s += r.push(text.slice(i, i + chunk))
      while (r.waiting) { await r.waiting; s += r.take() }
    }
    s += r.end()
    out.push(s)
  }
  return out
}
`

describe('markdown: the build’s highlight.js patch', function () {
  this.timeout(120_000)
  let dir: string
  before(() => (dir = mkdtempSync(join(tmpdir(), 'jp-hl-patch-'))))
  after(() => rmSync(dir, {recursive: true, force: true}))

  type Bundle = {renderAll: (answers: string[], chunk: number) => Promise<string[]>; englishRunsLeftOut: () => number}
  async function bundle(patched: boolean): Promise<Bundle> {
    const {highlightWithoutPerCallCost} = await patchModule()
    const file = join(dir, patched ? 'patched.mjs' : 'plain.mjs')
    await build({
      stdin: {contents: RENDER_ALL, resolveDir: join(ROOT, 'src/lib/markdown'), loader: 'ts'},
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile: file,
      logLevel: 'error',
      plugins: patched ? [highlightWithoutPerCallCost()] : [],
    })
    const text = readFileSync(file, 'utf8')
    // The two bundles differ exactly by the patch.
    expect(text.includes('next.parent = top'), file).to.equal(patched)
    return (await import(pathToFileURL(file).href)) as Bundle
  }

  it('renders the same bytes as highlight.js unpatched: the corpus, generated code and English comments in every common language, the bench’s code', async () => {
    const answers = [...CORPUS.map((a) => a.text), ...generatedCode(), ...commentProse(), BENCH_CODE]
    const [plainBundle, patchedBundle] = [await bundle(false), await bundle(true)]
    const [plain, patched] = [plainBundle.renderAll, patchedBundle.renderAll]
    for (const chunk of [7, 1000]) {
      const a = await plain(answers, chunk)
      const b = await patched(answers, chunk)
      for (let k = 0; k < answers.length; k++) expect(b[k], `answer ${k} (${answers[k].slice(0, 40)}…), chunks of ${chunk}`).to.equal(a[k])
    }
    // Not vacuous: the generated code was highlighted (all but plain text and one more show a highlight colour, the bench's code its keyword's).
    const code = (await patched(answers, 1000)).slice(CORPUS.length)
    const generated = code.slice(0, LANGUAGES.length)
    const coloured = generated.filter((s) => /\u001b\[(3[1-6]|90)m/.test(s))
    expect(coloured.length).to.be.at.least(generated.length - 2)
    expect(code[code.length - 1]).to.include('\u001b[35mconst')
    // ...doctags among the English comments were (bold, in a comment's italic grey), and the English-words rule was left out of comments in many languages (none unpatched).
    const prose = code.slice(LANGUAGES.length, -1)
    expect(prose.filter((s) => /\u001b\[1;3;90m(TODO|FIXME|NOTE|BUG|XXX|HACK|OPTIMIZE):/.test(s)).length).to.be.at.least(10)
    expect(patchedBundle.englishRunsLeftOut()).to.be.at.least(20)
    expect(plainBundle.englishRunsLeftOut()).to.equal(0)
  })

  it('is in the shipped bundle, and none of the code it replaces', async () => {
    const {HIGHLIGHT_PATCHES} = await patchModule()
    const cli = readFileSync(join(ROOT, 'dist/jp.cjs'), 'utf8')
    expect(HIGHLIGHT_PATCHES).to.have.length(8)
    expect(cli).to.include('next.parent = top')
    expect(cli).to.include('if (language.isCompiled) return language;')
    expect(cli).to.not.include('Object.create(mode, { parent: { value: top } })')
    expect(cli).to.not.include('match.findIndex(')
    expect(cli).to.include('keywordHits.set(word, hits)')
    expect(cli).to.not.include('keywordHits[word]')
    expect(cli).to.include('if (!englishRunIdle(mode, term)) mm.addRule(')
    expect(cli).to.not.include('mode.contains.forEach(term => mm.addRule(')
  })

  it('fails the build when the code a patch replaces is not there once', async () => {
    const {HIGHLIGHT_PATCHES, patchHighlightCore} = await patchModule()
    const core = readFileSync(join(ROOT, 'node_modules/highlight.js/lib/core.js'), 'utf8')
    expect(patchHighlightCore(core)).to.not.equal(core)
    for (const p of HIGHLIGHT_PATCHES) {
      expect(() => patchHighlightCore(core.replace(p.from, '')), p.why).to.throw(`"${p.why}" is not there once`)
      expect(() => patchHighlightCore(core + p.from), p.why).to.throw(`"${p.why}" is not there once`)
    }
  })
})
