// Shared bits for the editor-service tests: fixture editors, temp dirs, and a
// clean environment (the developer's EDITOR/VISUAL/JP_* must not leak in).
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const EDITORS = join(ROOT, 'test', 'fixtures', 'editors')
export const editorPath = (name: string) => join(EDITORS, name)

const SCRUB = /^(JP_|EDITOR$|VISUAL$|EDITOR_)/

/** process.env without editor variables, plus `extra`. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!SCRUB.test(k)) env[k] = v
  return {...env, ...extra}
}

export interface TempDir {
  dir: string
  path(...parts: string[]): string
  write(name: string, text: string, mode?: number): string
  read(name: string): string
  cleanup(): void
}

export function tempDir(prefix = 'jp-editor-test-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return {
    dir,
    path: (...parts) => join(dir, ...parts),
    write(name, text, mode) {
      const p = join(dir, name)
      writeFileSync(p, text)
      if (mode !== undefined) chmodSync(p, mode)
      return p
    },
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    cleanup: () => rmSync(dir, {recursive: true, force: true}),
  }
}

/** Parses record.sh's "key=value" lines into a map of arrays. */
export function readRecord(file: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue
    const i = line.indexOf('=')
    const key = line.slice(0, i)
    ;(out[key] ??= []).push(line.slice(i + 1))
  }
  return out
}
