// The `@` completion list's keys over a LineEditor (inquire/complete/mention-completion.ts, pure).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {MentionCompletion, type MentionCompleter} from '../../../src/lib/inquire/complete/mention-completion.js'
import {candidate, PathMatcher} from '../../../src/lib/inquire/complete/match.js'
import {LineEditor} from '../../../src/lib/inquire/core/line-editor.js'
import type {Key} from '../../../src/lib/inquire/keys.js'

const key = (name: string, mods: Partial<Key> = {}): Key => ({name, ctrl: false, meta: false, shift: false, sequence: '', ...mods})
function completer(paths: string[]): MentionCompleter & {remembered: string[]} {
  const m = new PathMatcher(paths.map((p) => candidate(p)))
  const remembered: string[] = []
  return {rank: (q, n) => m.rank(q, n), remember: (p) => remembered.push(p), remembered}
}

describe('MentionCompletion', () => {
  const files = ['src/main.ts', 'src/mail.ts', 'a b/c.txt', 'docs/']

  it('opens on the mention at the cursor, moves, and accepts in place with a space after', () => {
    const c = completer(files)
    const comp = new MentionCompletion(c, false)
    const ed = new LineEditor('fix @ma now')
    ed.setCursor(7)
    expect(comp.start(ed)).to.equal('moved')
    expect(comp.view()!.items).to.deep.equal(['src/main.ts', 'src/mail.ts'])
    expect(comp.key(key('down'), undefined, ed)).to.equal('moved')
    expect(comp.view()!.selected).to.equal(1)
    expect(comp.key(key('p', {ctrl: true}), undefined, ed)).to.equal('moved')
    expect(comp.key(key('tab'), undefined, ed)).to.equal('changed')
    expect(ed.text).to.equal('fix @src/main.ts now')
    expect(ed.cursor).to.equal('fix @src/main.ts'.length)
    expect(comp.open).to.equal(false)
    expect(c.remembered).to.deep.equal(['src/main.ts'])
  })

  it('quotes a path with a space; Esc and Ctrl+G leave the buffer alone', () => {
    const comp = new MentionCompletion(completer(files), false)
    const ed = new LineEditor('@c.t')
    comp.start(ed)
    expect(comp.key(key('escape'), undefined, ed)).to.equal('moved')
    expect(ed.text).to.equal('@c.t')
    comp.start(ed)
    expect(comp.key(key('g', {ctrl: true}), undefined, ed)).to.equal('moved')
    comp.start(ed)
    comp.key(key('enter'), undefined, ed)
    expect(ed.text).to.equal('@"a b/c.txt" ')
  })

  it('narrows as the mention is typed and closes when the cursor leaves it', () => {
    const comp = new MentionCompletion(completer(files), false)
    const ed = new LineEditor('@ma')
    comp.start(ed)
    ed.apply({type: 'insert', text: 'in'})
    comp.follow(ed)
    expect(comp.view()!.items).to.deep.equal(['src/main.ts'])
    ed.apply({type: 'insert', text: ' '})
    comp.follow(ed)
    expect(comp.open).to.equal(false)
  })

  it('a key bound to complete_next / complete_prev / complete acts on the list', () => {
    const comp = new MentionCompletion(completer(files), false)
    const ed = new LineEditor('@ma')
    comp.start(ed)
    expect(comp.key(key('j', {meta: true}), 'complete_next', ed)).to.equal('moved')
    expect(comp.view()!.selected).to.equal(1)
    expect(comp.key(key('k', {meta: true}), 'complete_prev', ed)).to.equal('moved')
    expect(comp.key(key('o', {ctrl: true}), 'complete', ed)).to.equal('changed')
    expect(ed.text).to.equal('@src/main.ts ')
  })

  it('"auto" opens after two characters, not again on a mention closed with Esc', () => {
    const comp = new MentionCompletion(completer(files), true)
    const ed = new LineEditor('@m')
    comp.follow(ed)
    expect(comp.open).to.equal(false)
    ed.apply({type: 'insert', text: 'a'})
    comp.follow(ed)
    expect(comp.open).to.equal(true)
    comp.key(key('escape'), undefined, ed)
    ed.apply({type: 'insert', text: 'i'})
    comp.follow(ed)
    expect(comp.open).to.equal(false)
  })

  it('a directory keeps the list open for its files, without a space', () => {
    const comp = new MentionCompletion(completer(files), false)
    const ed = new LineEditor('@doc')
    comp.start(ed)
    comp.key(key('tab'), undefined, ed)
    expect(ed.text).to.equal('@docs/')
    expect(comp.open).to.equal(true)
  })
})
