// Vendored from @inquirer/core 12.0.6 (dist/lib/use-state.js), MIT, see
// LICENSE. PATCHED (see PATCHES.md): the setter is created and bound to the
// prompt's async context once, when the hook is first initialized, instead
// of on every render.
import {AsyncResource} from 'node:async_hooks'
import {handleChange, withPointer} from './hook-engine.js'

type NotFunction<T> = T extends (...args: never) => unknown ? never : T
type Reducer<Value> = (currentValue: Value) => Value
export type SetState<Value> = (newValue: NotFunction<Value> | Reducer<Value>) => void

function isFactory<Value>(value: unknown): value is () => Value {
  return typeof value === 'function'
}

function isReducer<Value>(value: unknown): value is Reducer<Value> {
  return typeof value === 'function'
}

interface Slot<Value> {
  value: Value
  setState: SetState<Value>
}

export function useState<Value>(defaultValue: NotFunction<Value> | (() => Value)): [Value, SetState<Value>] {
  return withPointer<Slot<Value>, [Value, SetState<Value>]>((pointer) => {
    if (pointer.initialized) {
      const slot = pointer.get()
      return [slot.value, slot.setState]
    }
    const setState = AsyncResource.bind(function setState(newValue: NotFunction<Value> | Reducer<Value>) {
      const slot = pointer.get()
      const currentValue = slot.value
      const nextValue = isReducer<Value>(newValue) ? newValue(currentValue) : newValue
      // Noop if the value is still the same.
      if (!Object.is(currentValue, nextValue)) {
        pointer.set({value: nextValue, setState})
        // Trigger re-render
        handleChange()
      }
    })
    const value = isFactory<Value>(defaultValue) ? defaultValue() : (defaultValue as Value)
    pointer.set({value, setState})
    return [value, setState]
  })
}
