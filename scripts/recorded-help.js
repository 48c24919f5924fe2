// Writes dist/recorded-help.json: the help oclif prints for the root (`jp`,
// `jp --help`, `jp -h`), for every command and alias (`jp query --help`,
// `jp c e -h`, `jp plugins install --help`) and for the topics (`jp
// conversation`, `jp c --help`), for the answer bin/run.js gives before
// loading the CLI (src/lib/cli/first.ts). Each text is oclif's own output:
// the built CLI renders every one of them in a clean environment (no user
// plugins, no theme), once per setting oclif reads when it loads (the width,
// OCLIF_COLUMNS; the colour level, FORCE_COLOR): a child per setting loads
// the bundle once and runs oclif's `run` for each argument list in turn,
// capturing what it writes. A text is kept:
//   - for the default width (80) only, or for any width from 80 up when the
//     text at 1000 columns is the same bytes (nothing wraps);
//   - with its colour variant when that is the same at every colour level
//     (bold headings only, no palette);
//   - for the argument lists that print those very bytes; one that writes to
//     stderr or fails is left to oclif.
// The version line (root help only) is left open: the Node version and
// platform are the running ones. Nothing is written when the root help has no
// version line, or more than one: oclif then answers everything.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist/recorded-help.json')
rmSync(out, {force: true})
const {VERSION_MARK, versionLine} = await import(pathToFileURL(join(root, 'dist/first.cjs')).href)
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const helpFlags = ['--help', ...(pkg.oclif.additionalHelpFlags ?? [])]
const separator = pkg.oclif.topicSeparator ?? ':'

/** Every argument list recorded: the root's, each command's and alias's with each help flag, each topic's. */
function argvs() {
  const manifests = [join(root, 'oclif.manifest.json'), ...(pkg.oclif.plugins ?? []).map((p) => join(root, 'node_modules', p, 'oclif.manifest.json'))]
  const ids = new Set()
  for (const file of manifests) {
    for (const [id, command] of Object.entries(JSON.parse(readFileSync(file, 'utf8')).commands)) for (const name of [id, ...(command.aliases ?? [])]) ids.add(name)
  }
  const words = (id) => (separator === ' ' ? id.split(':') : [id])
  const topics = new Set(Object.keys(pkg.oclif.topics ?? {}))
  // Topic aliases (`c` for `conversation`): the first word of the commands' aliases.
  for (const id of ids) if (id.includes(':')) topics.add(id.split(':')[0])
  const lists = [[], ...helpFlags.map((f) => [f])]
  for (const id of ids) for (const flag of helpFlags) lists.push([...words(id), flag])
  for (const topic of topics) if (!ids.has(topic)) lists.push([topic], ...helpFlags.map((f) => [topic, f]))
  return lists
}

/** The child: loads the bundle once, runs oclif for each argument list, prints {key: {stdout, stderr, ok}} as JSON on fd 3. */
const CHILD = `
import {writeSync} from 'node:fs'
import {loadBundle} from ${JSON.stringify(pathToFileURL(join(root, 'bin/load.js')).href)}
const lists = JSON.parse(process.argv[1])
const exports = loadBundle(${JSON.stringify(join(root, 'dist/jp.cjs'))}).exports
const write = {stdout: process.stdout.write, stderr: process.stderr.write}
const results = {}
for (const args of lists) {
  const got = {stdout: '', stderr: '', ok: true}
  process.stdout.write = (chunk) => ((got.stdout += chunk), true)
  process.stderr.write = (chunk) => ((got.stderr += chunk), true)
  const exit = process.exit
  process.exit = (code) => { got.ok = false; throw new Error('exit ' + code) }
  try {
    await exports.execute({args, dir: ${JSON.stringify(root)}})
    if (process.exitCode) got.ok = false
  } catch {
    got.ok = false
  } finally {
    process.exit = exit
    Object.assign(process.stdout, {write: write.stdout})
    Object.assign(process.stderr, {write: write.stderr})
  }
  results[JSON.stringify(args)] = got
}
writeSync(3, JSON.stringify(results))
`

const home = mkdtempSync(join(tmpdir(), 'jp-recorded-help-'))
try {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(JP_|XDG_|OCLIF_|DEBUG$|NODE_OPTIONS$|FORCE_COLOR$|NO_COLOR$)/.test(k)) env[k] = v
  Object.assign(env, {HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache')})
  const lists = argvs()
  /** What each argument list prints at this width and colour level (FORCE_COLOR decides oclif's colour whatever the build's environment: CI, COLORTERM). */
  const render = async (columns, color) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, JSON.stringify(lists)], {
      cwd: home,
      env: {...env, OCLIF_COLUMNS: String(columns), FORCE_COLOR: color},
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    })
    const read = (stream) => new Promise((resolve) => {
      let text = ''
      stream.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text))
    })
    const [stderr, output, status] = await Promise.all([read(child.stdio[2]), read(child.stdio[3]), new Promise((resolve) => child.on('close', resolve))])
    if (status !== 0) throw new Error(`recording the help (${columns} columns, FORCE_COLOR=${color}): exit ${status}: ${stderr}`)
    const results = JSON.parse(output)
    return (args) => {
      const got = results[JSON.stringify(args)]
      return got.ok && got.stderr === '' && got.stdout !== '' ? got.stdout : undefined
    }
  }
  // The children in parallel: each is one bundle load and a few ms per help.
  const [plain, plainWide, colored, coloredWide, coloredMost] = await Promise.all([
    render(80, '0'),
    render(1000, '0'),
    render(80, '1'),
    render(1000, '1'),
    render(80, '3'),
  ])
  const line = versionLine(pkg.version)
  const rootText = plain(['--help'])
  if (rootText === undefined || rootText.split(line).length !== 2) {
    console.log('dist/recorded-help.json: not written (the root help has no version line, or more than one); oclif answers --help')
  } else {
    /** Recorded texts by their plain bytes: argument lists that print the same share one entry. */
    const helps = new Map()
    for (const args of lists) {
      const text = plain(args)
      if (text === undefined || text.split(line).length > 2) continue
      const anyWidth = plainWide(args) === text
      const tinted = colored(args)
      const sameColour = tinted !== undefined && coloredMost(args) === tinted && (!anyWidth || coloredWide(args) === tinted)
      const key = JSON.stringify([text, anyWidth, sameColour ? tinted : undefined])
      const entry = helps.get(key)
      if (entry) {
        entry.argvs.push(args)
        continue
      }
      const mark = (t) => t.replace(line, VERSION_MARK)
      const recorded = {text: mark(text), minWidth: 80, argvs: [args]}
      if (!anyWidth) recorded.maxWidth = 80
      if (sameColour) recorded.colored = mark(tinted)
      helps.set(key, recorded)
    }
    writeFileSync(out, JSON.stringify({helps: [...helps.values()]}) + '\n')
    const count = [...helps.values()].reduce((n, h) => n + h.argvs.length, 0)
    console.log(`dist/recorded-help.json: written (${helps.size} texts for ${count} argument lists of ${lists.length})`)
  }
} finally {
  rmSync(home, {recursive: true, force: true})
}
