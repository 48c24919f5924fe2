// jp's oclif `init` hook (SPEC §18), declared in package.json
// (`oclif.hooks.init`: the bundle, identifier `initHook`). It runs before
// every command, `jp --help` and `jp --version` included, so it only stores
// what later steps need and runs no plugin code:
//   - the editor helper the commands obtain every editor through
//     (lib/editor/inject.ts); the plugins' `jp:editor-backends` hooks run only
//     when a command first builds a backend that is not built in;
//   - jp's version line, which oclif prints for --version/-v and in the root
//     help (lib/cli/version.ts).
import type {Hook} from '@oclif/core'
import {useVersionLine} from '../lib/cli/version.js'
import {injectBuildEditorBackend} from '../lib/editor/inject.js'

export const initHook: Hook<'init'> = async function (options) {
  injectBuildEditorBackend(options.config)
  useVersionLine(options.config)
}
