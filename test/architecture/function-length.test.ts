// No function of src/ is over 80 lines (the project's standard): a long
// function is several jobs a reader must hold at once. Every function-like
// node counts — declarations, methods, constructors, accessors, function
// expressions and arrow functions — from its first line to its last, read
// with TypeScript's parser. The vendored inquirer core is someone else's code,
// kept as it came (src/lib/inquire/vendor/).
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import ts from 'typescript'
import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

export const MAX_FUNCTION_LINES = 80
const VENDORED = 'lib/inquire/vendor/'
/**
 * Functions allowed over the limit for now, by `file:name` (each with the
 * work that splits it). Empty since the markdown renderer's were split.
 */
const ALLOWED = new Set<string>([])

export interface LongFunction {
  file: string
  name: string
  line: number
  lines: number
}

/** The name a function-like node goes by: its own, its variable's or property's, else `(anonymous)`. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & {name?: ts.Node}
  if (named.name && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text
  if (parent && ts.isCallExpression(parent)) return `${parent.expression.getText().slice(0, 40)}(…)`
  return '(anonymous)'
}

/** Every function-like node of one source text and its length in lines. */
export function functionLengths(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: LongFunction[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      out.push({file, name: nameOf(node), line: first + 1, lines: last - first + 1})
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

function srcFiles(): string[] {
  const src = join(ROOT, 'src')
  return filesUnder(src)
    .map((f) => relative(src, f).split(sep).join('/'))
    .filter((f) => !f.startsWith(VENDORED) && !f.endsWith('.d.ts'))
}

describe('no function of src/ is over 80 lines', () => {
  it('the count sees a long arrow function, a method and a function declaration (not a false pass)', () => {
    const body = Array.from({length: MAX_FUNCTION_LINES}, (_, i) => `  const a${i} = ${i}`).join('\n')
    const text = `function f() {\n${body}\n}\nconst g = () => {\n${body}\n}\nclass C {\n  m() {\n${body}\n  }\n}\n`
    const long = functionLengths('x.ts', text).filter((f) => f.lines > MAX_FUNCTION_LINES)
    expect(long.map((f) => `${f.name}:${f.lines}`)).to.deep.equal(['f:82', 'g:82', 'm:82'])
  })

  it('every function of src/ (outside the vendored inquirer core) has at most 80 lines', () => {
    const long = srcFiles()
      .flatMap((file) => functionLengths(file, readFileSync(join(ROOT, 'src', file), 'utf8')))
      .filter((f) => f.lines > MAX_FUNCTION_LINES && !ALLOWED.has(`${f.file}:${f.name}`))
      .map((f) => `src/${f.file}:${f.line} ${f.name}: ${f.lines} lines (split it: at most ${MAX_FUNCTION_LINES})`)
    expect(long, long.join('\n')).to.deep.equal([])
  })

  it('the allowlist names only functions that are still over the limit (remove an entry once it is split)', () => {
    const present = new Set(
      srcFiles()
        .flatMap((file) => functionLengths(file, readFileSync(join(ROOT, 'src', file), 'utf8')))
        .filter((f) => f.lines > MAX_FUNCTION_LINES)
        .map((f) => `${f.file}:${f.name}`),
    )
    const stale = [...ALLOWED].filter((entry) => !present.has(entry))
    expect(stale, `allowed but no longer over ${MAX_FUNCTION_LINES} lines: ${stale.join(', ')}`).to.deep.equal([])
  })
})
