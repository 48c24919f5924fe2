// docs/architecture.md is written from the code and kept true by this test:
//   - its module map is what scripts/gen-architecture.ts generates (fix: `npm run docs:arch`);
//   - every folder of src/ is on one floor of its Floors table, and the real
//     imports (static, dynamic and type-only, read with TypeScript's parser)
//     go only where the floors and the dependency rules it states allow;
//   - every file and identifier it names in backticks exists.
// Each failure says what to change.
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve, sep} from 'node:path'
import ts from 'typescript'
import {ARCHITECTURE_PATH, floors, moduleMap, MAP_END, MAP_START, OWNS_PLACEHOLDER, srcUnits} from '../../scripts/gen-architecture.js'
import {PROVIDER_NAMES} from '../../src/lib/config/providers.js'
import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

const DOC = readFileSync(ARCHITECTURE_PATH, 'utf8')
/** The page as one line of words (sentences wrap anywhere). */
const FLAT = DOC.replace(/\s+/g, ' ')
const SRC = join(ROOT, 'src')
/** Units of src/ that sit on no floor: the package's entries (they re-export every floor) and type declarations. */
const OFF_FLOOR = ['lib/index.ts', 'lib/testing.ts', 'types/']

/** The unit of src/ a file belongs to (`lib/cli/`, `commands/`, `jp.ts`, `lib/index.ts`). */
function unitOf(abs: string): string {
  const parts = relative(SRC, abs).split(sep)
  if (parts[0] === 'lib') return parts.length === 2 ? `lib/${parts[1]}` : `lib/${parts[1]}/`
  return parts.length === 1 ? parts[0] : `${parts[0]}/`
}

interface Import {
  from: string
  fromFile: string
  to: string
  typeOnly: boolean
  dynamic: boolean
}

/** Every import between two units of src/ (relative specifiers; packages are not floors). */
function imports(): Import[] {
  const out: Import[] = []
  for (const file of filesUnder(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
      if (!specifier.startsWith('.')) return
      const to = unitOf(resolve(dirname(file), specifier))
      const from = unitOf(file)
      if (to !== from) out.push({from, fromFile: relative(SRC, file).split(sep).join('/'), to, typeOnly, dynamic})
    }
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause
        const allTypes =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly)))
        add(node.moduleSpecifier.text, allTypes, false)
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node.isTypeOnly, false)
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text, false, true)
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        add(node.argument.literal.text, true, false)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}

const IMPORTS = imports()
const describeImport = (i: Import) => `${i.fromFile} imports ${i.to}${i.typeOnly ? ' (types)' : ''}${i.dynamic ? ' (lazily)' : ''}`

/** A dependency rule the page states, by its words, and what it means over the imports. */
interface Rule {
  says: string
  broken(): Import[]
}

const lib = (name: string) => `lib/${name}/`
const RULES: Rule[] = [
  {says: '`tool/` imports nothing from `interrupt/`', broken: () => IMPORTS.filter((i) => i.from === lib('tool') && i.to === lib('interrupt'))},
  {says: '`compose/` nothing from either', broken: () => IMPORTS.filter((i) => i.from === lib('compose') && [lib('interrupt'), lib('tool')].includes(i.to))},
  {says: '`terminal/` nothing from `printer/`', broken: () => IMPORTS.filter((i) => i.from === lib('terminal') && i.to === lib('printer'))},
  {
    says: '`conversation/` uses `editor/` only for the types',
    broken: () => IMPORTS.filter((i) => i.from === lib('conversation') && i.to === lib('editor') && !i.typeOnly),
  },
  {says: '`markdown/` imports nothing from `src/lib`', broken: () => IMPORTS.filter((i) => i.from === lib('markdown') && i.to.startsWith('lib/'))},
  {
    says: '`printer/` imports it only lazily (`printer/markdown.ts`)',
    broken: () => IMPORTS.filter((i) => i.from === lib('printer') && i.to === lib('markdown') && !(i.dynamic && i.fromFile === 'lib/printer/markdown.ts') && !i.typeOnly),
  },
  {
    says: '`llm/` imports neither `editor/`, `inquire/` nor `printer/`',
    broken: () => IMPORTS.filter((i) => i.from === lib('llm') && [lib('editor'), lib('inquire'), lib('printer')].includes(i.to)),
  },
  {
    says: '`inquire/` and `editor/` never import `printer/`',
    broken: () => IMPORTS.filter((i) => [lib('inquire'), lib('editor')].includes(i.from) && i.to === lib('printer')),
  },
  {says: '`config/` imports only `text/`', broken: () => IMPORTS.filter((i) => i.from === lib('config') && i.to !== lib('text'))},
  {
    says: 'Nothing in `src/lib` imports `src/commands`',
    broken: () => IMPORTS.filter((i) => i.from.startsWith('lib/') && (i.to === 'commands/' || i.to === 'hooks/' || i.to === 'jp.ts')),
  },
]

