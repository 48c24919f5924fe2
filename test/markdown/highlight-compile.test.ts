// Every grammar compiled ahead (markdown/highlight.ts compileLanguages, issue
// 40): highlight.js compiles a language at its first use, 2–30 ms apiece,
// which held a fence's first line and every token behind it; the render
// worker compiles them all before it says it is ready.
import {expect} from 'chai'
import hljs from 'highlight.js/lib/common'

import {compileLanguages} from '../../src/lib/markdown/highlight.js'

describe('markdown: grammars compiled ahead', () => {
  it('leaves every language highlight.js holds compiled', () => {
    compileLanguages()
    const names = hljs.listLanguages()
    expect(names.length).to.be.greaterThan(30)
    const uncompiled = names.filter((n) => (hljs.getLanguage(n) as {isCompiled?: boolean} | undefined)?.isCompiled !== true)
    expect(uncompiled).to.deep.equal([])
  })
})
