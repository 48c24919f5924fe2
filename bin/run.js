#!/usr/bin/env node
import {fstatSync, writeSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const args = globalFlagsAfterCommand(process.argv.slice(2))
if (!(await answeredLean(args))) await runCli()

/**
 * The lean entries, asked before the CLI loads, each a small module of its
 * own chosen by argv alone; true when one answered (the CLI is not needed).
 */
async function answeredLean(argv) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  // `jp query` on a terminal: its Query: prompt drawn while the CLI loads behind it (src/lib/cli/early-prompt.ts); the CLI still runs.
  if (opensQueryPrompt(argv)) {
    await (await import('../dist/prompt.js')).drawEarlyPrompt({root, env: process.env})
    return false
  }
  // `jp conversation use` with no ID, `jp query --resume`: the resume picker drawn without the CLI (src/lib/cli/pick-first.ts);
  // false when the CLI must run the command (for the query: after the choice).
  if (opensResumePicker(argv)) {
    const {loadBundle} = await import('./load.js')
    return loadBundle(fileURLToPath(new URL('../dist/pick.cjs', import.meta.url))).exports.pickFirst({argv, root, env: process.env, cwd: process.cwd()})
  }
  // `jp --version` and the recorded help, when nothing can change them, without loading the CLI (src/lib/cli/first.ts).
  return mayAnswerFirst(argv) && (await (await import('../dist/first.js')).answerFirst({argv, root, env: process.env, stdout: firstStdout()}))
}

/**
 * Whether argv opens the inline Query: prompt with nothing to decide first:
 * `jp query` or `jp q`, for a new conversation or not (`-n`); any other
 * word or flag goes straight to the CLI (the early prompt is not even loaded).
 */
function opensQueryPrompt(argv) {
  return (argv[0] === 'query' || argv[0] === 'q') && argv.length <= 2 && argv.slice(1).every((a) => a === '-n' || a === '--new')
}

/**
 * Whether argv may open the resume picker: `jp conversation use` (`c use`)
 * with no ID, or `jp query --resume` (`q`); the chunk checks the rest (words
 * only after --resume, the plugins, the terminal).
 */
function opensResumePicker(argv) {
  const use = argv.length === 2 && (argv[0] === 'conversation' || argv[0] === 'c') && argv[1] === 'use'
  return use || ((argv[0] === 'query' || argv[0] === 'q') && argv[1] === '--resume')
}

/**
 * Whether the first answer can be this one's: a version flag comes first, a
 * help flag last, a topic is one word; anything else (`jp query -n hi`)
 * goes straight to the CLI without reading package.json.
 */
function mayAnswerFirst(argv) {
  return argv.length <= 1 || argv[0].startsWith('-') || argv.at(-1).startsWith('-')
}

/**
 * stdout for the first answer: a few hundred bytes, written straight to fd 1
 * (process.stdout, or node:tty, would load Node's streams and net first:
 * asked only when stdout may be a terminal, whose width the help needs); a
 * reader that already went away (`jp --help | true`) is no error.
 */
function firstStdout() {
  return {
    get isTTY() {
      try {
        return fstatSync(1).isCharacterDevice() && process.stdout.isTTY === true
      } catch {
        return false
      }
    },
    getWindowSize: () => process.stdout.getWindowSize(),
    write(text) {
      // All of it: a write may be partial, and a non-blocking pipe that is full says EAGAIN until it drains.
      const bytes = Buffer.from(text)
      for (let done = 0; done < bytes.length; ) {
        try {
          done += writeSync(1, bytes, done)
        } catch (error) {
          if (error.code === 'EPIPE') return
          if (error.code !== 'EAGAIN') throw error
        }
      }
    },
  }
}

async function runCli() {
  const [{default: Module}, {loadBundle}] = await Promise.all([import('node:module'), import('./load.js')])
  // Node 22.1+: V8's compile cache for everything loaded the ordinary way (plugins).
  Module.enableCompileCache?.()
  const {execute} = loadBundle(fileURLToPath(new URL('../dist/jp.cjs', import.meta.url))).exports
  await execute({args, dir: import.meta.url})
  // A plugin's editor-backend hook may leave a timer or socket alive (see
  // src/lib/editor/plugins.ts): once the command is done, nothing of jp's is
  // pending, so end the process rather than wait on the plugin.
  if (globalThis[Symbol.for('jp.pluginHooksRan')]) process.exit()
}

/**
 * `jp -w DIR conversation ls` → `jp conversation ls -w DIR`: oclif routes on
 * the first word, so jp's global flags (-c/--cfg, -w/--workspace-dir, --format)
 * given before the command move behind it (before a `--`, if any). Before
 * the command, the old `--workspace DIR` can only mean the directory: it
 * moves as `--workspace-dir` (behind `config set`, --workspace is a switch).
 */
function globalFlagsAfterCommand(argv) {
  const WITH_VALUE = new Set(['-c', '--cfg', '-w', '--workspace-dir', '--workspace', '--format'])
  const leading = []
  let i = 0
  while (i < argv.length) {
    const arg = argv[i]
    if (WITH_VALUE.has(arg) && i + 1 < argv.length) {
      leading.push(arg === '--workspace' ? '--workspace-dir' : arg, argv[i + 1])
      i += 2
    } else if (/^(--cfg|--workspace-dir|--workspace|--format)=/.test(arg) || /^-[cw]./.test(arg)) {
      leading.push(arg.replace(/^--workspace=/, '--workspace-dir='))
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
