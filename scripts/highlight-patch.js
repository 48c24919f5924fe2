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
  {
    // A comment's "three English words" rule (a run of plain words, no
    // scope, ended as soon as it is entered) only moves highlight.js past
    // the words, for the relevance of language detection, which jp never
    // asks for; each run costs a match and a mode entered and left, most of
    // a commented code line's time. It is left out of a comment's matcher
    // only where skipping its words cannot change a piece (englishRunIdle,
    // below): the rule and the standard doctag rule are marked here.
    why: 'the doctag rule marked',
    from: "  mode.contains.push({\n    scope: 'doctag',\n",
    to: "  mode.contains.push({\n    __jpDoctag: true,\n    scope: 'doctag',\n",
  },
  {
    why: 'the English-words rule marked',
    from: '      begin: concat(\n        /[ ]+/, // necessary to prevent us gobbling up doctags',
    to: '      __jpEnglishRun: true,\n      begin: concat(\n        /[ ]+/, // necessary to prevent us gobbling up doctags',
  },
  {
    // Skipping a run of words (letters, an apostrophe, a hyphen, a full stop,
    // a colon, single spaces) is invisible when nothing else could match
    // inside it: the comment's other rule is the doctag alone, whose text
    // (TODO: and the like, upper case and a colon) no run can contain in a
    // case-sensitive grammar, and which, where it starts at a run's last
    // space, puts that space in the comment's text as the run did; its end
    // is `$` or `*/`, neither of which a run can contain; it has no
    // keywords (text between matches is then added as it is, the run's and
    // its neighbours' the same), no illegal, no sub-language.
    why: 'the English-words rule left out where it changes nothing',
    from: '  function buildModeRegex(mode) {\n    const mm = new ResumableMultiRegex();\n\n    mode.contains.forEach(term => mm.addRule(term.begin, { rule: term, type: "begin" }));',
    to: String.raw`  function englishRunIdle(mode, term) {
    if (!term.__jpEnglishRun) return false;
    if (language.case_insensitive || mode.keywords || mode.illegal || mode.subLanguage != null) return false;
    if (mode.contains.length !== 2 || !mode.contains[0].__jpDoctag || mode.contains[1] !== term) return false;
    return mode.terminatorEnd === '$' || mode.terminatorEnd === '\\*/';
  }

  function buildModeRegex(mode) {
    const mm = new ResumableMultiRegex();

    mode.contains.forEach(term => { if (!englishRunIdle(mode, term)) mm.addRule(term.begin, { rule: term, type: "begin" }); });`,
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
