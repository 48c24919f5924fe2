// Vendored from @inquirer/core 12.0.6 (dist/lib/use-effect.js), MIT, see
// LICENSE. Unchanged but for the type of the callback's argument (the
// PromptTerminal where upstream passes its readline interface).
import type {PromptTerminal} from '../../prompt-terminal.js'
import {effectScheduler, withPointer} from './hook-engine.js'

export function useEffect(cb: (term: PromptTerminal) => void | (() => void), depArray: ReadonlyArray<unknown>): void {
  withPointer<ReadonlyArray<unknown> | undefined, void>((pointer) => {
    const oldDeps = pointer.get()
    const hasChanged = !Array.isArray(oldDeps) || depArray.some((dep, i) => !Object.is(dep, oldDeps[i]))
    if (hasChanged) {
      effectScheduler.queue(cb)
    }
    pointer.set(depArray)
  })
}
