// The V8 flag tuneCompiler sets where an answer is rendered on a terminal
// (markdown/index.ts): V8 prints "Error: unrecognized flag" for a flag it
// does not know, which would land in the user's terminal at every rendered
// answer. Each Node that CI runs must know it.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'

import {INLINE_BUDGET} from '../../src/lib/markdown/index.js'

/** What a Node process prints when the flag is set in it (and nothing else runs). */
function printedSetting(flag: string): string {
  const r = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], {encoding: 'utf8'})
  return `${r.stdout}${r.stderr}`
}

describe('markdown: the compiler flag set for rendering', () => {
  it('is one this Node’s V8 knows (setting it prints nothing)', () => {
    expect(INLINE_BUDGET).to.match(/^--max-inlined-bytecode-size-cumulative=\d+$/)
    expect(printedSetting(INLINE_BUDGET)).to.equal('')
    // A flag V8 does not know is what this would catch.
    expect(printedSetting('--jp-no-such-flag')).to.include('unrecognized flag')
  })
})