/** Calls of `process.exit(…)` and `process.kill(process.pid, …)` in src/lib, by file. */
function exits(): string[] {
  const out: string[] = []
  for (const file of filesUnder(join(SRC, 'lib'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.expression.getText(source) === 'process') {
        const name = node.expression.name.text
        const self = name === 'kill' && node.arguments[0]?.getText(source) === 'process.pid'
        if (name === 'exit' || self) out.push(`${relative(SRC, file).split(sep).join('/')}: process.${name}`)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return [...new Set(out)].sort()
}

// ---- names in backticks -------------------------------------------------

/** The backtick spans of the page outside fenced code, with the folder of the section each is in. */
function spans(): {text: string; folder?: string}[] {
  const out: {text: string; folder?: string}[] = []
  let folder: string | undefined
  let fenced = false
  for (const line of DOC.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const heading = /^#{2,3} .*\(`(src\/[^`]+\/)`\)/.exec(line)
    if (/^#{2,3} /.test(line)) folder = heading?.[1]
    for (const m of line.matchAll(/`([^`]+)`/g)) out.push({text: m[1], folder})
  }
  return out
}

/** Names declared in the page's fenced TypeScript blocks (`interface Key`, `type EditCommand`). */
function fencedDeclarations(): string[] {
  const names: string[] = []
  for (const block of DOC.matchAll(/```ts\n([\s\S]*?)```/g)) {
    for (const m of block[1].matchAll(/\b(?:interface|type|class|function)\s+([A-Za-z_$][\w$]*)/g)) names.push(m[1])
  }
  return names
}

/** Runtime file names the page names that are not repository files (jp writes them, or they are the user's). */
const RUNTIME_FILES = new Set(['events.json', 'events.log', 'metadata.json', 'base_config.json', 'config.toml', 'QUERY_MESSAGE.md', 'active_conversation', 'trusted_workspaces.json', 'INLINE_QUERY.md'])

const PATH_LIKE = /^(?:\.{0,2}\/)?[\w.@<>*-]+(?:\/[\w.@<>*-]*)+$|^[\w.-]+\.(?:ts|js|cjs|mjs|json|md|sh)$/

/** Whether a path the page names exists: from the root, src/, src/lib/, the section's folder, or as the tail of a repository file. */
function pathExists(path: string, folder: string | undefined, tails: string[]): boolean {
  const clean = path.replace(/\/$/, '')
  // Import specifiers name a TypeScript file by its emitted name (`index.js` for index.ts).
  const names = clean.endsWith('.js') ? [clean, clean.replace(/\.js$/, '.ts')] : [clean]
  const bases = [ROOT, SRC, join(SRC, 'lib'), ...(folder ? [join(ROOT, folder)] : [])]
  if (names.some((n) => bases.some((b) => existsSync(join(b, n))))) return true
  return names.some((n) => tails.some((f) => f === n || f.endsWith(`/${n}`)))
}

/** Model ids look like paths: `echo/default`, `anthropic/…`. */
const MODEL_ID = new RegExp(`^(?:echo|${PROVIDER_NAMES.join('|')})/`)

/** The npm package's name (its entries are named by it, not by a path). */
const PACKAGE_NAME = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {name: string}).name

/** Whether a span names a thing outside the repository, one made at run time, or no file at all (not checked). */
function outside(path: string): boolean {
  return (
    path.startsWith('../') ||
    path.startsWith('./dist/') ||
    path.startsWith('-') || // flags: `-c/--cfg`
    path.includes('*') || // globs
    /^\.\w+(\.\w+)*$/.test(path) || // an extension: `.d.ts`
    /^[A-Z]\w*\./.test(path) || // methods: `Printer.chrome/notice`
    MODEL_ID.test(path) ||
    path.startsWith('/') ||
    path.startsWith('@') ||
    path.startsWith('dist/') ||
    path.startsWith('node:') ||
    path.startsWith(PACKAGE_NAME) || // the package's own entries: `jp-llm-cli/testing`
    path.startsWith('.jp') ||
    path.includes('<') ||
    path.includes('$') ||
    RUNTIME_FILES.has(path.split('/').pop()!)
  )
}

/** Identifiers a span names as code: calls `f(`, members `A.b`, camelCase, PascalCase words, SCREAMING_CASE constants. */
function codeNames(span: string): string[] {
  if (/^[-\w]+ [-\w ]+$/.test(span) && !/[A-Z]/.test(span[0])) return [] // a command line or prose: `jp conversation edit`
  const names: string[] = []
  for (const m of span.matchAll(/(?<![\w$.\\-])([A-Za-z_$][\w$]*)(?=(\()|\.[A-Za-z_$]|)/g)) {
    const name = m[1]
    const called = m[2] === '('
    const camel = /[a-z][A-Z]/.test(name)
    const pascal = /^[A-Z][a-z]+[A-Z]/.test(name) || (/^[A-Z][a-z]+$/.test(name) && span === name)
    const screaming = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name)
    if (called || camel || pascal || screaming) names.push(name)
  }
  return names
}

/** Words of the code (comments removed, so a name that survives only in a comment does not count). */
function codeWords(): Set<string> {
  const words = new Set<string>()
  const dirs = ['src', 'test', 'bin', 'scripts', 'bench'].map((d) => join(ROOT, d))
  for (const file of dirs.flatMap((d) => filesUnder(d, /\.(?:ts|js|mjs|cjs)$/))) {
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(m[0])
  }
  return words
}

/** Names of other packages' APIs and of the platform the page mentions (checked against nothing of ours). */
const FOREIGN_NAMES = new Set([
  'globalThis', 'createPrompt', 'ScreenManager', 'useState', 'useEffect', 'useRef', 'usePrefix', 'makeTheme', 'runHook', 'setRawMode', 'enableCompileCache',
  'createCachedData', 'importModuleDynamically', 'getLine', 'translateToString', 'cursorX', 'cursorY', 'AsyncResource', 'Plugin', 'Command',
])

describe('docs/architecture.md is true', function () {
  this.timeout(60_000)
  const FIX_MAP = 'run `npm run docs:arch` (it rewrites the module map from src/; write what a new folder owns in its Owns cell)'

  it('the module map is what scripts/gen-architecture.ts generates from src/ (lines within 10%)', () => {
    // Folders, what they own and their file counts exactly; lines within 10%
    // (or 50), so an ordinary edit elsewhere does not make the page stale.
    type Row = {label: string; owns: string; files: number; lines: number}
    const rows = (table: string): Row[] =>
      [...table.matchAll(/^\| (.+?) \| (.+) \| (\d+) \| (\d+) \|$/gm)].map((m) => ({label: m[1], owns: m[2], files: Number(m[3]), lines: Number(m[4])}))
    const page = rows(DOC.slice(DOC.indexOf(MAP_START) + MAP_START.length, DOC.indexOf(MAP_END)))
    const generated = rows(moduleMap(DOC))
    const near = (a: Row, b: Row) => Math.abs(a.lines - b.lines) <= Math.max(50, b.lines / 10)
    const stale = generated.filter((g, i) => {
      const p = page[i]
      return !p || p.label !== g.label || p.owns !== g.owns || p.files !== g.files || !near(p, g)
    })
    expect(stale.map((r) => `${r.label}: ${r.files} files, ${r.lines} lines`), `the module map is stale: ${FIX_MAP}`).to.deep.equal([])
    expect(page.length, `the module map has rows for folders that are gone: ${FIX_MAP}`).to.equal(generated.length)
    expect(page.filter((r) => r.owns === OWNS_PLACEHOLDER).map((r) => r.label), `write what these folders own in the module map of docs/architecture.md`).to.deep.equal([])
  })

  it('every folder of src/ is on exactly one floor, and every folder on a floor exists', () => {
    const onFloors = floors(DOC).flatMap((f) => f.groups.flat())
    expect(floors(DOC).map((f) => f.level), 'floors 6 … 1').to.deep.equal([6, 5, 4, 3, 2, 1])
    for (const unit of srcUnits()) {
      if (OFF_FLOOR.includes(unit)) continue
      expect(onFloors.filter((u) => u === unit), `${unit} must be on one floor of the Floors table in docs/architecture.md`).to.have.length(1)
    }
    for (const unit of onFloors) expect(existsSync(join(SRC, unit)), `the Floors table names ${unit}, which src/ does not have`).to.equal(true)
  })

  it('the imports go only downwards, or along a floor’s arrows (`a/` → `b/`: a may use b)', () => {
    expect(FLAT).to.include('Each floor imports only from the floors below it')
    const place = new Map<string, {level: number; group: number}>()
    for (const f of floors(DOC)) f.groups.forEach((g, i) => g.forEach((u) => place.set(u, {level: f.level, group: i})))
    const wrong = IMPORTS.filter((i) => {
      if (OFF_FLOOR.includes(i.from) || OFF_FLOOR.includes(i.to)) return OFF_FLOOR.includes(i.to) && !OFF_FLOOR.includes(i.from)
      const a = place.get(i.from)
      const b = place.get(i.to)
      if (!a || !b) return true
      return !(a.level > b.level || (a.level === b.level && b.group > a.group))
    })
    expect([...new Set(wrong.map(describeImport))], 'imports against the Floors table of docs/architecture.md: move the code, or change the table and say why').to.deep.equal([])
  })

  for (const rule of RULES) {
    it(`rule: ${rule.says}`, () => {
      expect(FLAT, 'the page no longer states this rule: update RULES in test/docs/architecture.test.ts with it').to.include(rule.says)
      expect([...new Set(rule.broken().map(describeImport))]).to.deep.equal([])
    })
  }

  it('rule: library code never exits the process (the signal router decides; the restore registry re-raises a signal where none runs)', () => {
    expect(FLAT).to.include('library code never exits the process')
    // lib/cli/ is the commands floor: its execute() is where an escaped error becomes an exit.
    expect(exits().filter((e) => !e.startsWith('lib/cli/'))).to.deep.equal(['lib/interrupt/signals.ts: process.exit', 'lib/terminal/restore.ts: process.kill'])
  })

  it('the one sh-word splitter is config/command-words.ts: no other file of src/ imports shlex\'s split', () => {
    expect(FLAT).to.include('the one sh-word splitter')
    const splitters = filesUnder(join(ROOT, 'src'), /\.ts$/)
      .filter((f) => /import\s*\{[^}]*\bsplit\b[^}]*\}\s*from\s*'shlex'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f).split(sep).join('/'))
    expect(splitters).to.deep.equal(['lib/config/command-words.ts'])
  })

  it('commands are "flags in, one library call, exit code out": none renders (imports the printer or the markdown renderer) or runs past 90 lines', () => {
    expect(FLAT).to.include('flags in, one library call, exit code out')
    const offenders = filesUnder(join(SRC, 'commands'), /\.ts$/).flatMap((f) => {
      const text = readFileSync(f, 'utf8')
      const name = relative(SRC, f).split(sep).join('/')
      return [
        ...(/from '(?:\.\.\/)+lib\/(?:printer|markdown)\//.test(text) ? [`${name}: renders (imports lib/printer or lib/markdown)`] : []),
        ...(text.split('\n').length > 90 ? [`${name}: ${text.split('\n').length} lines`] : []),
      ]
    })
    expect(offenders).to.deep.equal([])
  })

  it('every repository file it names in backticks exists', () => {
    const tails = [...filesUnder(ROOT, /./)].map((f) => relative(ROOT, f).split(sep).join('/'))
    const missing = spans()
      .filter((s) => PATH_LIKE.test(s.text) && !outside(s.text))
      .filter((s) => !pathExists(s.text, s.folder, tails))
      .map((s) => `\`${s.text}\`${s.folder ? ` (in the ${s.folder} section)` : ''}`)
    expect([...new Set(missing)], 'files docs/architecture.md names that do not exist: fix the page').to.deep.equal([])
  })

  it('every identifier it names in backticks (and every name its TypeScript blocks declare) exists in the code', () => {
    const words = codeWords()
    const named = [...spans().filter((s) => !PATH_LIKE.test(s.text)).flatMap((s) => codeNames(s.text)), ...fencedDeclarations()]
    const missing = [...new Set(named)].filter((n) => !words.has(n) && !FOREIGN_NAMES.has(n))
    expect(missing, 'names docs/architecture.md uses that no code has (outside comments): fix the page').to.deep.equal([])
  })
})
