// The search behind `jp conversation grep`: the matcher, the lines and roles
// of each event kind, and the raw-file prefilter (which must never hide a
// match the parsed events hold).
import {expect} from 'chai'
import {describe, it} from 'mocha'
import {compileMatcher, grepEvents, rawPrefilter, type GrepQuery} from '../../src/lib/conversation/search.js'
import type {ConversationEvent} from '../../src/lib/conversation/events.js'

const ts = '2024-01-01T00:00:00Z'
const EVENTS: ConversationEvent[] = [
  {timestamp: ts, type: 'config_delta', delta: {}},
  {timestamp: ts, type: 'turn_start'},
  {timestamp: ts, type: 'chat_request', content: 'say "hi" to\nthe naïve café'},
  {timestamp: ts, type: 'attachment', path: 'src/a.ts', content: 'const a = 1'},
  {timestamp: ts, type: 'turn_start'},
  {timestamp: ts, type: 'tool_call_request', id: 'c1', name: 'grep', arguments: {pattern: 'x', n: 5}},
  {timestamp: ts, type: 'tool_call_response', id: 'c1', content: 'line one\nline two', is_error: false},
  {timestamp: ts, type: 'chat_response', reasoning: 'hmm two'},
  {timestamp: ts, type: 'chat_response', message: 'Two lines.'},
]

const lines = (q: GrepQuery) => grepEvents(EVENTS, compileMatcher(q), q.role).map((l) => `${l.turn} ${l.role} ${l.text} ${JSON.stringify(l.matches)}`)

describe('conversation search', () => {
  it('finds each line with its turn and role; a literal is literal', () => {
    expect(lines({pattern: 'two'})).to.deep.equal(['2 tool line two [[5,8]]', '2 assistant hmm two [[4,7]]'])
    expect(lines({pattern: 'two', ignoreCase: true})).to.have.length(3)
    expect(lines({pattern: 'a.ts'})).to.deep.equal(['1 user src/a.ts [[4,8]]'])
    expect(lines({pattern: '"hi"'})).to.deep.equal(['1 user say "hi" to [[4,8]]'])
    expect(lines({pattern: 'grep {"pattern"'})).to.deep.equal(['2 tool grep {"pattern":"x","n":5} [[0,15]]'])
    expect(lines({pattern: 'line', role: 'user'})).to.deep.equal([])
  })

  it('a regex may match empty (the line matches, nothing is highlighted) and never loops', () => {
    expect(lines({pattern: '^the', regex: true})).to.deep.equal(['1 user the naïve café [[0,3]]'])
    expect(lines({pattern: 'z*', regex: true, role: 'assistant'})).to.deep.equal(['2 assistant hmm two []', '2 assistant Two lines. []'])
  })

  it('the raw prefilter passes every file whose parsed events match, and is off where it could not be sure', () => {
    const raw = Buffer.from(JSON.stringify(EVENTS, null, 2))
    for (const pattern of ['two', 'line one', 'a.ts', 'say', 'grep', 'Two lines.']) {
      const q = {pattern}
      const filter = rawPrefilter(q)
      expect(filter, pattern).to.not.equal(undefined)
      expect(filter!(raw), pattern).to.equal(lines(q).length > 0)
    }
    expect(rawPrefilter({pattern: 'TWO LINES', ignoreCase: true})!(raw)).to.equal(true)
    expect(rawPrefilter({pattern: 'zebra'})!(raw)).to.equal(false)
    // Quotes, brackets, a newline escaped in the file, non-ASCII (escaped by other writers), a regex, an outer space: parsed.
    for (const q of [{pattern: '"hi"'}, {pattern: 'grep {'}, {pattern: 'café'}, {pattern: 'x', regex: true}, {pattern: 'grep '}, {pattern: 'to\nthe'}]) {
      expect(rawPrefilter(q), JSON.stringify(q)).to.equal(undefined)
    }
  })
})
