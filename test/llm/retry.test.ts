import {describe, it} from 'mocha'
import {expect} from 'chai'
import {backoffMs, DEFAULT_RETRY, isRetryableStatus, retryAfterMsFromHeaders} from '../../src/lib/llm/retry.js'
import {describeErrorBody} from '../../src/lib/llm/http.js'

describe('llm/retry policy', () => {
  it('retries 408, 409, 429 and 5xx (incl. 529), nothing else', () => {
    expect([408, 409, 429, 500, 502, 503, 529].map(isRetryableStatus)).to.deep.equal([true, true, true, true, true, true, true])
    expect([400, 401, 403, 404, 413, 422].map(isRetryableStatus)).to.deep.equal([false, false, false, false, false, false])
  })

  it('prefers retry-after-ms, then retry-after seconds, then an HTTP date', () => {
    const now = Date.parse('2025-07-01T10:00:00Z')
    expect(retryAfterMsFromHeaders(new Headers({'retry-after-ms': '250', 'retry-after': '9'}), now)).to.equal(250)
    expect(retryAfterMsFromHeaders(new Headers({'retry-after': '1.5'}), now)).to.equal(1500)
    expect(retryAfterMsFromHeaders(new Headers({'retry-after': 'Tue, 01 Jul 2025 10:00:03 GMT'}), now)).to.equal(3000)
    expect(retryAfterMsFromHeaders(new Headers({'retry-after': '0'}), now)).to.equal(0)
    // Long hints are kept: withRetry turns them into an error saying when to retry.
    expect(retryAfterMsFromHeaders(new Headers({'retry-after': '3600'}), now)).to.equal(3_600_000)
    expect(retryAfterMsFromHeaders(new Headers({}), now)).to.equal(undefined)
  })

  it('backs off 0.5 s × 2ⁿ capped at 8 s, jittered down by at most 25%', () => {
    const noJitter = {...DEFAULT_RETRY, random: () => 0}
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, noJitter))).to.deep.equal([500, 1000, 2000, 4000, 8000, 8000])
    expect(backoffMs(1, {...DEFAULT_RETRY, random: () => 1})).to.equal(750)
  })

  it('turns error bodies into one line', () => {
    expect(describeErrorBody('{"type":"error","error":{"type":"not_found_error","message":"model: x"}}')).to.equal('not_found_error: model: x')
    expect(describeErrorBody('{"error":"model not found"}')).to.equal('model not found')
    expect(describeErrorBody('<html>\n<body>Bad gateway</body>\n</html>')).to.equal('<html> <body>Bad gateway</body> </html>')
    expect(describeErrorBody('')).to.equal('')
  })
})
