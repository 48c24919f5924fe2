// A private copy of examples/editor-backend-plugin for a test to link: test
// files run side by side (mocha --parallel), and the example's own "Try it"
// steps (test/editor/example-plugin.test.ts) install into the example's
// directory under jp's root meanwhile. The copy has what that install makes,
// node_modules/jp-llm-cli pointing at jp's root (its devDependency file:../..).
import {cpSync, mkdirSync, symlinkSync} from 'node:fs'
import {join, relative} from 'node:path'

import {ROOT} from './cli.js'

export const EXAMPLE_PLUGIN = join(ROOT, 'examples', 'editor-backend-plugin')

/** Copies the example plugin (without its node_modules) to `dest`; returns `dest`. */
export function copyExamplePlugin(dest: string): string {
  cpSync(EXAMPLE_PLUGIN, dest, {recursive: true, filter: (src) => relative(EXAMPLE_PLUGIN, src).split('/')[0] !== 'node_modules'})
  mkdirSync(join(dest, 'node_modules'), {recursive: true})
  symlinkSync(ROOT, join(dest, 'node_modules', 'jp-llm-cli'), 'dir')
  return dest
}
