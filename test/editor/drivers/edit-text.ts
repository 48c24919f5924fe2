// Runs one TerminalEditorBackend.editText the way jp does and writes what
// happened to $RESULT_FILE as JSON (stdout may be a pipe or the screen).
// Env: JP_EDITOR (the editor), RAW=1 (put stdin in raw mode first).
import {execFileSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'

import {EditorConfig} from '../../../src/lib/config/editor.js'
import {TerminalEditorBackend} from '../../../src/lib/editor/terminal.js'

const resultFile = process.env.RESULT_FILE!
const config = new EditorConfig({}, {env: process.env})
const backend = new TerminalEditorBackend(config.command()!, {env: process.env})
if (process.env.RAW === '1') process.stdin.setRawMode(true)

let result: unknown
try {
  result = await backend.editText('seed\n')
} catch (error) {
  result = {error: String(error)}
}
const after: Record<string, unknown> = {result, alive: true}
if (process.stdin.isTTY) {
  after.raw = process.stdin.isRaw
  after.stty = execFileSync('stty', ['-a'], {stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8'})
  process.stdin.setRawMode(false)
}
writeFileSync(resultFile, JSON.stringify(after))
process.stdout.write('DRIVER-DONE\n')
process.exit(0)
