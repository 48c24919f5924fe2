// Writes dist/jp.cjs.cache: V8's cached data for the CLI bundle, taken after
// running the three help paths and one `jp query -n` against a local
// OpenAI-format server (so the functions of start-up and of the first token
// are in it: about a sixth off the time to first token), then the markdown
// renderer once (markdown-it and ours: loading and warming it on a terminal
// takes half the CPU it does compiled from source, for ~180 kB more cache;
// highlight.js stays out, it loads at a fence only), behind the bundle's
// build id (bin/load.js uses it only for the bundle ending with that id). The run
// happens in a child with a throw-away HOME; its output is shown only if it fails.
// Then dist/pick.cjs.cache, the resume picker's, the same way.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const file = join(root, 'dist/jp.cjs')

const CHILD = `
import {readFileSync, writeFileSync} from 'node:fs'
import {buildId, loadBundle} from ${JSON.stringify(pathToFileURL(join(root, 'bin/load.js')).href)}
const file = ${JSON.stringify(file)}
const {exports, script} = loadBundle(file, {useCache: false})
// The package's root: oclif's own search from bin/ would stop at bin/package.json.
const dir = ${JSON.stringify(root)}
for (const args of [['--help'], ['query', '--help'], ['conversation', 'edit', '--help']]) await exports.execute({dir, args})
// One query against a local OpenAI-format server, so the query path is compiled too.
const {createServer} = await import('node:http')
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, {'content-type': 'text/event-stream'})
    res.end('data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}\\n\\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n')
  })
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
process.env.JP_CFG_ASSISTANT_MODEL_ID = 'llamacpp/cache'
process.env.JP_CFG_PROVIDERS_LLM_LLAMACPP_BASE_URL = 'http://127.0.0.1:' + server.address().port + '/v1'
await exports.execute({dir, args: ['query', '-n', 'hi']})
await exports.warmCodeCache()
server.close()
writeFileSync(file + '.cache', Buffer.concat([buildId(readFileSync(file)), script.createCachedData()]))
`

// The resume picker's chunk (src/lib/cli/pick-first.ts): its steps run on a throw-away workspace.
const pickFile = join(root, 'dist/pick.cjs')
const PICK_CHILD = `
import {readFileSync, writeFileSync} from 'node:fs'
import {buildId, loadBundle} from ${JSON.stringify(pathToFileURL(join(root, 'bin/load.js')).href)}
const file = ${JSON.stringify(pickFile)}
const {exports, script} = loadBundle(file, {useCache: false})
await exports.warmCodeCache(process.cwd())
writeFileSync(file + '.cache', Buffer.concat([buildId(readFileSync(file)), script.createCachedData()]))
`

for (const [child, what] of [[CHILD, 'dist/jp.cjs.cache'], [PICK_CHILD, 'dist/pick.cjs.cache']]) makeCache(child, what)

/** Runs `child` in a throw-away HOME (and cwd), its output shown only if it fails. */
function makeCache(child, what) {
  const home = mkdtempSync(join(tmpdir(), 'jp-code-cache-'))
  try {
    const env = {PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), JP_DATA_DIR: join(home, 'o')}
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', child], {cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8'})
    } catch (error) {
      process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`)
      throw new Error(`making ${what} failed`)
    }
  } finally {
    rmSync(home, {recursive: true, force: true})
  }
  console.log(`${what}: written`)
}
