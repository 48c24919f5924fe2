// The entry of the shipped bundle (dist/jp.cjs, built by scripts/build.js):
// oclif itself and the command classes in one file, so start-up
// reads and compiles one script instead of ~230 modules. bin/run.js loads it
// (with a V8 code cache); oclif finds COMMANDS in it through the "explicit"
// command strategy named in package.json, and its help class and hooks by
// the identifiers below (package.json `oclif.helpClass`, `oclif.hooks`).
// Everything heavy behind a command stays behind a dynamic import(): esbuild
// turns those into lazily initialised modules, so `jp --help` never runs them.
export {execute} from './lib/cli/main.js'
export {COMMANDS} from './commands/index.js'
export {JpHelp} from './lib/cli/help.js'
export {initHook} from './hooks/init.js'
export {default as commandNotFoundHook} from './hooks/command-not-found.js'
export {default as localPluginHook} from './hooks/prerun-local-plugin.js'

/**
 * For the build's code cache run (scripts/code-cache.js): runs the renderer
 * once, and draws the inline prompt and types in it on in-memory streams, so
 * their functions are in the cache (the prompt's: time to interactive).
 */
export async function warmCodeCache(): Promise<void> {
  const markdown = await import('./lib/markdown/index.js')
  markdown.prewarm()
  await warmPrompt()
}

async function warmPrompt(): Promise<void> {
  const [{inlineReply}, {PassThrough, Writable}] = await Promise.all([import('./lib/inquire/inline-reply.js'), import('node:stream')])
  const input = new PassThrough()
  const output = Object.assign(new Writable({write: (_chunk, _encoding, done) => done()}), {isTTY: true, columns: 100, rows: 30})
  const done = inlineReply({message: 'Query:'}, {input, output, env: {TERM: 'xterm-256color'}})
  const tick = () => new Promise((resolve) => setTimeout(resolve, 20))
  await tick()
  input.emit('data', Buffer.from('zqj'))
  await tick()
  input.emit('data', Buffer.from('\r'))
  await done
}
