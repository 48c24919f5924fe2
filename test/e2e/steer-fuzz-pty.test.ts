// The steering fuzzer's real-terminal rounds (issue 36): bin/run.js in a
// pseudo-terminal against a local server, a tool loop of random length whose
// tool runs a random time, permission prompts or not, and a reply typed to
// queue at a random moment (while the answer comes, while a tool runs, or as
// a prompt opens: keys typed at a prompt are that prompt's). Each round
// checks the same invariants as the seam fuzzer (test/turn/steer-fuzz.ts)
// against the server's request log, the stored events and the draft.
// PTY_FUZZ_ROUNDS rounds (6 by default: a pty round costs about two seconds);
// bench/steer-fuzz.ts runs more.
import {expect} from 'chai'
import fc from 'fast-check'
import {FC_SEED} from '../helpers/fast-check-seed.js'
import {keys} from '../helpers/pty.js'
import {JpRun} from '../fixtures/e2e/interrupt-run.js'
import {startReplayServer} from '../llm/replay-server.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'

const ROUNDS = Number(process.env.PTY_FUZZ_ROUNDS ?? 6)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
type Msg = {role: string; content?: unknown}

const roundArb = fc.record({
  tools: fc.integer({min: 0, max: 3}),
  ask: fc.boolean(),
  toolMs: fc.integer({min: 100, max: 700}),
  typeAfterMs: fc.integer({min: 0, max: 1500}),
  delivery: fc.constantFrom('next_step', 'next_step', 'turn_end'),
})

describe('e2e: steer fuzz in a real terminal (issue 36)', function () {
  this.timeout(60_000 + ROUNDS * 20_000)

  it(`${ROUNDS} rounds: delivered exactly once, never under a prompt, stored marked, nothing left behind`, async () => {
    const tally = {rounds: 0, typed: 0, nextStep: 0}
    await fc.assert(
      fc.asyncProperty(roundArb, async (round) => {
        const steps = [...Array.from({length: round.tools}, (_, i) => ({body: openaiToolCall(`call_${i}`, 'slow', {})})), {body: openaiText(['all ', 'done.'])}, {body: openaiText(['and ', 'that.'])}]
        const replay = await startReplayServer(steps)
        const run = new JpRun({
          baseUrl: `${replay.url}/v1`,
          toml: `[interrupt]\nqueue_countdown_secs = 0\nqueue_delivery = "${round.delivery}"\n[conversation.tools.slow]\ncommand = {program = "sh", args = ["-c", "cat > /dev/null; sleep ${round.toolMs / 1000}; echo ran"]}\nrun = "${round.ask ? 'ask' : 'unattended'}"\n`,
        })
        try {
          const r = await run.start('go')
          let answered = 0
          let typed = false
          let tried = false
          let exited = false
          void r.term.waitForExit(30_000).then(() => (exited = true), () => {})
          // jp reads keys once it has sent its first request.
          while (replay.requests.length === 0 && !exited) await sleep(10)
          const started = Date.now()
          // The user: answers each permission prompt, and types the reply once its moment comes (a prompt open then takes no reply).
          while (!exited) {
            const screen = r.term.screenText()
            const last = screen.split('\n').filter((l) => l !== '').at(-1) ?? ''
            const prompts = screen.split('Run local tool').length - 1
            const atPrompt = /Run local tool .*\[y,Y/.test(last)
            if (atPrompt && prompts > answered) {
              r.term.send('y')
              answered = prompts
            } else if (!tried && !atPrompt && Date.now() - started >= round.typeAfterMs) {
              tried = true
              r.term.type('steer')
              await r.term.waitForText('Queue: steer', 3000).catch(() => {})
              if (r.term.screenText().includes('Queue: steer')) {
                r.term.send(keys.enter)
                typed = true
              }
            }
            if (Date.now() - started > 20_000) throw new Error(`stuck:\n${r.term.screenText()}`)
            await sleep(20)
          }
          const res = await r.finish()
          tally.rounds++
          if (typed) tally.typed++
          expect(res.code, r.term.screenText()).to.equal(0)
          const events = (await r.events()) as Array<{type: string; content?: string; queued?: string}>
          const stored = events.filter((e) => e.type === 'chat_request' && e.content === 'steer')
          const bodies = replay.requests.map((q) => (q.json() as {messages: Msg[]}).messages)
          if (!typed) {
            expect(stored).to.deep.equal([])
            return
          }
          // Exactly once: stored once, marked; on the wire once per request from the one that delivered it on.
          expect(stored, JSON.stringify(events)).to.have.length(1)
          const first = bodies.findIndex((m) => m.some((x) => x.role === 'user' && x.content === 'steer'))
          expect(first, 'delivered').to.be.greaterThan(0)
          for (const [i, m] of bodies.entries()) expect(m.filter((x) => x.role === 'user' && x.content === 'steer').length, `request ${i}`).to.equal(i >= first ? 1 : 0)
          const messages = bodies[first]
          const at = messages.findIndex((x) => x.role === 'user' && x.content === 'steer')
          if (stored[0].queued === 'next_step') {
            tally.nextStep++
            expect(round.delivery).to.equal('next_step')
            expect(messages[at - 1].role, 'after the tool results').to.equal('tool')
          } else {
            expect(stored[0].queued).to.equal('turn_end')
            expect(messages[at - 1].role).to.equal('assistant')
          }
          expect(r.term.screenText()).not.to.include('⧗')
        } finally {
          run.dispose()
          await replay.close()
        }
      }),
      {numRuns: ROUNDS, seed: FC_SEED},
    )
    // The rounds did what they are for: replies typed and delivered, some at a step.
    expect(tally.typed, JSON.stringify(tally)).to.be.greaterThan(0)
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify(tally))
  })
})
