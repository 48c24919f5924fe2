// One way out of the process and one list of process-wide state (issue 41):
// only process/lifecycle.ts listens on the process ('exit', the crash
// monitor, signals), and only process/slots.ts makes `Symbol.for('jp.…')`
// keys. Read from the code with TypeScript's parser.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import ts from 'typescript'
import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

const SRC = join(ROOT, 'src')
const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener', 'removeAllListeners'])
/** A `Symbol.for` that is no slot: a property key on an installed editor builder (editor/slot.ts `PLUGINS_OF`). */
const PROPERTY_KEYS = new Set(['jp.pluginsOfBuilder'])

function calls(match: (call: ts.CallExpression, source: ts.SourceFile) => string | undefined): string[] {
  const out: string[] = []
  for (const file of filesUnder(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const found = match(node, source)
        if (found !== undefined) out.push(`${relative(SRC, file).split(sep).join('/')}: ${found}`)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}

describe('process-wide state has one owner each', () => {
  it("only process/lifecycle.ts adds or removes the process's listeners ('exit', signals, the crash monitor)", () => {
    const found = calls((call, source) => {
      const callee = call.expression
      if (!ts.isPropertyAccessExpression(callee) || callee.expression.getText(source) !== 'process') return undefined
      return LISTENER_METHODS.has(callee.name.text) ? call.getText(source).slice(0, 60) : undefined
    })
    expect(found.filter((f) => !f.startsWith('lib/process/lifecycle.ts:')), 'register with process/lifecycle.ts (onCleanup, listenToSignal) instead').to.deep.equal([])
  })

  it('signals are listened for by the router, the terminal layer (restore, resize) and process/ only: prompts hear a resize from terminal/resize.ts', () => {
    const found = calls((call, source) => (call.expression.getText(source) === 'listenToSignal' ? call.getText(source).slice(0, 60) : undefined))
    const allowed = (f: string) => f.startsWith('lib/terminal/') || f.startsWith('lib/process/') || f.startsWith('lib/interrupt/signals.ts:')
    expect(found.filter((f) => !allowed(f))).to.deep.equal([])
    expect(found.some((f) => f.startsWith('lib/terminal/resize.ts:'))).to.equal(true)
  })

  it('only process/slots.ts makes a Symbol.for key (add a slot there)', () => {
    const found = calls((call, source) => {
      if (call.expression.getText(source) !== 'Symbol.for') return undefined
      const arg = call.arguments[0]
      if (arg && ts.isStringLiteral(arg) && PROPERTY_KEYS.has(arg.text)) return undefined
      return call.getText(source)
    })
    expect(found.filter((f) => !f.startsWith('lib/process/slots.ts:'))).to.deep.equal([])
  })
})
