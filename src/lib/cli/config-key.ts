// The KEY argument of `jp config get/set`: a dotted key the schema knows,
// else a usage error with the nearest key (`assistant.model.ids` → `assistant.model.id`).
import type {Schema} from '../config/schema.js'
import {nearest} from '../text/nearest.js'
import {failUsage, quote, typedCommand, UsageError} from './usage-error.js'

/** The key's path; a key the schema does not have ends the command (`command`, an oclif id) with a usage error. */
export async function configKeyArg(text: string, command: string): Promise<string[]> {
  const {parseKeyPath, formatKeyPath} = await import('../config/locate.js')
  const {CONFIG_SCHEMA, schemaAt} = await import('../config/schema.js')
  const path = parseKeyPath(text)
  if (path && schemaAt(path) !== undefined) return path
  const keys: string[] = []
  const walk = (s: Schema, at: string[]) => {
    if (at.length > 0) keys.push(formatKeyPath(at))
    const table = s.kind === 'union' ? s.of.find((m) => m.kind === 'table') : s
    if (table?.kind === 'table') for (const [k, child] of Object.entries(table.fields)) walk(child, [...at, k])
  }
  walk(CONFIG_SCHEMA, [])
  const hint = nearest(text, keys)
  failUsage(new UsageError(`unknown config key ${quote(text)}${hint ? `; did you mean ${quote(hint)}?` : ''}`, typedCommand(command)))
}
