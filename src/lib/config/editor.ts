// Which editor jp runs, and with what argv (SPEC §5). This is the one place
// an editor invocation is resolved: every backend that spawns a process asks
// `EditorConfig.command()` and nothing else.
//
// shlex and which are small and synchronous; they load with this module so
// that `command()` can stay synchronous (buildEditorBackend is).
import {basename, isAbsolute, resolve} from 'node:path'
import {quote} from 'shlex'
import whichPkg from 'which'

import {splitWords} from './command-words.js'
import {ConfigError} from './errors.js'
import type {CommandConfig, EditorSection} from './types.js'
import {sanitizeUntrusted} from '../text/untrusted.js'

export const DEFAULT_EDITOR_ENVS: readonly string[] = ['JP_EDITOR', 'VISUAL', 'EDITOR']

/** The argv of one editor run: spawn `file` with `args`, never through a shell unless `file` is the shell itself. */
export interface EditorArgv {
  file: string
  args: string[]
}

/** A resolved editor invocation. Paths are always appended last, never spliced into shell text. */
export interface EditorCommand {
  /** The configured program text, for messages (`failed to spawn editor 'NAME'`). */
  readonly name: string
  /** The program as configured (shell text when `shell` is true). */
  readonly program: string
  readonly args: readonly string[]
  /** True when the program runs through `/bin/sh -c` (table `cmd` with `shell = true`, Unix only). */
  readonly shell: boolean
  /** Where it came from: `editor.cmd` or the environment variable's name. */
  readonly source: string
  argv(paths: readonly string[]): EditorArgv
}

/** Looks a program up like `which`; a name with a slash is checked as an executable file. */
export type WhichFn = (program: string, env: NodeJS.ProcessEnv) => string | null | undefined

export interface EditorConfigOptions {
  /** Environment consulted for `editor.envs` and PATH. Default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** Program lookup; default the `which` package against `env.PATH`. */
  which?: WhichFn
  /** Sink for one-line notices (a skipped variable), sanitized; without one they are not shown (jp passes its printer's). */
  notice?: (line: string) => void
  /** Default `process.platform`; lets tests exercise the Windows rule. */
  platform?: NodeJS.Platform
  /** Base for relative program paths (`./e.sh`). Default `process.cwd()`. */
  cwd?: string
}

/** The `editor` section as callers may hold it: every key optional, defaults applied here. */
export type EditorSectionInput = Partial<Pick<EditorSection, 'cmd' | 'envs' | 'backend'>>

const defaultWhich: WhichFn = (program, env) => whichPkg.sync(program, {path: env.PATH ?? '', nothrow: true})

// The library writes no stdio of its own: an embedder that wants the notices passes a sink.
const noNotice = () => {}

export class EditorConfig {
  readonly cmd: string | CommandConfig | undefined
  readonly envs: readonly string[]
  /** The registered backend to use (`editor.backend`, default "terminal"). */
  readonly backend: string
  readonly env: NodeJS.ProcessEnv
  readonly notice: (line: string) => void
  private readonly which: WhichFn
  private readonly platform: NodeJS.Platform
  private readonly cwd: string
  // A variable is reported once per EditorConfig, however often command() runs.
  private readonly noticed = new Set<string>()

  constructor(section: EditorSectionInput = {}, options: EditorConfigOptions = {}) {
    this.cmd = section.cmd
    this.envs = section.envs ?? DEFAULT_EDITOR_ENVS
    this.backend = section.backend ?? 'terminal'
    this.env = options.env ?? process.env
    this.which = options.which ?? defaultWhich
    const sink = options.notice
    // Notices quote editor commands from config files and variables.
    this.notice = sink ? (line) => sink(sanitizeUntrusted(line)) : noNotice
    this.platform = options.platform ?? process.platform
    this.cwd = options.cwd ?? process.cwd()
  }

