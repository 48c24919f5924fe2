#!/usr/bin/env node
import Module from 'node:module'
import {fileURLToPath} from 'node:url'
import {loadBundle} from './load.js'

// Node 22.1+: V8's compile cache for everything loaded the ordinary way (plugins).
Module.enableCompileCache?.()
const {execute} = loadBundle(fileURLToPath(new URL('../dist/jp.cjs', import.meta.url))).exports
await execute({args: globalFlagsAfterCommand(process.argv.slice(2)), dir: import.meta.url})
// A plugin's editor-backend hook may leave a timer or socket alive (see
// src/lib/editor/plugins.ts): once the command is done, nothing of jp's is
// pending, so end the process rather than wait on the plugin.
if (globalThis[Symbol.for('jp.pluginHooksRan')]) process.exit()

/**
 * `jp -w DIR conversation ls` → `jp conversation ls -w DIR`: oclif routes on
 * the first word, so jp's global flags (-c/--cfg, -w/--workspace, --format)
 * given before the command move behind it (before a `--`, if any).
 */
function globalFlagsAfterCommand(argv) {
  const WITH_VALUE = new Set(['-c', '--cfg', '-w', '--workspace', '--format'])
  const leading = []
  let i = 0
  while (i < argv.length) {
    const arg = argv[i]
    if (WITH_VALUE.has(arg) && i + 1 < argv.length) {
      leading.push(arg, argv[i + 1])
      i += 2
    } else if (/^(--cfg|--workspace|--format)=/.test(arg) || /^-[cw]./.test(arg)) {
      leading.push(arg)
      i += 1
    } else {
      break
    }
  }
  if (leading.length === 0) return argv
  const rest = argv.slice(i)
  const dashes = rest.indexOf('--')
  return dashes === -1 ? [...rest, ...leading] : [...rest.slice(0, dashes), ...leading, ...rest.slice(dashes)]
}
