// How `jp models` prints a listing (SPEC §19). On a terminal, a column of
// ids with the configured default marked `*` (as `git branch` marks the
// current branch) and a display name where the provider gives one, every
// provider's text through the sanitizer. Piped, one id per line and a tab
// then `default` on the default's line (as gh prints tab-separated fields
// off a terminal), each on one line whatever the server sent. JSON: one
// object per model.
import {oneLine} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import type {ListedModel} from './models.js'

export interface ModelLineOptions {
  /** The configured default (`assistant.model.id`, else the offline fallback). */
  defaultId: string
  tty: boolean
}

/** The line printed for one model (without its newline). */
export function modelLine(m: ListedModel, opts: ModelLineOptions): string {
  const isDefault = m.id === opts.defaultId
  if (!opts.tty) return oneLine(m.id) + (isDefault ? '\tdefault' : '')
  const name = m.name !== undefined && m.name !== m.model ? `  ${oneLine(m.name)}` : ''
  return `${isDefault ? '*' : ' '} ${sanitizeUntrusted(oneLine(m.id) + name)}`
}

/** One NDJSON line for one model. */
export function modelJson(m: ListedModel, defaultId: string): string {
  return JSON.stringify({provider: m.provider, id: m.id, model: m.model, ...(m.name === undefined ? {} : {name: m.name}), default: m.id === defaultId})
}
