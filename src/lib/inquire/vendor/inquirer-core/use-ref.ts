// Vendored from @inquirer/core 12.0.6 (dist/lib/use-ref.js), MIT, see LICENSE. Unchanged.
import {useState} from './use-state.js'

export function useRef<Value>(val: Value): {current: Value} {
  return useState({current: val})[0]
}
