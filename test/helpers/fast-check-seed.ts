// Loaded by .mocharc.json before any test: every fast-check property runs
// with one fixed seed, so a failure reproduces on every run and machine.
// fast-check prints the seed (and the shrunk path) in every failure report;
// FC_SEED=N explores another part of the input space, e.g. in a soak loop.
import fc from 'fast-check'

export const FC_SEED = process.env.FC_SEED === undefined || process.env.FC_SEED === '' ? 20_161_130 : Number(process.env.FC_SEED)
if (!Number.isSafeInteger(FC_SEED)) throw new Error(`FC_SEED: not an integer: ${process.env.FC_SEED}`)

fc.configureGlobal({...fc.readConfigureGlobal(), seed: FC_SEED})
