// The steering fuzzer in a real terminal (issue 36): PTY_FUZZ_ROUNDS rounds
// (300 by default, the fixed seed of test/helpers/fast-check-seed.ts) of
// random key timing across streaming, tool runs, permission prompts and
// menus. A round is one model request; one `jp query` plays a whole session
// of them (a long tool loop, its turns chained by queued replies) so the
// rounds cost a few process starts (test/fixtures/e2e/steer-session.ts).
// After each session the invariants (steer-invariants.ts) are checked
// against the server's log, the stored events and the draft.
// bench/steer-fuzz.ts runs more from a fresh seed.
import {expect} from 'chai'
import fc from 'fast-check'
import {FC_SEED} from '../helpers/fast-check-seed.js'
import {ENDINGS, playSession, sessionArb} from '../fixtures/e2e/steer-session.js'
import {checkSession} from '../fixtures/e2e/steer-invariants.js'

const ROUNDS = Number(process.env.PTY_FUZZ_ROUNDS ?? 300)

describe('e2e: steer fuzz in a real terminal (issue 36)', function () {
  this.timeout(120_000 + ROUNDS * 1000)

  it(`${ROUNDS} rounds: delivered exactly once, never under a prompt, stored marked, never lost`, async () => {
    const tally = {seed: FC_SEED, sessions: 0, rounds: 0, queued: 0, stored: 0, endings: {} as Record<string, number>, ms: 0}
    const t0 = Date.now()
    let n = 0
    // Sessions from the seed, one after another, until the rounds are played; the endings take turns, so each comes.
    // PTY_FUZZ_ONLY=I replays the seed's I-th session alone.
    const only = process.env.PTY_FUZZ_ONLY ? Number(process.env.PTY_FUZZ_ONLY) : undefined
    for (let i = only ?? 0; only === undefined ? tally.rounds < ROUNDS : i === only; i++) {
      const session = fc.sample(sessionArb(40, 60, ENDINGS[i % ENDINGS.length]), {seed: FC_SEED + i, numRuns: 1})[0]
      const started = Date.now()
      const record = await playSession(session, () => `k${++n}`)
      const violations = checkSession(session, record)
      if (process.env.STEER_DEBUG) console.log(JSON.stringify({submitted: record.submitted, draft: record.draft, events: record.events.filter((e) => e.type === 'chat_request' || e.type === 'turn_start')}))
      expect(violations, `FC_SEED=${FC_SEED} PTY_FUZZ_ONLY=${i}: ${JSON.stringify(session)}\n${record.screen}`).to.deep.equal([])
      tally.sessions++
      tally.rounds += record.rounds
      tally.queued += record.submitted.length
      tally.stored += record.events.filter((e) => e.type === 'chat_request' && 'queued' in e && e.queued).length
      tally.endings[session.ending] = (tally.endings[session.ending] ?? 0) + 1
      if (process.env.FUZZ_REPORT) console.log(JSON.stringify({session: tally.sessions, ending: session.ending, rounds: record.rounds, queued: record.submitted.length, code: record.code, ms: Date.now() - started}))
    }
    tally.ms = Date.now() - t0
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify(tally))
    // The rounds did what they are for.
    if (only !== undefined) return
    expect(tally.rounds).to.be.at.least(ROUNDS)
    expect(tally.queued, JSON.stringify(tally)).to.be.greaterThan(tally.rounds / 10)
    if (tally.sessions >= ENDINGS.length) expect(Object.keys(tally.endings).sort()).to.deep.equal([...ENDINGS].sort())
  })
})

