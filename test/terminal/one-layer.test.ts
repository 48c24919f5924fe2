// SPEC §17 "One terminal owner" and §18 "One terminal layer", read off the
// source: who spells escape sequences, who opens /dev/tty, the one "is there
// a terminal" check, who listens for terminating signals, and which library
// code writes to stderr. Each rule names the files that break it.
import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import ts from 'typescript'
import {ROOT} from '../helpers/pty.js'

const SRC = join(ROOT, 'src')

interface SourceFile {
  /** Relative to src/, with forward slashes. */
  path: string
  ast: ts.SourceFile
}

function sources(dir = SRC): SourceFile[] {
  const out: SourceFile[] = []
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(full))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push({path: relative(SRC, full).split('\\').join('/'), ast: ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true)})
    }
  }
  return out
}

const FILES = sources()

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node)
  node.forEachChild((child) => walk(child, visit))
}

/** Every node of every file for which `pick` returns a description: `path: description` lines. */
function offenders(allowed: (path: string) => boolean, pick: (n: ts.Node, file: SourceFile) => string | undefined): string[] {
  const found: string[] = []
  for (const file of FILES) {
    if (allowed(file.path)) continue
    walk(file.ast, (n) => {
      const what = pick(n, file)
      if (what !== undefined) found.push(`${file.path}:${file.ast.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${what}`)
    })
  }
  return found
}

const inTerminalLayer = (p: string) => p.startsWith('lib/terminal/')
const inPainter = (p: string) => p.startsWith('lib/inquire/render/')

/** The module an import or export declaration names, resolved to a path under src/ (undefined: a package). */
function importedPath(n: ts.Node, file: SourceFile): string | undefined {
  if (!(ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) || !n.moduleSpecifier || !ts.isStringLiteral(n.moduleSpecifier)) return undefined
  const spec = n.moduleSpecifier.text
  if (!spec.startsWith('.')) return undefined
  return relative(SRC, resolve(dirname(join(SRC, file.path)), spec)).split('\\').join('/').replace(/\.js$/, '.ts')
}

function importedNames(n: ts.Node): string[] {
  if (ts.isImportDeclaration(n)) {
    const bindings = n.importClause?.namedBindings
    return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : []
  }
  if (ts.isExportDeclaration(n) && n.exportClause && ts.isNamedExports(n.exportClause)) return n.exportClause.elements.map((e) => (e.propertyName ?? e.name).text)
  return []
}

/** Escape characters as a literal can spell them: ESC (0x1b) and CSI (0x9b), escaped or raw. */
const ESCAPE = /\\x1b|\\u001b|\\u\{0*1b\}|\\033|\\x9b|\\u009b|\\u\{0*9b\}|\u001b|\u009b/i

/**
 * Files outside the layer and the painter whose literals contain ESC, and
 * why that is not writing a sequence.
 */
const ESCAPE_EXCEPTIONS: Record<string, string> = {
  'lib/inquire/keys.ts': 'the key decoder reads the sequences terminals send; it writes nothing',
  'lib/printer/sanitize.ts': 'the sanitizer recognises sequences in model text to drop them',
  'lib/cli/usage-error.ts': "strips oclif's bold/dim from help text quoted in a usage error",
  'lib/inquire/search-list.ts': 'recognises the Esc key the terminal sends (to cancel the picker); it writes nothing',
  'lib/text/format-chars.ts': "dims a format character's placeholder inside printed text (SGR styling of content, as the markdown renderer styles an answer; no mode, no cursor)",
}
/** Files outside the layer that import its sequences, and why that is styling printed text, not writing a mode. */
const SEQUENCE_IMPORT_EXCEPTIONS: Record<string, string> = {
  'lib/conversation/grep-output.ts': "highlights a match inside the printed line (SGR on and off around sanitized text, as the renderer styles an answer)",
}

/** The markdown renderer paints the answer's own styling (SGR, OSC 8 links), which the printer writes. */
const isMarkdownRenderer = (p: string) => p.startsWith('lib/markdown/')

