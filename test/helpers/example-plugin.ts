// A private copy of examples/editor-backend-plugin for a test to link or
// change: test files run side by side (mocha --parallel), so none writes
// under jp's root where another reads. The example needs nothing installed
// (its hook gets jp's run-time API from its options), so the copy is its
// files alone; a node_modules left in the example by hand is not copied.
import {cpSync} from 'node:fs'
import {join, relative} from 'node:path'

import {ROOT} from './cli.js'

export const EXAMPLE_PLUGIN = join(ROOT, 'examples', 'editor-backend-plugin')

/** Copies the example plugin (without any node_modules) to `dest`; returns `dest`. */
export function copyExamplePlugin(dest: string): string {
  cpSync(EXAMPLE_PLUGIN, dest, {recursive: true, filter: (src) => relative(EXAMPLE_PLUGIN, src).split('/')[0] !== 'node_modules'})
  return dest
}
