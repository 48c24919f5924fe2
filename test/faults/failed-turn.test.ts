// Finding 5 of issue 13: a failed turn leaves no user message that would be
// sent twice. When nothing was answered the turn is taken back and its text
// kept as the draft; when part of an answer arrived it is stored and the
// notice says so — and only then.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {storedEvents, useOpenAI, walkFiles} from './harness.js'

const BAD_REQUEST = {status: 400, headers: {'content-type': 'application/json'}, body: '{"error":{"type":"invalid_request","message":"bad request"}}'}

describe('faults: a failed turn and its retry', function () {
  this.timeout(60_000)
  let sb: Sandbox
  let server: ReplayServer | undefined

  beforeEach(() => (sb = makeSandbox()))
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  const drafts = () => walkFiles(sb.env.JP_USER_DATA_DIR!).filter((p) => p.endsWith('QUERY_MESSAGE.md'))
  const messages = (i: number) => (server!.requests[i].json() as {messages: Array<{role: string; content: string | null}>}).messages

  it('a 400 before any answer: the retry with the same text sends it once; the text waited in the draft, removed once answered', async () => {
    server = await startReplayServer([BAD_REQUEST, {body: openaiText(['answered'])}])
    const cfg = useOpenAI(sb, server.url)
    const first = await runJp(['query', ...cfg, 'same text'], {sandbox: sb})
    expect(first.code).to.equal(1)
    expect(first.stderr).not.to.contain('partial answer')
    expect(first.stderr).to.contain('your query is kept as the draft')
    expect(storedEvents(sb)).to.deep.equal([])
    expect(drafts()).to.have.length(1)
    expect(readFileSync(drafts()[0], 'utf8')).to.equal('same text\n')

    const retry = await runJp(['query', ...cfg, 'same text'], {sandbox: sb})
    expect(retry.code, retry.stderr).to.equal(0)
    expect(messages(1)).to.deep.equal([{role: 'user', content: 'same text'}])
    expect(drafts()).to.deep.equal([])
  })

  it('a failure after part of the answer: the partial answer is saved and said so; the retry adds only the new message', async () => {
    const partial = openaiText(['half an ', 'answer'])
    server = await startReplayServer([{body: partial.slice(0, partial.indexOf('data: {', partial.indexOf('half an '))), destroy: true}, {body: openaiText(['rest'])}])
    const cfg = useOpenAI(sb, server.url)
    const first = await runJp(['query', ...cfg, 'question'], {sandbox: sb})
    expect(first.code).to.equal(1)
    expect(first.stderr).to.contain('The partial answer is saved')
    expect(drafts()).to.deep.equal([])

    const retry = await runJp(['query', ...cfg, 'go on'], {sandbox: sb})
    expect(retry.code, retry.stderr).to.equal(0)
    expect(messages(1)).to.deep.equal([
      {role: 'user', content: 'question'},
      {role: 'assistant', content: 'half an '},
      {role: 'user', content: 'go on'},
    ])
  })
})