describe('terminal: one layer (read off the source)', () => {
  it('escape sequences are spelled only in src/lib/terminal/ and the painter', () => {
    const found = offenders(
      (p) => inTerminalLayer(p) || inPainter(p) || p in ESCAPE_EXCEPTIONS || isMarkdownRenderer(p),
      (n) => {
        const literal =
          ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) || ts.isRegularExpressionLiteral(n)
        if (literal && ESCAPE.test(n.getText())) return n.getText()
        if (ts.isCallExpression(n) && /^String\.fromCharCode$/.test(n.expression.getText()) && /^(27|0x1b|155|0x9b)$/i.test(n.arguments[0]?.getText() ?? '')) return n.getText()
        return undefined
      },
    )
    expect(found).to.deep.equal([])
  })

  it('and written only there: nothing else imports the sequences (no prompt, printer or query writes a mode, a shape or a clear itself)', () => {
    // The public API (lib/index.ts) included: it does not re-export them (issue 33).
    const found = offenders(
      (p) => inTerminalLayer(p) || inPainter(p) || p in SEQUENCE_IMPORT_EXCEPTIONS,
      (n, file) => (importedPath(n, file) === 'lib/terminal/sequences.ts' ? `imports ${importedNames(n).join(', ')}` : undefined),
    )
    expect(found).to.deep.equal([])
  })

  it('one module opens /dev/tty (terminal/tty.ts), and only the layer uses its file-descriptor opener or makes terminal streams', () => {
    const devTty = offenders(
      (p) => p === 'lib/terminal/tty.ts',
      (n) => ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && /^\/dev\/tty$/.test(n.text) ? n.getText() : undefined),
    )
    const fdOpeners = new Set(['openTtyFd', 'closeTtyFd', 'withTtyFd', 'writeTtySync', 'writeAllSync', 'TTY_PATH'])
    const opener = offenders(inTerminalLayer, (n, file) => {
      if (importedPath(n, file) !== 'lib/terminal/tty.ts') return undefined
      const used = importedNames(n).filter((name) => fdOpeners.has(name))
      return used.length > 0 ? `imports ${used.join(', ')}` : undefined
    })
    const streams = offenders(inTerminalLayer, (n) => (ts.isNewExpression(n) && /(^|\.)(Read|Write)Stream$/.test(n.expression.getText()) && /tty/i.test(n.expression.getText()) ? n.getText() : undefined))
    const ttyValueImports = offenders(inTerminalLayer, (n) =>
      ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && /^(node:)?tty$/.test(n.moduleSpecifier.text) && !n.importClause?.isTypeOnly ? n.getText() : undefined,
    )
    expect({devTty, opener, streams, ttyValueImports}).to.deep.equal({devTty: [], opener: [], streams: [], ttyValueImports: []})
  })

  it('one "is there a terminal" check: hasTty in terminal/tty.ts (no other has…Tty/has…Terminal function or method)', () => {
    const checks: string[] = []
    for (const file of FILES) {
      walk(file.ast, (n) => {
        const named = (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n)) && n.name && /^has\w*(Tty|Terminal)$/i.test(n.name.getText())
        const arrow = ts.isVariableDeclaration(n) && /^has\w*(Tty|Terminal)$/i.test(n.name.getText()) && n.initializer !== undefined && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
        if (named || arrow) checks.push(`${file.path}: ${(n as ts.NamedDeclaration).name!.getText()}`)
      })
    }
    expect(checks).to.deep.equal(['lib/terminal/tty.ts: hasTty'])
  })

  it('only the signal router and the restore registry listen for terminating and keyboard signals (no prompt keeps listeners of its own)', () => {
    const found = offenders(
      (p) => p === 'lib/terminal/restore.ts' || p === 'lib/interrupt/signals.ts',
      (n) => {
        // Every signal listener goes through the process lifecycle (test/architecture/process-state.test.ts checks that nothing else listens on the process).
        if (!ts.isCallExpression(n) || n.expression.getText() !== 'listenToSignal') return undefined
        const event = n.arguments[0]
        if (event && ts.isStringLiteral(event) && !['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'].includes(event.text)) return undefined
        return n.getText()
      },
    )
    // The SIGINT guard's no-op while the user's editor runs: it only keeps Node's default exit away (the stand-in defers to it).
    expect(found).to.deep.equal(["lib/process/sigint-guard.ts:23: listenToSignal('SIGINT', () => {})"])
  })

  it('only the restore registry re-raises a signal at jp itself (process.kill(process.pid, …)); nothing raises one with process.kill elsewhere', () => {
    const found = offenders(
      (p) => p === 'lib/terminal/restore.ts',
      (n) => (ts.isCallExpression(n) && n.expression.getText() === 'process.kill' && n.arguments[0]?.getText() === 'process.pid' ? n.getText() : undefined),
    )
    expect(found).to.deep.equal([])
  })

  it('library code writes to stderr only through the printer (the command floor, lib/cli/, and the router default for embedders aside)', () => {
    const found = offenders(
      (p) => !p.startsWith('lib/') || p.startsWith('lib/printer/') || p.startsWith('lib/cli/') || p === 'lib/interrupt/signals.ts',
      (n) => (ts.isCallExpression(n) && /^process\.stderr\.write$/.test(n.expression.getText()) ? n.getText().slice(0, 80) : undefined),
    )
    expect(found).to.deep.equal([])
  })

  it('inquire and editor take the terminal from the layer, never from printer/ (SPEC §2)', () => {
    const found = offenders(
      (p) => !(p.startsWith('lib/inquire/') || p.startsWith('lib/editor/')),
      (n, file) => (importedPath(n, file)?.startsWith('lib/printer/') ? `imports ${importedPath(n, file)}` : undefined),
    )
    expect(found).to.deep.equal([])
  })
})
