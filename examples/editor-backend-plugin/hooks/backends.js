// A jp editor backend in plain JavaScript (no build step). jp fires the
// `jp:editor-backends` hook with a registry when a command needs a backend
// that is not built in; we add `record`.
// Select it with `editor.backend = "record"` in jp's config.
//
// The backend is deliberately observable rather than useful: every request is
// appended as one JSON line to the file named by $JP_RECORD_EDITOR_LOG, and
// each "edit" appends the line `edited by record` to the text or files.
import {appendFile, readdir, readFile, stat, writeFile} from 'node:fs/promises'
import {join, resolve} from 'node:path'
// No import of jp's package: jp hands its run-time API to the hook
// (`options.jp`), so the plugin runs with nothing else installed, from a
// tarball, a path or a link. `jp.EditorError` is how a backend says "this
// editor cannot be used": jp then keeps the user's text and says why.

const MARK = 'edited by record\n'

class RecordEditorBackend {
  constructor(log, jp) {
    this.log = log
    this.jp = jp
  }

  async editText(content) {
    await this.record({method: 'editText', content})
    const text = content === '' || content.endsWith('\n') ? content + MARK : `${content}\n${MARK}`
    return {outcome: this.jp.EDIT_OUTCOMES.saved, text}
  }

  // jp passes files, or directories (`jp conversation edit` gives the
  // conversation's directory): a directory's files are only listed, as if
  // the user opened it and saved nothing.
  async editFile({paths, cwd}) {
    const base = cwd ?? process.cwd()
    const files = []
    const edits = []
    for (const p of paths) {
      const path = resolve(base, p)
      const info = await stat(path).catch(() => undefined)
      if (info === undefined && !(await stat(resolve(path, '..')).catch(() => undefined))?.isDirectory()) {
        throw new this.jp.EditorError('io', `record: cannot edit ${path}: its directory does not exist`)
      }
      if (info?.isDirectory()) {
        for (const name of (await readdir(path)).sort()) files.push(join(path, name))
      } else {
        edits.push(path)
      }
    }
    await this.record({method: 'editFile', paths, cwd: cwd ?? null, ...(files.length > 0 ? {files} : {})})
    for (const file of edits) {
      const before = await readFile(file, 'utf8').catch(() => '')
      await writeFile(file, before + MARK)
    }
    return this.jp.EDIT_OUTCOMES.saved
  }

  async record(entry) {
    await appendFile(this.log, JSON.stringify(entry) + '\n')
  }
}

/** @type {import('@oclif/core').Hook<'jp:editor-backends'>} (typed when jp-llm-cli's types are installed) */
export default async function registerBackends({registry, jp}) {
  // The factory gets jp's EditorConfig. Returning undefined means "no editor
  // available", exactly like the terminal backend without a configured editor.
  registry.register('record', (config) => {
    const log = config.env.JP_RECORD_EDITOR_LOG
    return log ? new RecordEditorBackend(log, jp) : undefined
  })
}
