// The terminal's settings (termios). Node cannot read or set them itself, so
// they are saved and re-applied with `stty -g` / `stty <saved>` on the
// controlling terminal (a few milliseconds each). Everything here is best
// effort: without stty or a terminal, it does nothing.
import {spawnSync} from 'node:child_process'

import {terminalGone} from './gone.js'
import {writeTtySync} from './tty.js'

/** The terminal's settings as `stty -g` prints them, or undefined (no stty, no terminal). */
export function saveTerminalModes(fd: number): string | undefined {
  if (terminalGone()) return undefined
  const r = spawnSync('stty', ['-g'], {stdio: [fd, 'pipe', 'ignore'], encoding: 'utf8', timeout: 2000})
  const out = typeof r.stdout === 'string' ? r.stdout.trim() : ''
  return r.status === 0 && out !== '' ? out : undefined
}

/** Re-applies settings saved by saveTerminalModes (or applies stty words: `['intr', 'undef']`). */
export function applyTerminalModes(fd: number, modes: string | string[]): boolean {
  if (terminalGone()) return false
  const r = spawnSync('stty', typeof modes === 'string' ? [modes] : modes, {stdio: [fd, 'ignore', 'ignore'], timeout: 2000})
  return r.status === 0
}

/**
 * Whether saved settings have canonical (line) input on: the state a cooked
 * terminal is in, which an open prompt (raw) must never be left in. Reads
 * both the GNU (`iflag:oflag:cflag:lflag:...`, ICANON 0x2) and the BSD
 * (`gfmt1:...:lflag=HEX:...`, ICANON 0x100) forms.
 */
export function isCanonical(modes: string): boolean | undefined {
  if (modes.startsWith('gfmt1')) {
    const m = /(?:^|:)lflag=([0-9a-f]+)/i.exec(modes)
    return m ? (Number.parseInt(m[1], 16) & 0x100) !== 0 : undefined
  }
  const fields = modes.split(':')
  if (fields.length < 4) return undefined
  const lflag = Number.parseInt(fields[3], 16)
  return Number.isNaN(lflag) ? undefined : (lflag & 0x2) !== 0
}

/** Writes bytes to the terminal fd, ignoring a terminal that is gone. */
export function writeTerminal(fd: number, data: string): void {
  writeTtySync(fd, data)
}
