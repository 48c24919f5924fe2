// The inline `Query:` prompt on screen before the CLI has loaded (issue 40).
// `jp query` on a terminal spends most of its start-up loading the bundle,
// oclif's config and hooks and the query's steps (config files, workspace,
// history, drafts, trust) before its prompt draws. This module is built on
// its own (dist/prompt.cjs, a few kB); bin/run.js asks it first for the argv
// that opens that prompt, and it draws the prompt's default picture at once
// and echoes the plain keys typed into it while the CLI loads behind it.
//
// It decides nothing and keeps nothing: the CLI runs exactly as without it.
// The first time anything of jp's touches the terminal — the real inline
// prompt opening, a notice or an error on stdout/stderr, an editor, a menu,
// the exit — the early prompt is released (terminal/tty.ts
// `releaseEarlyPrompt`): it stops reading, leaves raw mode, erases its
// picture and hands every byte it read to the next reader of the terminal
// (terminal/typeahead.ts), as the terminal itself would have kept them. The
// real prompt then draws where it stood, with those keys in it; a trust
// notice, a draft, a broken config's one-line error or an editor-first
// setting show exactly as they did, after the early picture is gone.
//
// Only the default picture is drawn; a setting that changes it (keys, an
// editor's name in the hint, the draft's text) shows when the real prompt
// takes over. Keys other than printable ASCII are kept unseen until then:
// the line editor's rules are the real prompt's alone.
//
// Taken only when nothing can change the way to the prompt: `jp query` (or
// `jp q`, `-n` or not), stdin and stdout a terminal jp owns in the foreground, no
// DEBUG, no user or linked oclif plugin (its init hook would run first), no
// TERM=dumb (the plain line input), and not JP_EARLY_PROMPT=0.
import {drawEarlyPicture} from '../terminal/early-picture.js'
import {noUserPlugins} from './oclif-dirs.js'

/** bin/run.js asks only for the argv that opens the prompt (its `opensQueryPrompt`: `jp query`, `jp q`, with `-n` or not). */
export interface EarlyPromptContext {
  /** The package's root (where package.json is). */
  root: string
  env: NodeJS.ProcessEnv
}

/**
 * Draws the early prompt when `ctx` allows it and resolves once the keys
 * already typed have been read (true), or at once (false: nothing drawn).
 */
export async function drawEarlyPrompt(ctx: EarlyPromptContext): Promise<boolean> {
  const {env} = ctx
  if (env.DEBUG || env.JP_EARLY_PROMPT === '0' || env.TERM === 'dumb') return false
  if (!noUserPlugins(ctx.root, env)) return false
  return drawEarlyPicture(!(env.NO_COLOR !== undefined && env.NO_COLOR !== ''))
}
