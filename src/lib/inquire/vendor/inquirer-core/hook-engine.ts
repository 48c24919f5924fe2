// Vendored from @inquirer/core 12.0.6 (dist/lib/hook-engine.js), MIT, see
// LICENSE. PATCHED (see PATCHES.md): the store holds the prompt's
// PromptTerminal instead of a readline interface (`readline()` is
// `terminal()`); `effectScheduler.run` does not re-bind its updater to the
// async context on every render.
import {AsyncLocalStorage, AsyncResource} from 'node:async_hooks'
import type {PromptTerminal} from '../../prompt-terminal.js'
import {HookError, ValidationError} from './errors.js'

type Cleanup = (() => void) | void

interface Store {
  term: PromptTerminal
  hooks: unknown[]
  hooksCleanup: Cleanup[]
  hooksEffect: Array<() => void>
  index: number
  handleChange: () => void
}

const hookStorage = new AsyncLocalStorage<Store>()

function createStore(term: PromptTerminal): Store {
  return {
    term,
    hooks: [],
    hooksCleanup: [],
    hooksEffect: [],
    index: 0,
    handleChange() {},
  }
}

// Run callback in with the hook engine setup.
export function withHooks<T>(term: PromptTerminal, cb: (cycle: (render: () => void) => void) => T): T {
  const store = createStore(term)
  function cycle(render: () => void): void {
    store.handleChange = () => {
      store.index = 0
      render()
    }
    store.handleChange()
  }
  return hookStorage.run(store, () => cb(cycle))
}

// Safe getStore utility that'll return the store or throw if undefined.
function getStore(): Store {
  const store = hookStorage.getStore()
  if (!store) {
    throw new HookError('[Inquirer] Hook functions can only be called from within a prompt')
  }
  return store
}

export function terminal(): PromptTerminal {
  return getStore().term
}

function mergeUpdates<Args extends unknown[], R>(store: Store, fn: (...args: Args) => R, args: Args): R {
  let shouldUpdate = false
  const oldHandleChange = store.handleChange
  store.handleChange = () => {
    shouldUpdate = true
  }
  const returnValue = fn(...args)
  if (shouldUpdate) {
    oldHandleChange()
  }
  store.handleChange = oldHandleChange
  return returnValue
}

// Merge state updates happening within the callback function to avoid multiple renders.
export function withUpdates<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R {
  const wrapped = (...args: Args): R => mergeUpdates(getStore(), fn, args)
  return AsyncResource.bind(wrapped)
}

export interface Pointer<Value> {
  get(): Value
  set(value: Value): void
  initialized: boolean
}

export function withPointer<Value, ReturnValue>(cb: (pointer: Pointer<Value>) => ReturnValue): ReturnValue {
  const store = getStore()
  const {index} = store
  const pointer: Pointer<Value> = {
    get() {
      return store.hooks[index] as Value
    },
    set(value: Value) {
      store.hooks[index] = value
    },
    initialized: index in store.hooks,
  }
  const returnValue = cb(pointer)
  store.index++
  return returnValue
}

export function handleChange(): void {
  getStore().handleChange()
}

export const effectScheduler = {
  queue(cb: (term: PromptTerminal) => Cleanup): void {
    const store = getStore()
    const {index} = store
    store.hooksEffect.push(() => {
      const previous = store.hooksCleanup[index]
      if (typeof previous === 'function') previous()
      const cleanFn = cb(terminal())
      if (cleanFn != null && typeof cleanFn !== 'function') {
        throw new ValidationError('useEffect return value must be a cleanup function or nothing.')
      }
      store.hooksCleanup[index] = cleanFn
    })
  },
  run(): void {
    const store = getStore()
    // PATCH: runs inside the render, already in the prompt's async context,
    // so the updater is called directly instead of through a freshly bound
    // AsyncResource (a bind per keystroke costs tens of microseconds).
    mergeUpdates(
      store,
      () => {
        store.hooksEffect.forEach((effect) => {
          effect()
        })
        // Warning: Clean the hooks before exiting the `withUpdates` block.
        // Failure to do so means an updates would hit the same effects again.
        store.hooksEffect.length = 0
      },
      [],
    )
  },
  clearAll(): void {
    const store = getStore()
    store.hooksCleanup.forEach((cleanFn) => {
      if (typeof cleanFn === 'function') cleanFn()
    })
    store.hooksEffect.length = 0
    store.hooksCleanup.length = 0
  },
}
