// Collects the plugins' editor backends (SPEC §5, §13) by firing the
// `jp:editor-backends` hook of every installed or linked plugin.
//
// jp runs the hooks itself instead of through oclif's `config.runHook`:
//   - each plugin gets its own ref'd timer, so a hook that never settles is
//     abandoned after PLUGIN_HOOK_TIMEOUT_MS and named in the warning (oclif's
//     timer is unref'd: with nothing else pending the process just ended with
//     exit 13 and no message);
//   - a plugin's registry is sealed once its hook settled or was abandoned, so
//     a late `register` from an abandoned hook cannot change the backends;
//   - a plain-JavaScript hook file is imported by its path, which skips
//     oclif's TypeScript lookup and its "linked ESM module cannot be
//     auto-transpiled" warning.
// The hooks run only when a command builds a backend whose name is not a
// built-in one: no other command (`jp --version`, `jp plugins ...`) can be
// affected by a plugin.
import type {Hook, Interfaces} from '@oclif/core'
import {existsSync} from 'node:fs'
import {isAbsolute, join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {errorLine} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'

import {EDITOR_BACKENDS_HOOK, type EditorBackendsHookOptions} from './hooks.js'
import {pluginApi} from './plugin-api.js'
import {createEditorBackendRegistry, type EditorBackendFactory, type EditorBackendRegistry} from './registry.js'
import {recordPluginFailures} from './slot.js'
import {setSlot} from '../process/slots.js'

/** How long one plugin's hook may take before jp carries on without it. */
export const PLUGIN_HOOK_TIMEOUT_MS = 10_000

export interface LoadPluginBackendsOptions {
  /** One line per failing plugin, and each line a hook logs or warns (no trailing newline; sanitized). */
  warn(line: string): void
  timeoutMs?: number
}

type HookFn = (this: Hook.Context, options: EditorBackendsHookOptions & {config: Interfaces.Config; context: Hook.Context}) => unknown

/** A fresh registry with the built-in backends plus every plugin's; failures are warned about, never thrown. */
export async function loadPluginEditorBackends(oclif: Interfaces.Config, opts: LoadPluginBackendsOptions): Promise<EditorBackendRegistry> {
  const registry = createEditorBackendRegistry()
  const plugins = [...oclif.plugins.values()].filter((p) => (p.hooks[EDITOR_BACKENDS_HOOK] ?? []).length > 0)
  if (plugins.length === 0) return registry
  // bin/run.js ends the process when the command is done (a hook may leave a live timer).
  setSlot('pluginHooksRan', true)
  const timeoutMs = opts.timeoutMs ?? PLUGIN_HOOK_TIMEOUT_MS
  // Plugins run side by side; each one's registrations land in the shared
  // registry in the order the plugins settle.
  const outcomes = await Promise.all(plugins.map((plugin) => runPluginHooks(oclif, plugin, registry, timeoutMs, opts.warn)))
  const failures: string[] = []
  for (const [i, problem] of outcomes.entries()) {
    if (problem === undefined) continue
    // The name and the error's text are the plugin's words: shown, never obeyed.
    failures.push(sanitizeUntrusted(`plugin ${plugins[i].name}: ${EDITOR_BACKENDS_HOOK} hook ${problem}`))
    opts.warn(`Warning: ${failures.at(-1)}`)
  }
  // Also said by the unknown-backend error, which a warning printed before it may not outlive.
  recordPluginFailures(registry, failures)
  return registry
}

/** Runs one plugin's hooks; resolves to what went wrong, or undefined. */
async function runPluginHooks(
  oclif: Interfaces.Config,
  plugin: Interfaces.Plugin,
  registry: EditorBackendRegistry,
  timeoutMs: number,
  line: (text: string) => void,
): Promise<string | undefined> {
  let open = true
  const view: EditorBackendsHookOptions['registry'] = {
    register(name: string, factory: EditorBackendFactory) {
      // An abandoned hook registering late must not change what jp already built.
      if (!open) throw new Error(`${EDITOR_BACKENDS_HOOK}: plugin ${plugin.name} registered '${name}' after its hook was abandoned`)
      registry.register(name, factory)
    },
    names: () => registry.names(),
  }
  let timer: NodeJS.Timeout | undefined
  // Ref'd on purpose: this timer is what keeps jp alive (and then moving)
  // while a hook waits on nothing.
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`did not finish within ${Math.round(timeoutMs / 1000)} s; ignored`), timeoutMs)
  })
  const jp = pluginApi(oclif.version)
  const run = (async () => {
    for (const hook of plugin.hooks[EDITOR_BACKENDS_HOOK] ?? []) {
      const fn = await loadHook(plugin, hook)
      const context = hookContext(oclif, line)
      await fn.call(context, {registry: view, jp, config: oclif, context})
    }
    return undefined
  })().catch((error: unknown) => `failed: ${errorLine(error)}`)
  try {
    return await Promise.race([run, timedOut])
  } finally {
    open = false
    clearTimeout(timer)
  }
}

async function loadHook(plugin: Interfaces.Plugin, hook: {target: string; identifier: string}): Promise<HookFn> {
  const file = isAbsolute(hook.target) ? hook.target : join(plugin.root, hook.target)
  let mod: Record<string, unknown>
  if (existsSync(file)) {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } else {
    // No such file as written (`./dist/hooks/x` without extension, or a
    // TypeScript source): oclif's loader resolves it the way it does commands.
    const {ModuleLoader} = await import('@oclif/core')
    mod = (await ModuleLoader.load(plugin, hook.target)) as Record<string, unknown>
  }
  const named = mod[hook.identifier]
  const fn = typeof named === 'function' ? named : hook.identifier === 'default' ? Object.values(mod).find((v) => typeof v === 'function') : undefined
  if (typeof fn !== 'function') throw new Error(`${hook.target} exports no hook function '${hook.identifier}'`)
  return fn as HookFn
}

/**
 * The `this` oclif gives hooks. `log` and `warn` become lines for the
 * caller's sink (the printer's notices: stderr, never stdout, which carries
 * the answer), one line each: a plugin's words are shown, never obeyed.
 */
function hookContext(oclif: Interfaces.Config, line: (text: string) => void): Hook.Context {
  const fail = (message: string | Error): never => {
    throw message instanceof Error ? message : new Error(message)
  }
  return {
    config: oclif,
    debug: () => {},
    error: fail,
    exit: (code = 0) => fail(`exit(${code}) called`),
    log: (message?: string, ...args: unknown[]) => line(sanitizeUntrusted([message ?? '', ...args].join(' '))),
    warn: (message: string | Error) => line(`Warning: ${sanitizeUntrusted(message instanceof Error ? message.message : message)}`),
  } as Hook.Context
}
