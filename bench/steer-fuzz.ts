// The steering fuzzer at soak length (issue 36), not a timing bench (not in
// bench/run.ts): the seam rounds (test/turn/steer-fuzz.test.ts) and the real
// terminal rounds (test/e2e/steer-fuzz-pty.test.ts: a round is one model
// request of a jp session, ≈5 rounds a second), many more of each and from a
// fresh seed every run (printed: FC_SEED=N reproduces a failure, and
// PTY_FUZZ_ONLY=I with it replays the I-th session alone).
//
// Run: node --import tsx bench/steer-fuzz.ts   (STEER_FUZZ_ROUNDS, default 5000; STEER_FUZZ_PTY_ROUNDS, default 1500; FC_SEED)
import {spawnSync} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const seed = process.env.FC_SEED ?? String(Math.floor(Math.random() * 2 ** 31))
const rounds = process.env.STEER_FUZZ_ROUNDS ?? '5000'
const ptyRounds = process.env.STEER_FUZZ_PTY_ROUNDS ?? '1500'
console.log(`FC_SEED=${seed}: ${rounds} seam rounds, ${ptyRounds} pty rounds`)
const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/mocha/bin/mocha.js'), 'test/turn/steer-fuzz.test.ts', 'test/e2e/steer-fuzz-pty.test.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {...process.env, FC_SEED: seed, FUZZ_ROUNDS: rounds, PTY_FUZZ_ROUNDS: ptyRounds, FUZZ_REPORT: '1'},
})
process.exitCode = r.status ?? 1
