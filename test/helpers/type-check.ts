// Type-level tests: compiles some files with the project's test compiler
// options (tsconfig.test.json) in this process and returns tsc's messages.
// A type test is a file of declarations that compile only while a property of
// the code's types holds, with `@ts-expect-error` lines proving each check
// can fail; the mocha test asserts the compiler reports nothing.
// typeErrorsWith compiles the real code with one change made in memory, to
// ask whether that change would still compile (a new union member must not).
import {join, relative} from 'node:path'
import ts from 'typescript'
import {ROOT} from './cli.js'

function testOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.test.json')
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {noEmit: true}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  })
  if (!parsed) throw new Error(`cannot read ${configPath}`)
  return parsed.options
}

/** `path:line:column: message`, one line per diagnostic (of `only` those files, when given: type checking is per file). */
function lines(program: ts.Program, only?: string[]): string[] {
  const diagnostics = only
    ? only.flatMap((f) => {
        const file = program.getSourceFile(join(ROOT, f))
        if (!file) throw new Error(`${f} is not part of the program`)
        return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
      })
    : ts.getPreEmitDiagnostics(program)
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ')
    if (!d.file || d.start === undefined) return text
    const {line, character} = d.file.getLineAndCharacterOfPosition(d.start)
    return `${relative(ROOT, d.file.fileName)}:${line + 1}:${character + 1}: ${text}`
  })
}

/** tsc's diagnostics for `files` (paths relative to the repository root), one line each; empty when they type-check. */
export function typeErrors(...files: string[]): string[] {
  return lines(ts.createProgram(files.map((f) => join(ROOT, f)), testOptions()))
}

/** One source change for {@link typeErrorsWith}: in `file` (repository-relative), `from` (which must occur) becomes `to`. */
export interface SourceEdit {
  file: string
  from: string
  to: string
}

let reused: ts.Program | undefined

/**
 * tsc's diagnostics for `roots` (or only for the files `only`) with `edit`
 * applied in memory (the files on disk are untouched); several edits are
 * applied together, in order (each `from` must occur in its file as the
 * edits before it left it).
 */
export function typeErrorsWith(roots: string[], edit: SourceEdit | SourceEdit[], only?: string[]): string[] {
  const options = testOptions()
  const changed = new Map<string, string>()
  for (const e of Array.isArray(edit) ? edit : [edit]) {
    const target = join(ROOT, e.file)
    const text = changed.get(target) ?? ts.sys.readFile(target)
    if (text === undefined || !text.includes(e.from)) throw new Error(`${e.file} has no ${JSON.stringify(e.from)}: the test no longer matches the code`)
    changed.set(target, text.replace(e.from, e.to))
  }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = changed.get(fileName)
    return text !== undefined ? ts.createSourceFile(fileName, text, languageVersion, true) : getSourceFile(fileName, languageVersion, onError, shouldCreate)
  }
  host.readFile = (fileName) => changed.get(fileName) ?? ts.sys.readFile(fileName)
  // Reusing the last program keeps every unchanged file's parse: one variant costs about one file.
  reused = ts.createProgram({rootNames: roots.map((f) => join(ROOT, f)), options, host, oldProgram: reused})
  return lines(reused, only)
}

/**
 * tsc's diagnostics for `files` (absolute paths) under `options` alone (no
 * tsconfig), every file checked, declaration files included unless the
 * options skip them; paths in the messages are relative to `base`.
 */
export function typeErrorsUnder(files: string[], options: ts.CompilerOptions, base: string): string[] {
  return ts.getPreEmitDiagnostics(ts.createProgram(files, options)).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ')
    if (!d.file || d.start === undefined) return text
    const {line, character} = d.file.getLineAndCharacterOfPosition(d.start)
    return `${relative(base, d.file.fileName)}:${line + 1}:${character + 1}: ${text}`
  })
}
