// Vendored from @inquirer/core 12.0.6 (dist/lib/make-theme.js), MIT, see
// LICENSE. Unchanged (types are the package's own, imported as types).
import type {Theme} from '@inquirer/core'
import type {PartialDeep, Prettify} from '@inquirer/type'
import {getDefaultTheme} from './theme.js'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  let proto = value
  while (Object.getPrototypeOf(proto) !== null) {
    proto = Object.getPrototypeOf(proto)
  }
  return Object.getPrototypeOf(value) === proto
}

function deepMerge(...objects: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const output: Record<string, unknown> = {}
  for (const obj of objects) {
    for (const [key, value] of Object.entries(obj)) {
      const prevValue = output[key]
      output[key] = isPlainObject(prevValue) && isPlainObject(value) ? deepMerge(prevValue, value) : value
    }
  }
  return output
}

export function makeTheme<SpecificTheme extends object>(
  ...themes: ReadonlyArray<undefined | PartialDeep<Theme<SpecificTheme>>>
): Prettify<Theme<SpecificTheme>> {
  const themesToMerge = [getDefaultTheme(), ...themes.filter((theme) => theme != null)] as Array<Record<string, unknown>>
  return deepMerge(...themesToMerge) as Prettify<Theme<SpecificTheme>>
}
