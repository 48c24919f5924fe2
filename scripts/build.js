// `npm run build`: type-check and emit the library's declarations (tsc), then
// bundle each entry with esbuild:
//   dist/jp.cjs          the CLI: oclif and the commands (bin/run.js loads it)
//   dist/lib/index.js    the library entries for plugins and embedders (package "exports"),
//   dist/lib/testing.js  sharing dist/lib/chunks/
//   dist/first.cjs       what bin/run.js answers before loading the CLI
//   dist/prompt.cjs      the Query: prompt bin/run.js draws while the CLI loads
//   dist/pick.cjs        the resume picker's lean start-up (bin/run.js, before the CLI)
//   dist/render-worker.cjs  the thread a long answer is rendered on
// then the oclif manifest (scripts/manifest.js), the V8 code caches of the
// CLI bundle and the picker's (scripts/code-cache.js) and the recorded help of the root, the
// commands and the topics (scripts/recorded-help.js).
import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {createRequire} from 'node:module'
import {cpSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import ts from 'typescript'

import {highlightWithoutPerCallCost} from './highlight-patch.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const node = process.execPath

rmSync(join(root, 'dist'), {recursive: true, force: true})
execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--emitDeclarationOnly'], {cwd: root, stdio: 'inherit'})

const common = {absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none'}
/** A bundle of ES modules run as CommonJS through bin/load.js (the CLI's, the picker's): written by the build itself (build id, code cache). */
const cjsBundle = {
  format: 'cjs',
  write: false,
  // ES module builds first: some packages' "main" is a UMD build whose
  // require() calls esbuild cannot follow (jsonc-parser).
  mainFields: ['module', 'main'],
  // import.meta.url in ES modules bundled to CommonJS (oclif plugins, our own paths).
  define: {'import.meta.url': 'importMetaUrl'},
  banner: {
    js: [
      "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      // See routeDynamicImports.
      "const __jpImport = globalThis[Symbol.for('jp.import')] ?? ((specifier) => import(specifier));",
    ].join('\n'),
  },
}

// CommonJS, so bin/run.js can compile it through vm.Script with cached data
// (Node 20 has no code cache for ES modules). ESM-only dependencies are
// converted; the modules behind import() stay uninitialised until called.
const cli = await build({
  ...common,
  entryPoints: ['src/jp.ts'],
  outfile: 'dist/jp.cjs',
  ...cjsBundle,
  preserveSymlinks: true,
  // Optional native or build-time packages some dependencies probe for.
  // The MCP SDK (express, hono, ajv, zod behind it) loads from node_modules when a server starts (src/lib/mcp/sdk.ts).
  external: ['@lydell/node-pty', 'esbuild', 'typescript', 'tsx', 'ts-node', '@modelcontextprotocol/sdk'],
  plugins: [commandSortWithoutCollator(), highlightWithoutPerCallCost(), stringWidthSetUpOnFirstUse()],
})
writeFileSync(join(root, 'dist/jp.cjs'), withBuildId(asciiOnly(routeDynamicImports(cli.outputFiles[0].text))))

/**
 * oclif sorts each plugin's commands with `a.id.localeCompare(b.id)` on every
 * start-up, and the first localeCompare in a process builds ICU's collator:
 * 8-15 ms of every jp run that loads the CLI, the only collation it does
 * (issue 29's profile of `jp query --help`). For ids of lowercase ASCII
 * letters and `:` (jp's and the plugins plugin's), ICU's root order is the
 * code-unit order (punctuation, non-ignorable, sorts before letters; checked
 * over short words in test/startup/bundle.test.ts), so those are compared
 * directly; any other id pair still goes to localeCompare. The build fails if
 * oclif's line is not there to patch (a new @oclif/core: look again).
 */
function commandSortWithoutCollator() {
  const line = '.sort((a, b) => a.id.localeCompare(b.id));'
  const compare = `.sort((a, b) => {
                const plain = /^[a-z:]*$/;
                return plain.test(a.id) && plain.test(b.id) ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.id.localeCompare(b.id);
            });`
  return {
    name: 'oclif-command-sort',
    setup(b) {
      b.onLoad({filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/}, async ({path}) => {
        const text = readFileSync(path, 'utf8')
        if (text.split(line).length !== 2) throw new Error(`${path}: the command sort to patch is not there once (scripts/build.js, commandSortWithoutCollator)`)
        return {contents: text.replace(line, compare), loader: 'js'}
      })
    },
  }
}

/**
 * string-width (jp's own copy) sets itself up when imported: an
 * `Intl.Segmenter` (the first of a process loads ICU's break-iterator data)
 * and four Unicode-property regular expressions, 30-75 ms on this machine
 * under load, paid by every run that loads the printer or the prompt, most of
 * which measure only text the callers answer without it (isSimpleText). The
 * module's body after its two imports becomes a function run at the first
 * call: the same code, set up on first use. The build fails if the module is
 * not shaped so (two imports, then one `export default function stringWidth`
 * as its only export): a new string-width, look again.
 */
function stringWidthSetUpOnFirstUse() {
  const imports = "import stripAnsi from 'strip-ansi';\nimport {eastAsianWidth} from 'get-east-asian-width';\n"
  const entry = 'export default function stringWidth('
  return {
    name: 'string-width-on-first-use',
    setup(b) {
      b.onLoad({filter: /[\\/]string-width[\\/]index\.js$/}, async ({path}) => {
        const text = readFileSync(path, 'utf8')
        // Older copies nested under other packages (oclif's, wrap-ansi's) set up nothing costly.
        if (path !== join(root, 'node_modules/string-width/index.js')) return undefined
        if (!text.startsWith(imports) || text.split(entry).length !== 2 || text.split(/^export /m).length !== 2) {
          throw new Error(`${path}: not the shape to set up on first use (scripts/build.js, stringWidthSetUpOnFirstUse)`)
        }
        const body = text.slice(imports.length).replace(entry, 'return function stringWidth(')
        const contents = `${imports}let setUp;\nexport default function stringWidth(input, options) {\n  setUp ??= (() => {\n${body}\n})();\n  return setUp(input, options);\n}\n`
        return {contents, loader: 'js'}
      })
    },
  }
}

/**
 * The bundle with its build id as its last line: the SHA-1 of the text
 * before it. The code cache carries the same id, and bin/load.js uses the
 * cache only when the two match, without hashing the bundle at start-up.
 */
function withBuildId(text) {
  return `${text}\n//# jp-build-id ${createHash('sha1').update(text).digest('hex')}\n`
}

/**
 * The bundle as ASCII. esbuild escapes strings and templates but leaves
 * comments and regular expressions as they are, and one non-ASCII character
 * anywhere makes V8 hold the whole 2.4 MB source as a two-byte string (twice
 * the memory, kept for lazy compilation: issue 27). Every UTF-16 unit above
 * 0x7f becomes `\uXXXX`, the same thing in a comment, a string, a regular
 * expression (with or without the u flag, a surrogate pair's two escapes are
 * its code point) and an identifier. A backslash right before one (an
 * identity escape `\é`) would change meaning: the build fails instead.
 */
function asciiOnly(text) {
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error('dist/jp.cjs: a backslash before a non-ASCII character cannot be made ASCII')
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Rewrites every real `import(x)` left in the bundle (oclif loading ESM
 * plugins and hooks, node: built-ins) into `__jpImport(x)`. On Node 20 a
 * function restored from V8's code cache loses vm.Script's
 * importModuleDynamically, so import() inside it throws
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; bin/load.js provides __jpImport
 * from an ordinary ES module instead. Found through TypeScript's parser, so
 * strings and comments that mention import() are left alone. Every such
 * specifier here is absolute (a file: URL or a built-in), so resolving it from
 * bin/load.js is the same as from the bundle. A built-in (`import('node:fs')`,
 * which esbuild leaves as it is) becomes a require() instead: an import()
 * sets up Node's ES-module loader, 15-25 ms of CPU, and jp's start-up never
 * needs it otherwise (issue 40). Every such import in src/ takes named
 * exports, which a built-in's require() has too.
 */
function routeDynamicImports(text) {
  const file = ts.createSourceFile('jp.cjs', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS)
  const edits = []
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      const start = node.expression.getStart(file)
      if (node.arguments.length === 1 && ts.isStringLiteral(arg) && arg.text.startsWith('node:')) {
        edits.push({start, end: node.end, text: `Promise.resolve().then(() => require(${JSON.stringify(arg.text)}))`})
      } else {
        edits.push({start, end: start + 'import'.length, text: '__jpImport'})
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  // Keep the banner's own fallback (used when plain require() loads the bundle).
  const banner = text.indexOf('((specifier) => import(specifier))')
  let out = ''
  let at = 0
  for (const edit of edits) {
    if (banner >= 0 && edit.start > banner && edit.start < banner + 40) continue
    out += text.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return out + text.slice(at)
}

await build({
  ...common,
  entryPoints: ['src/lib/index.ts', 'src/lib/testing.ts'],
  outdir: 'dist/lib',
  format: 'esm',
  // What both entries share goes in a chunk, so there is one copy of each class.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // A library: its dependencies come from the consumer's node_modules.
  packages: 'external',
})

// What bin/run.js asks before it loads the CLI (src/lib/cli/first.ts): a
// module of its own, a few kB, so `jp --version` and the recorded help load no bundle.
// Its colour check takes oclif's own copies of what oclif's help asks (supports-color, ansis).
const oclifRequire = createRequire(createRequire(join(root, 'package.json')).resolve('@oclif/core'))
// CommonJS, as bin/run.js is: required, so Node never sets up its ES-module loader (issue 40).
await build({
  ...common,
  entryPoints: ['src/lib/cli/first.ts'],
  outfile: 'dist/first.cjs',
  format: 'cjs',
  alias: {ansis: oclifRequire.resolve('ansis'), 'supports-color': oclifRequire.resolve('supports-color')},
})

// The inline Query: prompt bin/run.js draws for `jp query` before it loads
// the CLI (src/lib/cli/early-prompt.ts): a module of its own, a few kB.
await build({
  ...common,
  entryPoints: ['src/lib/cli/early-prompt.ts'],
  outfile: 'dist/prompt.cjs',
  format: 'cjs',
})

// The resume picker's lean start-up (src/lib/cli/pick-first.ts): `jp
// conversation use` with no ID on a terminal, drawn without the CLI bundle.
// CommonJS with a build id and a code cache, as the CLI's (bin/load.js):
// compiling its ~270 kB from source was the largest part of its start.
const pick = await build({
  ...common,
  entryPoints: ['src/lib/cli/pick-first.ts'],
  outfile: 'dist/pick.cjs',
  ...cjsBundle,
  plugins: [stringWidthSetUpOnFirstUse(), inquirerPromptsAsUsed(['search', 'input'])],
})
writeFileSync(join(root, 'dist/pick.cjs'), withBuildId(asciiOnly(routeDynamicImports(pick.outputFiles[0].text))))

/**
 * `@inquirer/prompts` as the picker's chunk uses it: only the prompts named
 * (search-list.ts, question.ts), the very modules @inquirer/prompts
 * re-exports (resolved from its own directory). The whole package brings
 * the editor prompt's iconv-lite and chardet (0.7 MB to parse at every start
 * of the picker).
 */
function inquirerPromptsAsUsed(names) {
  const promptsRequire = createRequire(createRequire(join(root, 'package.json')).resolve('@inquirer/prompts'))
  return {
    name: 'inquirer-prompts-as-used',
    setup(b) {
      b.onResolve({filter: /^@inquirer\/prompts$/}, () => ({path: '@inquirer/prompts', namespace: 'inquirer-prompts-as-used'}))
      b.onLoad({filter: /.*/, namespace: 'inquirer-prompts-as-used'}, () => ({
        contents: names.map((n) => `export {default as ${n}} from ${JSON.stringify(promptsRequire.resolve(`@inquirer/${n}`))}`).join('\n'),
        resolveDir: root,
        loader: 'js',
      }))
    },
  }
}

// The render worker's thread (src/lib/markdown/render-thread.ts, started by
// src/lib/printer/hand-off.ts): the renderer alone, markdown-it and
// highlight.js with it, so a worker boots without the CLI.
await build({
  ...common,
  entryPoints: ['src/lib/markdown/render-thread.ts'],
  outfile: 'dist/render-worker.cjs',
  format: 'cjs',
  mainFields: ['module', 'main'],
  plugins: [highlightWithoutPerCallCost()],
})

// The bundles carry code vendored from @inquirer/core (MIT): its licence and
// the list of changes ship beside them.
for (const file of ['LICENSE', 'PATCHES.md']) {
  cpSync(join(root, 'src/lib/inquire/vendor/inquirer-core', file), join(root, 'dist/vendor/inquirer-core', file))
}
execFileSync(node, [join(root, 'scripts/manifest.js')], {cwd: root, stdio: 'inherit'})
execFileSync(node, [join(root, 'scripts/code-cache.js')], {cwd: root, stdio: 'inherit'})
execFileSync(node, [join(root, 'scripts/recorded-help.js')], {cwd: root, stdio: 'inherit'})
