// The resume picker's lean start-up (issue 39: the list opens within 150 ms
// with 5,000 conversations). `jp conversation use` (`jp c use`) with no ID
// on a terminal is a list to draw, and loading the CLI bundle and letting
// oclif read its manifests and run its hooks was most of the wait. When
// nothing could change what the command does, bin/run.js hands it here
// (built on its own as dist/pick.cjs, loaded with its code cache) instead:
//   - the two words and nothing else (an ID, a flag, a global flag: oclif),
//     or `jp query --resume` (`q`) followed by words only;
//   - no user or linked plugin (oclif-dirs.ts: its hooks would run first,
//     its commands could take the name), no DEBUG (oclif's debug output);
//   - a terminal to draw on (without one the command's usage error is oclif's).
// What runs is the command's own code: the workspace, the configuration
// check (a broken file stops it with its one line, exit 1; `jp query` checks
// its own later, as it does) and the store (workspace-store.ts), then
// useConversation (use-conversation.ts) with the exits JpCommand gives them.
// For `jp query --resume` the choice is left in a process slot and the CLI
// loads to run the query (query/pick.ts takes it): the user chose already.
import {join} from 'node:path'
import {errorLine} from '../text/one-line.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {noUserPlugins} from './oclif-dirs.js'
import type {ConversationStore} from '../conversation/store.js'
import type {UseConversationIo} from './use-conversation.js'

export interface PickFirstContext {
  argv: readonly string[]
  /** The package's root (where package.json is). */
  root: string
  env: NodeJS.ProcessEnv
  cwd: string
}

/** Whether `argv` is the picker's command line: `conversation use` or `c use`, nothing more. */
export function isPickerArgv(argv: readonly string[]): boolean {
  return argv.length === 2 && (argv[0] === 'conversation' || argv[0] === 'c') && argv[1] === 'use'
}

/** Whether `argv` is `jp query --resume` (`q`) with words and no other flag: the picker first, then the query in the CLI. */
export function isResumeArgv(argv: readonly string[]): boolean {
  return (argv[0] === 'query' || argv[0] === 'q') && argv[1] === '--resume' && argv.slice(2).every((w) => !w.startsWith('-'))
}

/**
 * Runs the picker and resolves to true (the command is done, its exit status
 * set), or resolves to false: the CLI must run the command (for `jp query
 * --resume`, with the conversation chosen here waiting in the process slot
 * `resumePicked`, which query/pick.ts takes instead of opening the picker).
 */
export async function pickFirst(ctx: PickFirstContext): Promise<boolean> {
  const resume = isResumeArgv(ctx.argv)
  if (!(resume || isPickerArgv(ctx.argv)) || ctx.env.DEBUG || !noUserPlugins(ctx.root, ctx.env)) return false
  const {hasTty} = await import('../terminal/tty.js')
  if (!hasTty()) return false
  try {
    const {commandWorkspace, checkConfig, openStore} = await import('./workspace-store.js')
    const place = {cwd: ctx.cwd, env: ctx.env, cfgArgs: []}
    const workspace = await commandWorkspace(place)
    // `jp query` checks its configuration itself, after the pick (configCheck 'command').
    if (!resume) await checkConfig(workspace, place)
    const store = await openStore(workspace, ctx.env, say)
    if (resume) return await resumeFirst(store)
    await (await import('./use-conversation.js')).useConversation(store, undefined, io)
  } catch (error) {
    // JpCommand.fail's line: what a command reports (workspace, config, storage), and what escapes it (lib/cli/main.ts).
    io.fail(error)
  }
  return true
}

/** `jp query --resume`'s pick: the id left for the CLI (false: load it), or Esc and Ctrl+C ended as the command ends them (true). */
async function resumeFirst(store: ConversationStore): Promise<boolean> {
  const [{pickOutcome}, {setSlot}, {resumeEnd}] = await Promise.all([import('../query/pick.js'), import('../process/slots.js'), import('./use-conversation.js')])
  const picked = await pickOutcome(store)
  if ('id' in picked) {
    setSlot('resumePicked', picked)
    return false
  }
  if (picked.none === 'no-terminal') return false
  return resumeEnd(picked.none, io)
}

const io: UseConversationIo = {
  say,
  fail(error) {
    process.stderr.write(`Error: ${sanitizeUntrusted(errorLine(error))}\n`)
    return process.exit(1)
  },
  exit: (code) => process.exit(code),
  // Never here: pickFirst takes only a terminal's command line.
  noTerminal: () => Promise.reject(new Error('the lean picker has no terminal')),
}

function say(line: string): void {
  process.stderr.write(sanitizeUntrusted(line) + '\n')
}

/**
 * For the build's code cache run (scripts/code-cache.js): the picker's
 * steps on a throw-away workspace of a few conversations, and its list drawn
 * and chosen from on in-memory streams, so their functions are in the cache.
 */
export async function warmCodeCache(dir: string): Promise<void> {
  const [{mkdirSync, writeFileSync}, {PassThrough, Writable}, {initWorkspace}, {checkConfig, openStore}, {resumeRows}, {searchList}] = await Promise.all([
    import('node:fs'),
    import('node:stream'),
    import('../conversation/workspace.js'),
    import('./workspace-store.js'),
    import('../conversation/resume.js'),
    import('../inquire/search-list.js'),
  ])
  const workspace = await initWorkspace(dir)
  for (let i = 0; i < 3; i++) {
    const conv = join(workspace.conversationsDir, `jp-c${i}`)
    mkdirSync(conv)
    writeFileSync(join(conv, 'metadata.json'), JSON.stringify({title: `warm ${i}`, created_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString()}))
    writeFileSync(join(conv, 'events.json'), JSON.stringify([{timestamp: '2024-01-01T00:00:00Z', type: 'chat_request', content: 'q'}]))
  }
  const place = {cwd: dir, env: {}, cfgArgs: []}
  await checkConfig(workspace, place)
  const rows = await resumeRows(await openStore(workspace, {}, () => {}), 76)
  rows.source('w1')
  const input = new PassThrough()
  const output = Object.assign(new Writable({write: (_chunk, _encoding, done) => done()}), {isTTY: true, columns: 80, rows: 24})
  const chosen = searchList('Resume a conversation (type to filter):', {pageSize: 7, source: rows.source}, {input, output})
  setTimeout(() => input.write('\r'), 20)
  await chosen
}
