// File I/O for conversation storage: atomic writes (temp file + rename, via
// write-file-atomic) that touch the disk only when the bytes change, and
// JSON reads that report a corrupt file by path, line and column.
import {readFile} from 'node:fs/promises'

export class CorruptFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem} (the file was left unchanged; fix or remove it)`)
    this.name = 'CorruptFileError'
  }
}

/** Writes `text` atomically unless the file already holds exactly these bytes. Returns whether it wrote. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  try {
    if ((await readFile(path, 'utf8')) === text) return false
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  const {default: writeFileAtomic} = await import('write-file-atomic')
  try {
    await writeFileAtomic(path, text)
  } catch (e) {
    // write-file-atomic's errors name a temp file or only an fd: name the real file.
    const err = e as NodeJS.ErrnoException
    throw Object.assign(new Error(`cannot write ${path}: ${err.message}`, {cause: e}), {code: err.code})
  }
  return true
}

export const toJson = (value: unknown) => JSON.stringify(value, null, 2) + '\n'

/** Reads and parses a JSON file; undefined when missing; CorruptFileError when unparsable. */
export async function readJson(path: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new CorruptFileError(path, `invalid JSON${jsonErrorPosition(text, (e as Error).message)}: ${(e as Error).message}`)
  }
}

/** ` at line L, column C` from V8's "at position N" message, when present. */
function jsonErrorPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message)
  if (!m) return ''
  const pos = Number(m[1])
  const before = text.slice(0, pos)
  const line = before.split('\n').length
  const column = pos - before.lastIndexOf('\n')
  return ` at line ${line}, column ${column}`
}
