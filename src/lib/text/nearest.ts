// "Did you mean" (commands, flags, key binding actions): the nearest of a set
// of words to a mistyped one, counting a swap of two neighbours as one edit
// (`qeury` → `query`), as git and gh do.
import distance from 'damerau-levenshtein'

/**
 * The candidate nearest to `word`, or undefined when none is near enough: at
 * most one edit per three letters of the longer word (`lst` → `ls`,
 * `conversaton` → `conversation`, but nothing for `frob`, nor `q` for `w`).
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestSteps = Infinity
  for (const candidate of candidates) {
    if (candidate === word) continue
    const limit = Math.floor(Math.max(word.length, candidate.length) / 3)
    const {steps} = distance(word, candidate)
    if (steps <= limit && steps < bestSteps) {
      best = candidate
      bestSteps = steps
    }
  }
  return best
}
