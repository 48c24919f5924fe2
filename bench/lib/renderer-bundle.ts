// The markdown renderer in a directory (src/lib/markdown, or a copy of it
// from before a change) bundled with a bench's child script, as jp's build
// bundles it (esbuild, the highlight.js patch), into one ES module file.
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {build, type Plugin} from 'esbuild'

export async function bundleRenderer(root: string, dir: string, child: string, file: string, patched = true): Promise<string> {
  const {highlightWithoutPerCallCost} = (await import(pathToFileURL(join(root, 'scripts/highlight-patch.js')).href)) as {highlightWithoutPerCallCost(): Plugin}
  await build({
    stdin: {contents: child, resolveDir: dir, loader: 'ts'},
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile: file,
    logLevel: 'warning',
    // A copy of the renderer outside the repository still finds its packages here.
    nodePaths: [join(root, 'node_modules')],
    plugins: patched ? [highlightWithoutPerCallCost()] : [],
  })
  return file
}

/**
 * The start of a bench child's script (bundled in the renderer's directory):
 * its imports, and the compiler set as jp sets it where it renders on a
 * terminal (a copy of the renderer from before may have no tuneCompiler).
 */
export const CHILD_HEADER = `import {readFileSync} from 'node:fs'
import {createHash} from 'node:crypto'
import * as markdown from './index.ts'
const {createRenderer} = markdown
Reflect.get(markdown, 'tuneCompiler')?.()`

/** Characters a chunked run feeds the renderer at a time (a streamed answer's pieces). */
export const CHUNK = 200

/**
 * After CHILD_HEADER: reads the child's arguments (the answer's file, `chunked`
 * or `one-shot`) into `answer` and `pieces`, the text as the renderer is fed it.
 */
export const CHILD_PIECES = `const [file, how] = process.argv.slice(2)
const answer = readFileSync(file, 'utf8')
const pieces = []
if (how === 'chunked') for (let i = 0; i < answer.length; i += ${CHUNK}) pieces.push(answer.slice(i, i + ${CHUNK}))
else pieces.push(answer)`
