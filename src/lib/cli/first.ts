// What jp answers before it loads the CLI (issues 27, 29): `jp --version`
// (`-v`) and the help oclif would print for the root (`jp`, `jp --help`,
// `jp -h`), for a command or alias (`jp query --help`, `jp c e -h`) or a
// topic (`jp conversation`). Loading the bundle and letting oclif read its
// manifests, scan for plugins and run the init hook is most of jp's
// start-up; for these answers none of it is needed when nothing could change
// what oclif would print:
//   - no user or linked plugins (oclif's `<data dir>/package.json`: their
//     commands would be in the help, their init hooks would run) and no help
//     theme (`<config dir>/theme.json`): either one, and oclif answers;
//   - no DEBUG (oclif's debug output);
//   - for a help, exactly an argument list the build recorded, at a width at
//     which the text is the one recorded (scripts/recorded-help.js: oclif's
//     own output, the version line left open; at 80 columns, oclif's default
//     without a terminal, or at any width from 80 up for a text in which no
//     line wraps), with colour or without as oclif's colour module decides
//     here.
// The version line is version.ts's, as oclif prints it. Directories are
// found by oclif's rules (oclif-dirs.ts). This module is built
// on its own (dist/first.cjs) and bin/run.js asks it before anything else.
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {oclifDirs, userPluginsMayRun} from './oclif-dirs.js'
import {versionLine} from './version.js'

/** One help text scripts/recorded-help.js records in dist/recorded-help.json. */
export interface RecordedHelp {
  /** The help as oclif prints it without colour, with VERSION_MARK where the version line goes (the root help). */
  text: string
  /** The same with colour (its bold headings), when oclif's colour decides it: on a terminal, FORCE_COLOR, COLORTERM, CI. */
  colored?: string
  /** The narrowest terminal width (oclif's reckoning) at which `text` is what oclif prints. */
  minWidth: number
  /** The widest (none: any width from minWidth up). */
  maxWidth?: number
  /** The argument lists that print this help (`[]`, `['--help']`, `['query', '-h']`, `['conversation']`). */
  argvs: string[][]
}

/** dist/recorded-help.json. */
export interface RecordedHelps {
  helps: RecordedHelp[]
}

/** Stands for the version line in the recorded help. */
export const VERSION_MARK = '\u0000version\u0000'

interface Pjson {
  version: string
  oclif: {bin: string; dirname?: string; binAliases?: string[]; additionalHelpFlags?: string[]; additionalVersionFlags?: string[]}
}

export interface FirstContext {
  argv: string[]
  /** The package's root (where package.json is). */
  root: string
  env: NodeJS.ProcessEnv
  stdout: {isTTY?: boolean; getWindowSize?: () => number[]; write(text: string): unknown}
  platform?: NodeJS.Platform
}

/** Answers `argv` at once and resolves to true, or to false: the CLI must be loaded. */
export async function answerFirst(ctx: FirstContext): Promise<boolean> {
  const {argv, env} = ctx
  if (env.DEBUG) return false
  let pjson: Pjson
  try {
    pjson = JSON.parse(readFileSync(join(ctx.root, 'package.json'), 'utf8')) as Pjson
  } catch {
    return false
  }
  const oclif = pjson.oclif
  const version = argv.length > 0 && ['--version', ...(oclif.additionalVersionFlags ?? [])].includes(argv[0])
  const helpFlags = new Set(['--help', ...(oclif.additionalHelpFlags ?? [])])
  // Every recorded list ends in a help flag, or is a topic's one word (or nothing: the root).
  const help = !version && (argv.length <= 1 || helpFlags.has(argv.at(-1)!))
  if (!version && !help) return false
  if (!untouched(pjson, env, ctx.platform ?? process.platform)) return false
  if (version) {
    ctx.stdout.write(`${versionLine(pjson.version)}\n`)
    return true
  }
  let recorded: RecordedHelp | undefined
  try {
    const {helps} = JSON.parse(readFileSync(join(ctx.root, 'dist', 'recorded-help.json'), 'utf8')) as RecordedHelps
    recorded = helps.find((h) => h.argvs.some((a) => a.length === argv.length && a.every((w, i) => w === argv[i])))
  } catch {
    return false
  }
  if (recorded === undefined) return false
  const width = helpWidth(ctx.stdout, env)
  if (width < recorded.minWidth || width > (recorded.maxWidth ?? Number.POSITIVE_INFINITY)) return false
  const text = (await inColour(ctx)) ? recorded.colored : recorded.text
  if (text === undefined) return false
  ctx.stdout.write(text.replace(VERSION_MARK, versionLine(pjson.version)))
  return true
}

/**
 * Whether oclif's help would be in colour, asked as oclif asks (its theme's
 * colorize: supports-color for stdout and stderr, then ansis), of the same
 * modules (the build takes oclif's copies). Without FORCE_COLOR, a stdout that
 * is no terminal is no colour for supports-color (no --color flag can be in
 * argv here: it holds command words and one help flag at most), known without
 * loading it and node:tty, net and streams behind it.
 */
async function inColour(ctx: FirstContext): Promise<boolean> {
  if (!('FORCE_COLOR' in ctx.env) && ctx.stdout.isTTY !== true) return false
  const [{default: supports}, {default: ansis}] = await Promise.all([import('supports-color'), import('ansis')])
  return Boolean(supports.stdout) && Boolean(supports.stderr) && ansis.isSupported()
}

/** No user or linked plugin and no help theme: what oclif would print is jp's alone. */
function untouched(pjson: Pjson, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  const {dataDir, configDir} = oclifDirs(pjson.oclif, env, platform)
  return !userPluginsMayRun(dataDir) && !existsSync(join(configDir, 'theme.json'))
}

/** The width oclif's help wraps at (@oclif/core screen.js: OCLIF_COLUMNS, else the terminal's, 80 without one). */
function helpWidth(stdout: FirstContext['stdout'], env: NodeJS.ProcessEnv): number {
  const columns = Number.parseInt(env.OCLIF_COLUMNS ?? '', 10)
  if (columns) return columns
  if (!stdout.isTTY || !stdout.getWindowSize) return 80
  const width = stdout.getWindowSize()[0]
  return width < 1 ? 80 : width < 40 ? 40 : width
}

export {versionLine}
