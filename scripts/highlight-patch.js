// highlight.js's fixed cost per call, patched at bundle time (esbuild plugin;
// scripts/build.js and bench/markdown-render.ts bundle with it). The renderer
// highlights a fenced block line by line, one `hljs.highlight` call a line
// (src/lib/markdown/highlight.ts), and for short lines most of the time went
// to work highlight.js repeats on every call or every match, not to the
// matching itself (issue 25's profile: ~60 µs a line of the bench's code).
// Each patch replaces one exact piece of highlight.js 11's lib/core.js with
// code that does the same thing more cheaply; the bundle fails to build if a
// piece is not there exactly once (a new highlight.js: look again), and
// test/markdown/highlight-patch.test.ts compares the patched and unpatched
// highlighter's pieces over the test corpus's fences and generated code in
// every common language.
import {readFileSync} from 'node:fs'

export const HIGHLIGHT_PATCHES = [
  {
    // Every mode entered (a string, a comment, each three-word run inside a
    // comment) made its runtime mode with a property descriptor, V8's slow
    // path. The same object: the mode as prototype, `parent` its own property
    // (nothing in highlight.js enumerates, writes or redefines it).
    why: 'a mode entered without a property descriptor',
    from: 'top = Object.create(mode, { parent: { value: top } });',
    to: 'const next = Object.create(mode); next.parent = top; top = next;',
  },
  {
    // Every call compiled the language again: two class definitions and a
    // copy of its scope aliases before compileMode returned the compiled
    // language as it was. A compiled language is returned as it is.
    why: 'a compiled language not compiled again',
    from: 'function compileLanguage(language) {\n',
    to: 'function compileLanguage(language) {\n  if (language.isCompiled) return language;\n',
  },
  {
    // Which rule matched: the first group set, found with a callback over
    // every group of the language's joined regular expression (~100 for
    // JavaScript) on each match. The same search as a loop.
    why: 'the matched rule found without a callback per group',
    from: 'const i = match.findIndex((el, i) => i > 0 && el !== undefined);',
    to: 'let i = -1;\n      for (let k = 1; k < match.length; k++) if (match[k] !== undefined) { i = k; break; }',
  },
  {
    // Keyword hits counted for relevance (language detection, which jp
    // never asks for) in an object made per call whose keys are each
    // keyword seen: a dictionary-mode object and a string internalised per
    // hit. The same counts in a Map.
    why: 'keyword hits counted in a Map',
    from: 'const keywordHits = Object.create(null);',
    to: 'const keywordHits = new Map();',
  },
  {
    why: 'keyword hits counted in a Map (the count)',
    from: 'keywordHits[word] = (keywordHits[word] || 0) + 1;\n          if (keywordHits[word] <= MAX_KEYWORD_HITS) relevance += keywordRelevance;',
    to: 'const hits = (keywordHits.get(word) || 0) + 1;\n          keywordHits.set(word, hits);\n          if (hits <= MAX_KEYWORD_HITS) relevance += keywordRelevance;',
  },
]

/** lib/core.js's text with every patch applied; throws naming the patch that has nothing to patch. */
export function patchHighlightCore(text, path = 'highlight.js/lib/core.js') {
  let out = text
  for (const p of HIGHLIGHT_PATCHES) {
    if (out.split(p.from).length !== 2) throw new Error(`${path}: the code to patch for "${p.why}" is not there once (scripts/highlight-patch.js)`)
    out = out.replace(p.from, () => p.to)
  }
  return out
}

/** The esbuild plugin: patches highlight.js's core as it is bundled. */
export function highlightWithoutPerCallCost() {
  return {
    name: 'highlight-per-call-cost',
    setup(b) {
      b.onLoad({filter: /[\\/]highlight\.js[\\/]lib[\\/]core\.js$/}, async ({path}) => ({contents: patchHighlightCore(readFileSync(path, 'utf8'), path), loader: 'js'}))
    },
  }
}
