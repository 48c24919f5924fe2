import {expect} from 'chai'
import {
  buildQueryDocument,
  CUT_MARKER,
  CUT_MARKER_LINE,
  errorLines,
  historyText,
  parseQueryDocument,
} from '../../src/lib/query/document.js'
import type {ConversationEvent} from '../../src/lib/conversation/events.js'

const TOML = '[assistant.model]\nid = "anthropic/claude"'

describe('query document (QUERY_MESSAGE.md)', () => {
  it('lays out query, blank line, the three-line marker, the config heading and the toml block', () => {
    const doc = buildQueryDocument({query: 'Hello\nworld', configToml: TOML})
    const lines = doc.split('\n')
    expect(lines.slice(0, 3)).to.deep.equal(['Hello', 'world', ''])
    expect(lines.slice(3, 6).join('\n')).to.equal(CUT_MARKER)
    expect(lines[4]).to.equal('---- EVERYTHING BELOW THIS LINE IS IGNORED ----')
    expect(doc).to.include('\n# Active Configuration\n')
    expect(doc).to.include('```toml\n' + TOML + '\n```\n')
    expect(doc).not.to.include('# Conversation History')
  })

  it('round-trips: the query and the toml block come back out', () => {
    const doc = buildQueryDocument({query: '  two\n\nparagraphs  ', configToml: TOML, history: '## You on x\n\nearlier'})
    expect(parseQueryDocument(doc)).to.deep.equal({query: 'two\n\nparagraphs', configToml: TOML})
  })

  it('an empty query parses as empty', () => {
    expect(parseQueryDocument(buildQueryDocument({query: '', configToml: TOML})).query).to.equal('')
    expect(parseQueryDocument('').query).to.equal('')
  })

  it('without a marker the whole text is the query and there is no block', () => {
    expect(parseQueryDocument('  just text \n')).to.deep.equal({query: 'just text'})
  })

  it('finds the marker by its middle line even when the frame was reflowed or removed', () => {
    expect(parseQueryDocument(`q\n${CUT_MARKER_LINE}\nanything`).query).to.equal('q')
    expect(parseQueryDocument(`q\n---8<---\n  ${CUT_MARKER_LINE}\n`).query).to.equal('q')
  })

  it('keeps fences inside TOML multi-line strings and stops at the history heading', () => {
    const toml = 'x = """\n```toml\ninner\n```\n"""'
    const doc = buildQueryDocument({query: 'q', configToml: toml, history: '## You on t\n\n```\ncode\n```'})
    expect(parseQueryDocument(doc).configToml).to.equal(toml)
  })

  it('writes an error as > ERROR: lines above the block, and still parses the block', () => {
    expect(errorLines('bad thing\nat line 2')).to.equal('> ERROR: bad thing\n> at line 2')
    const doc = buildQueryDocument({query: 'q', configToml: 'id = "', error: 'invalid TOML: unterminated string'})
    expect(doc).to.include('\n> ERROR: invalid TOML: unterminated string\n')
    expect(doc).not.to.include('> NOTE:')
    expect(parseQueryDocument(doc)).to.deep.equal({query: 'q', configToml: 'id = "'})
  })

  it('a deleted block parses as no block (no config change)', () => {
    const doc = buildQueryDocument({query: 'q', configToml: TOML}).replace(/```toml[\s\S]*```\n/, '')
    expect(parseQueryDocument(doc)).to.deep.equal({query: 'q', configToml: undefined})
  })

  describe('history', () => {
    const at = (i: number) => `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`
    it('lists readable events newest first, at most 10, skipping turn_start and unknown events', () => {
      const events: ConversationEvent[] = []
      for (let i = 0; i < 8; i++) {
        events.push({timestamp: at(i * 3), type: 'turn_start'})
        events.push({timestamp: at(i * 3 + 1), type: 'chat_request', content: `question ${i}`})
        events.push({timestamp: at(i * 3 + 2), type: 'chat_response', message: `answer ${i}`})
      }
      events.push({timestamp: at(59), type: 'some_future_event', data: 1})
      const text = historyText(events)
      const headings = text.split('\n').filter((l) => l.startsWith('## '))
      expect(headings).to.have.length(10)
      expect(headings[0]).to.equal('## Assistant on 2026-01-01 00:00:23')
      expect(headings[1]).to.equal('## You on 2026-01-01 00:00:22')
      expect(text).to.include('answer 7')
      expect(text).to.include('question 3')
      expect(text).not.to.include('question 2')
      expect(text.indexOf('answer 7')).to.be.lessThan(text.indexOf('question 7'))
    })

    it('renders reasoning, tool calls and tool errors distinctly', () => {
      const text = historyText([
        {timestamp: at(1), type: 'chat_response', reasoning: 'thinking hard'},
        {timestamp: at(2), type: 'tool_call_request', id: 'c1', name: 'ls', arguments: {dir: '.'}},
        {timestamp: at(3), type: 'tool_call_response', id: 'c1', content: 'boom', is_error: true},
      ])
      expect(text).to.include('## Assistant (reasoning) on 2026-01-01 00:00:01\n\nthinking hard')
      expect(text).to.include('"name": "ls"')
      expect(text).to.include('## Tool Call **Error** on 2026-01-01 00:00:03\n\n```\nboom\n```')
    })

    it('is included under its heading only when not empty', () => {
      const doc = buildQueryDocument({query: 'q', configToml: TOML, history: historyText([{timestamp: at(1), type: 'chat_request', content: 'hi'}])})
      expect(doc).to.include('\n# Conversation History (last 10 entries)\n\n## You on 2026-01-01 00:00:01\n\nhi\n')
    })
  })
})
