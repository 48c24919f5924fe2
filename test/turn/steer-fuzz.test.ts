// The steering fuzzer (issue 36): FUZZ_ROUNDS rounds (300 in CI, with the
// fixed seed of test/helpers/fast-check-seed.ts) of random scripts and key
// timing across streaming, tool runs, permission and result prompts, menus
// and the ways a turn ends, at the decision-logic seam (test/turn/steer-fuzz.ts).
// The pty side runs fewer, real rounds in test/e2e/steer-fuzz-pty.test.ts;
// bench/steer-fuzz.ts runs many more of both kinds.
import {expect} from 'chai'
import fc from 'fast-check'
import {roundArb, runRound, type Round} from './steer-fuzz.js'

const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 300)

describe('steer fuzz: a queued reply is delivered exactly once, never under a prompt, never lost', function () {
  this.timeout(300_000)

  it(`${ROUNDS} rounds: 0 violations`, async () => {
    const tally = {rounds: 0, delivered: 0, nextStep: 0, outcomes: new Map<string, number>()}
    await fc.assert(
      fc.asyncProperty(roundArb, async (round: Round) => {
        const r = await runRound(round)
        tally.rounds++
        tally.delivered += r.delivered
        tally.nextStep += r.nextStep
        const key = r.outcome?.type ?? 'threw'
        tally.outcomes.set(key, (tally.outcomes.get(key) ?? 0) + 1)
        expect(r.violations, JSON.stringify(round)).to.deep.equal([])
      }),
      {numRuns: ROUNDS},
    )
    // The rounds reached what they are for: replies delivered, and every way a turn ends.
    expect(tally.delivered).to.be.greaterThan(ROUNDS / 10)
    expect(tally.nextStep).to.be.greaterThan(ROUNDS / 20)
    for (const end of ['done', 'stopped', 'aborted', 'failed', 'shutdown']) expect(tally.outcomes.get(end) ?? 0, `${end} rounds`).to.be.greaterThan(0)
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify({...tally, outcomes: Object.fromEntries(tally.outcomes)}))
  })
})
