// The `@` completion's ranking (inquire/complete/match.ts, pure).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {candidate, PathMatcher, score} from '../../../src/lib/inquire/complete/match.js'

const rank = (paths: string[], q: string, limit = 8) => new PathMatcher(paths.map((p) => candidate(p))).rank(q, limit).paths

describe('PathMatcher', () => {
  it('matches a subsequence, case ignored', () => {
    expect(rank(['src/main.ts', 'README.md', 'lib/x.ts'], 'SMN')).to.deep.equal(['src/main.ts'])
    expect(score(candidate('abc'), 'acb')).to.equal(-Infinity)
  })

  it("weighs the file's own name and segment starts over scattered letters", () => {
    expect(rank(['mantra/aaaa/inner.ts', 'src/main.ts'], 'main')[0]).to.equal('src/main.ts')
    expect(rank(['docs/big-file.md', 'src/bigfile.ts', 'b/i/g/f.ts'], 'bigf')).to.deep.equal(['src/bigfile.ts', 'docs/big-file.md', 'b/i/g/f.ts'])
  })

  it('prefers shorter paths on ties and a boost (recent, modified) above all', () => {
    expect(rank(['a/b/c/main.ts', 'main.ts'], 'main')).to.deep.equal(['main.ts', 'a/b/c/main.ts'])
    const m = new PathMatcher([candidate('main.ts'), candidate('deep/dir/main.ts', 40)])
    expect(m.rank('main', 8).paths[0]).to.equal('deep/dir/main.ts')
  })

  it('keeps the best `limit` and counts every match; narrowing gives what a fresh match gives', () => {
    const paths = Array.from({length: 100}, (_, i) => `dir${i % 7}/file${i}.ts`)
    const m = new PathMatcher(paths.map((p) => candidate(p)))
    const first = m.rank('f', 5)
    expect(first.paths).to.have.length(5)
    expect(first.total).to.equal(100)
    const narrowed = m.rank('fi1', 5)
    expect(narrowed).to.deep.equal(new PathMatcher(paths.map((p) => candidate(p))).rank('fi1', 5))
    // A shorter query again starts from the whole list.
    expect(m.rank('d', 5).total).to.equal(100)
  })

  it('a path lifted (just taken) ranks first from then on', () => {
    const m = new PathMatcher(['main.ts', 'deep/dir/main.ts'].map((p) => candidate(p)))
    expect(m.rank('main', 8).paths[0]).to.equal('main.ts')
    m.lift('deep/dir/main.ts', 40)
    expect(m.rank('main', 8).paths[0]).to.equal('deep/dir/main.ts')
  })

  it('an empty query lists every path (shortest first)', () => {
    expect(rank(['a/long/path.ts', 'b.ts'], '')).to.deep.equal(['b.ts', 'a/long/path.ts'])
  })
})
