// The probe editor (test/fixtures/faults/editor-probe.sh) behind a real
// TerminalEditorBackend, and a reader for what it observed.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {EditorConfig} from '../../src/lib/config/editor.js'
import {TerminalEditorBackend} from '../../src/lib/editor/terminal.js'
import {FAULT_FIXTURES} from './harness.js'

export const PROBE = join(FAULT_FIXTURES, 'editor-probe.sh')

/** key=value lines written by editor-probe.sh. */
export function readProbe(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const i = line.indexOf('=')
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1)
  }
  return out
}

export function probeBackend(env: NodeJS.ProcessEnv, tmp?: string): TerminalEditorBackend {
  const command = new EditorConfig({cmd: {program: PROBE, args: [], shell: false}}, {env: {}}).command()!
  return new TerminalEditorBackend(command, {env: {PATH: process.env.PATH, ...env}, tmpdir: tmp, notice: () => {}})
}

