import {homedir} from 'node:os'
import {isAbsolute, resolve} from 'node:path'
import type {Hook} from '@oclif/core'

// `jp plugins install ./dir` and `/abs/dir` install the plugin in that
// directory. @oclif/plugin-plugins reads any argument with a slash as a
// GitHub `user/repo` (so `/abs/dir` became https://github.com//abs/dir and
// failed after a long timeout); only `file:/abs/dir` worked. A path-like
// argument (`/…`, `./…`, `../…`, `.`, `..`, `~/…`) becomes `file:` and its
// absolute path here (npm resolves `file:` paths against jp's data dir, not
// the cwd). The hook gets the argv the command will parse, so it edits that.
const INSTALL = new Set(['plugins:install', 'plugins:add', 'plugins:i'])

export function localPluginArg(arg: string, cwd: string, home = homedir()): string {
  if (arg.startsWith('-') || arg.includes(':')) return arg
  if (arg === '~' || arg.startsWith('~/')) return `file:${resolve(home, arg.slice(2))}`
  const pathLike = isAbsolute(arg) || arg === '.' || arg === '..' || arg.startsWith('./') || arg.startsWith('../')
  return pathLike ? `file:${resolve(cwd, arg)}` : arg
}

const hook: Hook.Prerun = async function ({Command, argv}) {
  if (!INSTALL.has(Command.id)) return
  for (const [i, arg] of argv.entries()) argv[i] = localPluginArg(arg, process.cwd())
}
export default hook
