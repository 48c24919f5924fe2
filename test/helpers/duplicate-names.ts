// Base names shared by two files of src/ (issue 41: "names a newcomer can
// follow"). A file's name says what it does; when two rooms each hold a
// `tty.ts`, a reader cannot tell from an import or a stack trace which one is
// meant. Some names are a role rather than a subject, and those may repeat —
// the list below is the one docs/architecture.md ("Names") explains.
import {relative, sep} from 'node:path'
import {filesUnder} from './source-files.js'

/** Role names: every folder may have one, and each means the same job wherever it is. */
export const ROLE_NAMES: Readonly<Record<string, string>> = {
  index: "a folder's entry: what the folder offers, re-exported",
  types: "a folder's shared types and interfaces (no behaviour)",
  errors: "a folder's typed errors and their `is…` recognisers",
  mock: 'the test double of a backend seam (`MockPromptBackend`, `MockEditorBackend`)',
}

/**
 * A command and the library module it fronts, under one word: the command
 * file (src/commands/) is the CLI's word, the module under src/lib/ is the
 * same thing done.
 */
export const FRONTED: Readonly<Record<string, string>> = {
  completion: '`jp completion` and the completion scripts (`cli/completion.ts`)',
  export: '`jp conversation export` and the export format (`conversation/export.ts`)',
  fork: '`jp conversation fork` and the fork (`conversation/fork.ts`)',
  help: '`jp help` and the help class it shows (`cli/help.ts`)',
  models: '`jp models` and the providers\' model lists (`llm/models.ts`)',
  trust: '`jp trust` and the workspace trust policy (`config/trust.ts`)',
}

/** Entry points are named by what the user types or the oclif event they answer (`conversation ls`, `mcp ls`; the `init` hook, `jp init`). */
const isEntryPoint = (path: string) => path.startsWith('commands/') || path.startsWith('hooks/')

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.ts$/, '')

/** Each base name whose files break the rule, with the files (paths under src/). */
export function duplicateNames(srcDir: string): Map<string, string[]> {
  const byName = new Map<string, string[]>()
  for (const file of filesUnder(srcDir)) {
    const path = relative(srcDir, file).split(sep).join('/')
    if (path.endsWith('.d.ts')) continue
    const name = baseName(path)
    byName.set(name, [...(byName.get(name) ?? []), path])
  }
  const out = new Map<string, string[]>()
  for (const [name, paths] of byName) {
    if (paths.length < 2 || Object.hasOwn(ROLE_NAMES, name)) continue
    const library = paths.filter((p) => !isEntryPoint(p))
    if (library.length === 0) continue
    if (library.length === 1 && Object.hasOwn(FRONTED, name)) continue
    out.set(name, paths.sort())
  }
  return out
}
