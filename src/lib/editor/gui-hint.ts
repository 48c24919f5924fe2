// GUI editors fork and return at once unless told to wait; jp then reads back
// an untouched file. When that happens we name the flag the user forgot.
import {basename} from 'node:path'

import type {EditorCommand} from '../config/editor.js'

/** Known GUI editors: the flag to suggest first, and every spelling that means "wait". */
const WAIT_FLAGS: Record<string, {suggest: string; accepted: string[]}> = {
  code: {suggest: '--wait', accepted: ['--wait', '-w']},
  cursor: {suggest: '--wait', accepted: ['--wait', '-w']},
  subl: {suggest: '-w', accepted: ['--wait', '-w']},
  zed: {suggest: '--wait', accepted: ['--wait', '-w']},
  gedit: {suggest: '--wait', accepted: ['--wait', '-w']},
  kate: {suggest: '--block', accepted: ['--block', '-b']},
  atom: {suggest: '--wait', accepted: ['--wait', '-w']},
  mate: {suggest: '-w', accepted: ['--wait', '-w']},
}

/** A GUI editor that returns faster than this with nothing changed did not wait for the user. */
export const GUI_RETURN_THRESHOLD_MS = 1000

/** The wait flag to suggest when `command` is a known GUI editor configured without one. */
export function missingWaitFlag(command: Pick<EditorCommand, 'program' | 'args' | 'shell'>): string | undefined {
  const words = command.shell ? command.program.trim().split(/\s+/) : [command.program, ...command.args]
  const args = command.shell ? [...words.slice(1), ...command.args] : words.slice(1)
  const name = basename(words[0] ?? '').replace(/\.(exe|cmd|bat)$/i, '').toLowerCase()
  const known = WAIT_FLAGS[name]
  if (!known) return undefined
  if (args.some((a) => known.accepted.includes(a))) return undefined
  return known.suggest
}

export function guiHint(command: Pick<EditorCommand, 'name'>, flag: string): string {
  return `hint: the editor '${command.name}' returned at once without changes; GUI editors need ${flag} to wait for you (e.g. editor.cmd = "${command.name} ${flag}")`
}
