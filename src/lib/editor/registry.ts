// Named editor backends (SPEC §5, §13). jp registers `terminal`; plugins add
// theirs from the `jp:editor-backends` hook; `editor.backend` picks one.
import type {EditorConfig} from '../config/editor.js'
import {TerminalEditorBackend} from './terminal.js'
import type {EditorBackend} from './types.js'

/** Builds a backend from the editor config, or returns undefined when it has no editor to offer. */
export type EditorBackendFactory = (config: EditorConfig) => EditorBackend | undefined

export class EditorBackendRegistry {
  private readonly factories = new Map<string, EditorBackendFactory>()

  register(name: string, factory: EditorBackendFactory): void {
    if (typeof name !== 'string' || name.trim() === '') throw new TypeError('editor backend name must be a non-empty string')
    if (typeof factory !== 'function') throw new TypeError(`editor backend '${name}': factory must be a function`)
    if (this.factories.has(name)) throw new Error(`editor backend '${name}' is already registered`)
    this.factories.set(name, factory)
  }

  get(name: string): EditorBackendFactory | undefined {
    return this.factories.get(name)
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.factories.keys()]
  }
}

/** The built-in backend: the user's editor in the terminal, when one is configured. */
export const terminalBackendFactory: EditorBackendFactory = (config) => {
  const command = config.command()
  if (command === undefined) return undefined
  return new TerminalEditorBackend(command, {env: config.env, notice: config.notice})
}

/** jp's own backends, by `editor.backend` name. */
const BUILT_IN_BACKENDS: Readonly<Record<string, EditorBackendFactory>> = {terminal: terminalBackendFactory}

/** Whether `name` is one of jp's own backends (no plugin needed to build it). */
export function isBuiltInBackend(name: string): boolean {
  return Object.hasOwn(BUILT_IN_BACKENDS, name)
}

/** A registry holding jp's built-in backends, ready for plugins to add theirs. */
export function createEditorBackendRegistry(): EditorBackendRegistry {
  const registry = new EditorBackendRegistry()
  for (const [name, factory] of Object.entries(BUILT_IN_BACKENDS)) registry.register(name, factory)
  return registry
}
