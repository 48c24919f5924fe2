// `npm run build`: type-check and emit the library's declarations (tsc), then
// bundle each entry with esbuild:
//   dist/jp.cjs          the CLI: oclif, the commands and the hooks (bin/run.js loads it)
//   dist/lib/index.js    the library entry for plugins and embedders (package "exports")
// then the oclif manifest (scripts/manifest.js) and the V8 code cache of the
// CLI bundle (scripts/code-cache.js).
import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {rmSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const node = process.execPath

rmSync(join(root, 'dist'), {recursive: true, force: true})
execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--emitDeclarationOnly'], {cwd: root, stdio: 'inherit'})

const common = {absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none'}

// CommonJS, so bin/run.js can compile it through vm.Script with cached data
// (Node 20 has no code cache for ES modules). ESM-only dependencies are
// converted; the modules behind import() stay uninitialised until called.
await build({
  ...common,
  entryPoints: ['src/jp.ts'],
  outfile: 'dist/jp.cjs',
  format: 'cjs',
  // import.meta.url in ES modules bundled to CommonJS (oclif plugins, our own paths).
  define: {'import.meta.url': 'importMetaUrl'},
  banner: {js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;"},
  // Optional native or build-time packages some dependencies probe for.
  external: ['@lydell/node-pty', 'esbuild', 'typescript', 'tsx', 'ts-node'],
  preserveSymlinks: true,
})

await build({
  ...common,
  entryPoints: ['src/lib/index.ts'],
  outfile: 'dist/lib/index.js',
  format: 'esm',
  // A library: its dependencies come from the consumer's node_modules.
  packages: 'external',
})

execFileSync(node, [join(root, 'scripts/manifest.js')], {cwd: root, stdio: 'inherit'})
execFileSync(node, [join(root, 'scripts/code-cache.js')], {cwd: root, stdio: 'inherit'})
