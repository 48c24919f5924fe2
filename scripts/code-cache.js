// Writes dist/jp.cjs.cache: V8's cached data for the CLI bundle, taken after
// running the help paths (so the functions start-up runs are in it), behind
// the SHA-1 of the bundle text (bin/load.js uses it only for that exact text).
// The run happens in a child with a throw-away HOME and its output discarded.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const file = join(root, 'dist/jp.cjs')

const CHILD = `
import {readFileSync, writeFileSync} from 'node:fs'
import {bundleDigest, loadBundle} from ${JSON.stringify(pathToFileURL(join(root, 'bin/load.js')).href)}
const file = ${JSON.stringify(file)}
const {exports, script} = loadBundle(file, {useCache: false})
const dir = ${JSON.stringify(pathToFileURL(join(root, 'bin/run.js')).href)}
for (const args of [['--help'], ['query', '--help'], ['conversation', 'edit', '--help']]) await exports.execute({dir, args})
writeFileSync(file + '.cache', Buffer.concat([bundleDigest(readFileSync(file)), script.createCachedData()]))
`

const home = mkdtempSync(join(tmpdir(), 'jp-code-cache-'))
try {
  const env = {PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), JP_DATA_DIR: join(home, 'o')}
  execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], {cwd: home, env, stdio: ['ignore', 'ignore', 'inherit']})
} finally {
  rmSync(home, {recursive: true, force: true})
}
console.log('dist/jp.cjs.cache: written')
