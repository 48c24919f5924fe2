// The repository's files below a folder, for tests that read the code itself
// (the architecture page, the one editor route, the one compose loop).
import {readdirSync} from 'node:fs'
import {join} from 'node:path'

/** Files below `dir` whose name matches `name` (default: TypeScript), node_modules skipped. */
export function filesUnder(dir: string, name: RegExp = /\.ts$/): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : filesUnder(join(dir, e.name), name)) : name.test(e.name) ? [join(dir, e.name)] : [],
  )
}