  /**
   * The editor to run, or undefined when none is configured (SPEC §5):
   * `editor.cmd` when set and non-blank, else the first usable variable of
   * `editor.envs`. Throws ConfigError for an `editor.cmd` that cannot be split.
   */
  /**
   * How a prompt names the editor this config opens: a plugin backend by its
   * name, `editor.cmd` by its program, a variable as `$VISUAL (nvim)`;
   * undefined when there is none. Untrusted text: sanitize before showing.
   */
  label(): string | undefined {
    if (this.backend !== 'terminal') return this.backend
    const command = this.command()
    if (command === undefined) return undefined
    const program = basename(command.shell ? (command.program.trim().split(/\s+/)[0] ?? command.program) : command.program)
    return command.source === 'editor.cmd' ? program : `$${command.source} (${program})`
  }

  command(): EditorCommand | undefined {
    return this.fromCmd() ?? this.fromEnvs()
  }

  private fromCmd(): EditorCommand | undefined {
    const cmd = this.cmd
    if (cmd === undefined || cmd === null) return undefined
    if (typeof cmd === 'string') {
      if (cmd.trim() === '') return undefined
      const words = splitWords(cmd)
      if (words === undefined) {
        throw new ConfigError({source: 'config', key: 'editor.cmd', problem: `unbalanced quoting in ${JSON.stringify(cmd)}`})
      }
      if (words.length === 0 || words[0] === '') {
        throw new ConfigError({source: 'config', key: 'editor.cmd', problem: `no program in ${JSON.stringify(cmd)}`})
      }
      return this.make(words[0], words.slice(1), false, 'editor.cmd')
    }
    const program = cmd.program ?? ''
    if (program.trim() === '') return undefined
    const args = cmd.args ?? []
    if (cmd.shell && this.platform === 'win32') {
      this.notice(`warning: editor.cmd: shell = true is not supported on Windows; running ${JSON.stringify(program)} directly`)
      return this.make(program, args, false, 'editor.cmd')
    }
    return this.make(program, args, Boolean(cmd.shell), 'editor.cmd')
  }

  private fromEnvs(): EditorCommand | undefined {
    for (const name of this.envs) {
      const value = this.env[name]
      if (value === undefined || value.trim() === '') continue
      const words = splitWords(value)
      if (words === undefined) {
        this.skip(name, `unbalanced quoting in ${JSON.stringify(value)}`)
        continue
      }
      const [program, ...args] = words
      const lookup = program && hasSlash(program) && !isAbsolute(program) ? resolve(this.cwd, program) : program
      if (!program || !this.which(lookup, this.env)) {
        this.skip(name, `program ${JSON.stringify(program ?? '')} not found`)
        continue
      }
      return this.make(program, args, false, name)
    }
    return undefined
  }

  private skip(variable: string, why: string): void {
    const line = `notice: ignoring editor variable ${variable}: ${why}`
    if (this.noticed.has(line)) return
    this.noticed.add(line)
    this.notice(line)
  }

  private make(program: string, args: readonly string[], shell: boolean, source: string): EditorCommand {
    // A relative path with a slash means "relative to where jp was started";
    // pin it now, because editFile may run the editor in another cwd.
    const file = !shell && hasSlash(program) && !isAbsolute(program) ? resolve(this.cwd, program) : program
    const fixedArgs = [...args]
    return {
      name: program,
      program,
      args: fixedArgs,
      shell,
      source,
      argv(paths) {
        if (!shell) return {file, args: [...fixedArgs, ...paths]}
        // The program is shell text on purpose (pipes, &&, variables); the
        // args are data and get quoted; the paths travel as positional
        // parameters so no path is ever parsed by the shell.
        let script = [program, ...fixedArgs.map((a) => quote(a))].join(' ')
        if (!/\$[@*]/.test(program)) script += ' "$@"'
        return {file: '/bin/sh', args: ['-c', script, 'jp-editor', ...paths]}
      },
    }
  }
}

function hasSlash(p: string): boolean {
  return p.includes('/') || (process.platform === 'win32' && p.includes('\\'))
}
