// `@PATH` mentions found in a prompt's text (text/mentions.ts, pure).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {findMentions, mentionAtCursor, mentionText} from '../../src/lib/text/mentions.js'

const paths = (text: string) => findMentions(text).map((m) => m.path)

describe('findMentions', () => {
  it('finds @paths: relative, ~/, absolute, quoted, after brackets', () => {
    expect(paths('look at @src/a.ts and @~/notes.md, @/etc/hosts (@b.txt) @"a b.txt"')).to.deep.equal(['src/a.ts', '~/notes.md', '/etc/hosts', 'b.txt', 'a b.txt'])
  })

  it('keeps sentence punctuation out of the path', () => {
    expect(paths('see @a.ts. Then @b.md, @c/d!')).to.deep.equal(['a.ts', 'b.md', 'c/d'])
  })

  it('leaves alone what is plainly not a path: e-mail addresses, @ followed by a space, @@, a lone @', () => {
    expect(paths('mail me@example.com or @ that, @@x, end @')).to.deep.equal([])
  })

  it('finds nothing inside a fenced code block or an inline code span', () => {
    const text = 'fix @a.ts\n```java\n@Override\nvoid f()\n```\nand `@b.ts` but @c.ts\n~~~\n@d\n'
    expect(paths(text)).to.deep.equal(['a.ts', 'c.ts'])
  })

  it('gives offsets that cover the mention as typed', () => {
    const text = 'x @"a b.txt" y'
    const [m] = findMentions(text)
    expect(text.slice(m.start, m.end)).to.equal('@"a b.txt"')
    expect(m.quoted).to.equal(true)
  })
})

describe('mentionAtCursor', () => {
  it('is the mention being typed, up to the cursor', () => {
    expect(mentionAtCursor('fix @src/ma', 11)).to.include({path: 'src/ma', start: 4, end: 11})
    expect(mentionAtCursor('fix @', 5)).to.include({path: '', start: 4})
    expect(mentionAtCursor('fix @"my fi', 11)).to.include({path: 'my fi', quoted: true})
  })

  it('is nothing after a space, in an e-mail address, or in code', () => {
    expect(mentionAtCursor('fix @a.ts now', 13)).to.equal(undefined)
    expect(mentionAtCursor('me@exa', 6)).to.equal(undefined)
    expect(mentionAtCursor('```\n@a', 6)).to.equal(undefined)
  })
})

describe('mentionText', () => {
  it('quotes a path with a space', () => {
    expect(mentionText('src/a.ts')).to.equal('@src/a.ts')
    expect(mentionText('a b.txt')).to.equal('@"a b.txt"')
  })
})
