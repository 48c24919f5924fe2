// A large answer end to end (issue 14): several MB of text with quotes,
// backslashes, control and astral characters streamed through `jp query`
// reach stdout unchanged and are stored exactly (written as log bytes while
// they stream, beyond what is kept in memory), and the next turn sends the
// whole answer back.
import {expect} from 'chai'
import {readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {IN_MEMORY_FIELD_CHARS, loadEvents} from '../../src/lib/conversation/journal.js'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'

describe('e2e: a large answer is streamed, stored and sent back whole', function () {
  this.timeout(120_000)
  let sb: Sandbox
  let server: ReplayServer | undefined
  beforeEach(() => (sb = makeSandbox()))
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  it('a 3 MB answer: stdout and the stored message equal what streamed; the follow-up request carries it all', async () => {
    const words = ['plain', '"quoted"', 'back\\slash', 'tab\there', 'naïve', '—', '😀', 'line\n', '{"json": [1, 2]}', '\u2028']
    const pieces: string[] = []
    let size = 0
    for (let i = 0; size < 3 * 1024 * 1024; i++) {
      const piece = Array.from({length: 24}, (_, k) => words[(i + k) % words.length]).join(' ') + ' '
      pieces.push(piece)
      size += piece.length
    }
    const answer = pieces.join('')
    expect(answer.length).to.be.above(2 * IN_MEMORY_FIELD_CHARS)
    server = await startReplayServer([{body: openaiText(pieces)}, {body: openaiText(['short'])}])
    const config = join(sb.home, 'config.toml')
    writeFileSync(config, `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n`)

    const first = await runJp(['query', '--cfg', config, 'go'], {sandbox: sb})
    expect(first.code, first.stderr).to.equal(0)
    expect(first.stdout === answer || first.stdout === answer + '\n', 'stdout is the answer').to.equal(true)

    const dir = join(sb.env.JP_USER_DATA_DIR!, 'workspace', '.jp', 'conversations')
    const [id] = readdirSync(dir)
    const stored = await loadEvents(join(dir, id, 'events.json'), join(dir, id, 'events.log'))
    const response = stored.events.find((e) => e.type === 'chat_response') as {message?: string}
    expect(response.message?.length).to.equal(answer.length)
    expect(response.message === answer, 'the stored message is the answer exactly').to.equal(true)

    const second = await runJp(['query', '--cfg', config, 'more'], {sandbox: sb})
    expect(second.code, second.stderr).to.equal(0)
    const body = server.requests[1].json() as {messages: Array<{role: string; content: string}>}
    const sent = body.messages.find((m) => m.role === 'assistant')
    expect(sent?.content === answer, 'the follow-up sends the whole answer back').to.equal(true)
  })
})
