// The render-latency bench's measuring parts (bench/lib/marker-corpus.ts,
// bench/lib/marker-scan.ts): markers that leave the answer's structure alone
// and are each one token, and a pty reader that finds a marker through the
// renderer's escapes and across chunk boundaries, at the time of the chunk
// that completed it.
import {expect} from 'chai'
import {insertMarkers, markedAnswer, markerWord} from '../../bench/lib/marker-corpus.js'
import {MarkerScan} from '../../bench/lib/marker-scan.js'

describe('render-latency bench: markers', () => {
  it('never puts a marker in a fence line, a delimiter row or a line’s indentation', () => {
    const {text, kinds} = insertMarkers('para one two three\n\n```python\n    x = f(a, b)\n```\n\n| a b | c d |\n|---|---:|\n| e f | g h |\n', 1)
    const lines = text.split('\n')
    expect(lines[2]).to.equal('```python')
    expect(lines[3]).to.match(/^ {4}x /)
    expect(lines[4]).to.equal('```')
    expect(lines[7]).to.equal('|---|---:|')
    expect(kinds).to.include.members(['prose', 'code', 'table'])
    expect(text.replace(/zq\d{5} /g, '')).to.equal('para one two three\n\n```python\n    x = f(a, b)\n```\n\n| a b | c d |\n|---|---:|\n| e f | g h |\n')
  })

  it('cuts the answer into tokens that add up to it, each marker a token of its own', () => {
    const answer = markedAnswer(8 * 1024, 6)
    const ids = [...answer.markerOf].filter((id) => id >= 0)
    expect(ids).to.deep.equal(answer.kinds.map((_, id) => id))
    expect(answer.tokens.filter((t) => t.includes('zq')).every((t) => /^ ?zq\d{5}$/.test(t))).to.equal(true)
  })
})

describe('render-latency bench: reading the pty', () => {
  it('finds a marker styled, split inside an escape, and split across chunks, at the completing chunk', () => {
    const scan = new MarkerScan()
    scan.push(`a \x1b[3`, 1)
    scan.push(`8;5;12m${markerWord(1)}\x1b[0m b zq0`, 2)
    scan.push(`0002 \x1b]8;;http://x\x07${markerWord(3)}`, 3)
    expect([...scan.seenAt]).to.deep.equal([
      [1, 2],
      [2, 3],
      [3, 3],
    ])
  })

  it('keeps the first time a marker shows', () => {
    const scan = new MarkerScan()
    scan.push(markerWord(7), 1)
    scan.push(`\r${markerWord(7)}`, 5)
    expect(scan.seenAt.get(7)).to.equal(1)
  })

  it('finds a marker whose halves an escape cut between two chunks separates', () => {
    const scan = new MarkerScan()
    scan.push('zq00\x1b[3', 1)
    scan.push('1m004\x1b[0m', 2)
    expect(scan.seenAt.get(4)).to.equal(2)
  })
})
