// Type-level tests: compiles some files with the project's test compiler
// options (tsconfig.test.json) in this process and returns tsc's messages.
// A type test is a file of declarations that compile only while a property of
// the code's types holds, with `@ts-expect-error` lines proving each check
// can fail; the mocha test asserts the compiler reports nothing.
import {join, relative} from 'node:path'
import ts from 'typescript'
import {ROOT} from './cli.js'

/** tsc's diagnostics for `files` (paths relative to the repository root), one line each; empty when they type-check. */
export function typeErrors(...files: string[]): string[] {
  const configPath = join(ROOT, 'tsconfig.test.json')
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {noEmit: true}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  })
  if (!parsed) throw new Error(`cannot read ${configPath}`)
  const program = ts.createProgram(files.map((f) => join(ROOT, f)), parsed.options)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ')
    if (!d.file || d.start === undefined) return text
    const {line, character} = d.file.getLineAndCharacterOfPosition(d.start)
    return `${relative(ROOT, d.file.fileName)}:${line + 1}:${character + 1}: ${text}`
  })
}
