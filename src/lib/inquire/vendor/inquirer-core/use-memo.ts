// Vendored from @inquirer/core 12.0.6 (dist/lib/use-memo.js), MIT, see LICENSE. Unchanged.
import {withPointer} from './hook-engine.js'

export function useMemo<Value>(fn: () => Value, dependencies: ReadonlyArray<unknown>): Value {
  return withPointer<{value: Value; dependencies: ReadonlyArray<unknown>}, Value>((pointer) => {
    const prev = pointer.get()
    if (!pointer.initialized || prev.dependencies.length !== dependencies.length || prev.dependencies.some((dep, i) => dep !== dependencies[i])) {
      const value = fn()
      pointer.set({value, dependencies})
      return value
    }
    return prev.value
  })
}
