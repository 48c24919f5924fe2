// jp's oclif `init` hook (SPEC §18), declared in package.json
// (`oclif.hooks.init`: the bundle, identifier `initHook`). It injects the
// editor helper the commands obtain every editor through
// (lib/editor/inject.ts). It runs before every command, `jp --help` and
// `jp --version` included: it stores one closure and runs no plugin code —
// the plugins' `jp:editor-backends` hooks run only when a command first
// builds a backend that is not built in.
import type {Hook} from '@oclif/core'
import {injectBuildEditorBackend} from '../lib/editor/inject.js'

export const initHook: Hook<'init'> = async function (options) {
  injectBuildEditorBackend(options.config)
}
