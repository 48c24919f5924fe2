// The terminal frontend of the editor service (SPEC §5): spawn the resolved
// editor command on a private temp file (editText) or the caller's paths
// (editFile), wait, and map the exit to saved / cancelled.
//
// Terminal ownership. The editor stays in jp's process group: a terminal
// editor must be in the terminal's foreground process group to read it (a
// background group reading the tty gets SIGTTIN and stops). The price is that
// a Ctrl+C reaches jp as well as the editor; `ignoreSigintDuring` is what
// keeps jp alive while the editor handles (or dies of) that SIGINT.
//
// execa is imported inside the methods: building a backend must cost
// nothing for commands that never open an editor.
import {readFile, stat} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {performance} from 'node:perf_hooks'

import type {EditorCommand} from '../config/editor.js'
import {ignoreSigintDuring} from '../process/sigint-guard.js'
import {makePrivateTempDir, type PrivateTempDir} from '../process/temp-dirs.js'
import {lendTerminalToChild} from '../terminal/borrow.js'
import {GUI_RETURN_THRESHOLD_MS, guiHint, missingWaitFlag} from './gui-hint.js'
import {EditorError, type EditOutcome, type EditorBackend, type EditRequest, type EditTextResult} from './types.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {errorLine} from '../text/one-line.js'

export interface TerminalEditorBackendOptions {
  /** Environment for the editor process; default: jp's own. */
  env?: NodeJS.ProcessEnv
  /** Sink for one-line hints (GUI editor without its wait flag), sanitized; without one they are not shown. */
  notice?: (line: string) => void
  /** Parent of the private temp directory; default: the OS temp dir. */
  tmpdir?: string
}

const SPAWN_REASONS: Record<string, string> = {
  ENOENT: 'not found',
  EACCES: 'permission denied',
  ENOTDIR: 'not found',
  EPERM: 'operation not permitted',
}

export class TerminalEditorBackend implements EditorBackend {
  readonly command: EditorCommand
  private readonly options: TerminalEditorBackendOptions

  constructor(command: EditorCommand, options: TerminalEditorBackendOptions = {}) {
    this.command = command
    this.options = options
  }

  async editText(content: string): Promise<EditTextResult> {
    // A private directory (0700) holding a private file (0600): nobody else
    // can read the draft, and editors' swap/backup files land in it too. A
    // shutdown while the editor runs (a closed terminal, SIGTERM, the third
    // Ctrl+C) exits before the finally below: the exit registry behind
    // makePrivateTempDir removes the directory then.
    let dir: PrivateTempDir
    try {
      dir = await makePrivateTempDir('jp-edit-', this.options.tmpdir)
    } catch (error) {
      throw EditorError.io(`cannot create a temporary file: ${errorLine(error)}`, error)
    }
    const file = join(dir.path, 'jp-edit.md')
    try {
      try {
        await dir.file('jp-edit.md', content)
      } catch (error) {
        throw EditorError.io(`cannot write ${file}: ${errorLine(error)}`, error)
      }
      const outcome = await this.run([file], undefined, async () => {
        const now = await readFile(file, 'utf8').catch(() => undefined)
        return now === content
      })
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (error) {
        // An editor that deleted the file and failed has nothing to give back.
        if (outcome === 'cancelled') return {outcome, text: content}
        throw EditorError.io(`cannot read back ${file}: ${errorLine(error)}`, error)
      }
      return {outcome, text}
    } finally {
      await dir.remove()
    }
  }

  async editFile(req: EditRequest): Promise<EditOutcome> {
    const before = await snapshot(req.paths, req.cwd)
    return this.run(req.paths, req.cwd, async () => (await snapshot(req.paths, req.cwd)) === before)
  }

  private async run(paths: readonly string[], cwd: string | undefined, unchanged: () => Promise<boolean>): Promise<EditOutcome> {
    const {execa} = await import('execa')
    const {file, args} = this.command.argv(paths)
    // Whatever the editor does to the terminal and however it ends, jp
    // gets the terminal back as it was (terminal/borrow.ts).
    const terminal = lendTerminalToChild()
    const started = performance.now()
    let result
    try {
      result = await ignoreSigintDuring(() =>
        execa(file, args, {
          cwd,
          env: this.options.env,
          extendEnv: this.options.env === undefined,
          // An integer fd is handed to spawn() as-is, so the editor gets the
          // terminal itself rather than a pipe (execa's types only admit 0/1).
          stdin: terminal.stdin as 0,
          stdout: terminal.stdout as 1,
          stderr: 'inherit',
          reject: false,
          windowsHide: false,
        }),
      )
    } finally {
      terminal.takeBack()
    }
    const elapsed = performance.now() - started

    if (result.exitCode === undefined && result.signal === undefined) {
      const code = (result as {code?: string}).code ?? ''
      const why =
        cwd !== undefined && /cwd/.test(result.originalMessage ?? '')
          ? `working directory ${cwd} not found`
          : (SPAWN_REASONS[code] ?? (result.originalMessage || result.shortMessage))
      throw EditorError.spawn(this.command.name, why, result)
    }
    const outcome: EditOutcome = result.exitCode === 0 ? 'saved' : 'cancelled'

    const flag = missingWaitFlag(this.command)
    if (flag && elapsed < GUI_RETURN_THRESHOLD_MS && (await unchanged())) {
      this.options.notice?.(sanitizeUntrusted(guiHint(this.command, flag)))
    }
    return outcome
  }
}

/** A cheap fingerprint of the paths (size + mtime), to tell whether an editor touched them. */
async function snapshot(paths: readonly string[], cwd: string | undefined): Promise<string> {
  const parts = await Promise.all(
    paths.map(async (p) => {
      try {
        const s = await stat(resolve(cwd ?? '.', p))
        return `${s.size}:${s.mtimeMs}`
      } catch {
        return '-'
      }
    }),
  )
  return parts.join('|')
}

