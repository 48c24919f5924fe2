#!/usr/bin/env node
// CommonJS (bin/package.json), and so is everything it loads on jp's common
// paths (dist/first.cjs, dist/prompt.cjs, dist/pick.cjs, dist/jp.cjs): Node
// then never sets up its ES-module loader, 15-25 ms of CPU at every start
// (issue 40). Only an import() (an ES-module plugin) sets it up, when called.
'use strict'
const {fstatSync, writeSync} = require('node:fs')
const {join} = require('node:path')

// The package's root, named to oclif (whose own search from a file here would stop at bin/package.json).
const root = join(__dirname, '..')
const args = globalFlagsAfterCommand(process.argv.slice(2))

// A rejection is reported as an uncaught error (exit status 1), as the top-level await was.
main()

async function main() {
  if (!(await answeredLean(args))) await runCli()
}

/**
 * The lean entries, asked before the CLI loads, each a small module of its
 * own chosen by argv alone; true when one answered (the CLI is not needed).
 */
async function answeredLean(argv) {
  // `jp query` on a terminal: its Query: prompt drawn while the CLI loads behind it (src/lib/cli/early-prompt.ts); the CLI still runs.
  if (opensQueryPrompt(argv)) {
    openStdio()
    await require('../dist/prompt.cjs').drawEarlyPrompt({root, env: process.env})
    return false
  }
  // `jp conversation use` with no ID, `jp query --resume`: the resume picker drawn without the CLI (src/lib/cli/pick-first.ts);
  // false when the CLI must run the command (for the query: after the choice).
  if (opensResumePicker(argv)) {
    const {loadBundle} = require('./load.js')
    return loadBundle(join(root, 'dist', 'pick.cjs')).exports.pickFirst({argv, root, env: process.env, cwd: process.cwd()})
  }
  // `jp --version` and the recorded help, when nothing can change them, without loading the CLI (src/lib/cli/first.ts).
  return mayAnswerFirst(argv) && (await require('../dist/first.cjs').answerFirst({argv, root, env: process.env, stdout: firstStdout()}))
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
  openStdio()
  const {loadBundle} = require('./load.js')
  // Node 22.1+: V8's compile cache for everything loaded the ordinary way
  // (plugins). Asked only there: require('node:module') sets up the
  // ES-module loader (it carries module.register()), and Node 20 has no such cache.
  if (hasCompileCache()) require('node:module').enableCompileCache()
  const {execute} = loadBundle(join(root, 'dist', 'jp.cjs')).exports
  await execute({args, dir: root})
  // A plugin's editor-backend hook may leave a timer or socket alive (see
  // src/lib/editor/plugins.ts): once the command is done, nothing of jp's is
  // pending, so end the process rather than wait on the plugin.
  if (globalThis[Symbol.for('jp.pluginHooksRan')]) process.exit()
}

/**
 * Opens stdout and stderr before the CLI does. A terminal that hangs up
 * while Node starts can still look like a terminal when Node asks what
 * fd 1 is, then be gone when it opens it: Node throws ERR_TTY_INIT_FAILED
 * from the stream's getter, wherever jp first writes. That is the hang-up
 * arriving early, so it ends jp as the hang-up does (129), with no stack.
 */
function openStdio() {
  try {
    void process.stdout
    void process.stderr
  } catch (error) {
    if (error?.code === 'ERR_TTY_INIT_FAILED') process.exit(129)
    throw error
  }
}

/** Whether this Node has module.enableCompileCache() (22.1 and later). */
function hasCompileCache() {
  const [major, minor] = process.versions.node.split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 1)
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
