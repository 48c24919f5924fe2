// Writes dist/root-help.json: the root help exactly as oclif prints it, for
// the answer bin/run.js gives before loading the CLI (src/lib/cli/first.ts).
// It is rendered by the built CLI itself in a clean environment (no user
// plugins, no theme), at oclif's default width and at a very wide one: kept
// only when both are the same bytes (no line wraps), so that at any width
// from the default up the recording is what oclif would print. The version
// line is left open (the Node version and platform are the running ones).
// Nothing is written when that does not hold: the help is then oclif's own.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist/root-help.json')
rmSync(out, {force: true})
const {VERSION_MARK, versionLine} = await import(pathToFileURL(join(root, 'dist/first.js')).href)
const pkg = (await import(pathToFileURL(join(root, 'package.json')).href, {with: {type: 'json'}})).default

const home = mkdtempSync(join(tmpdir(), 'jp-root-help-'))
try {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(JP_|XDG_|OCLIF_|DEBUG$|NODE_OPTIONS$|FORCE_COLOR$|NO_COLOR$)/.test(k)) env[k] = v
  Object.assign(env, {HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache')})
  // FORCE_COLOR decides oclif's colour (ansis) whatever the environment the build runs in (CI, COLORTERM).
  const render = (args, columns, color = '0') => {
    const r = spawnSync(process.execPath, [join(root, 'bin/run.js'), ...args], {cwd: home, env: {...env, OCLIF_COLUMNS: String(columns), FORCE_COLOR: color}, encoding: 'utf8'})
    if (r.status !== 0 || r.stderr !== '') throw new Error(`jp ${args.join(' ')} (root help): exit ${r.status}: ${r.stderr}`)
    return r.stdout
  }
  const flags = ['--help', ...(pkg.oclif.additionalHelpFlags ?? [])]
  const text = render(['--help'], 80)
  const line = versionLine(pkg.version)
  const wide = render(['--help'], 1000)
  if (wide !== text || text.split(line).length !== 2) {
    console.log('dist/root-help.json: not written (the root help wraps at 80 columns, or its version line is not there once); oclif answers --help')
  } else {
    const argvs = [[], ...flags.map((f) => [f])].filter((a) => render(a, 80) === text)
    // Colour: kept when it is the same at every colour level (bold headings only, no palette).
    const colored = render(['--help'], 80, '1')
    const same = colored === render(['--help'], 1000, '3') && colored.split(line).length === 2
    const recorded = {text: text.replace(line, VERSION_MARK), minWidth: 80, argvs}
    if (same) recorded.colored = colored.replace(line, VERSION_MARK)
    writeFileSync(out, JSON.stringify(recorded) + '\n')
    console.log(`dist/root-help.json: written (${argvs.map((a) => `jp ${a.join(' ')}`.trim()).join(', ')}; ${same ? 'with' : 'without'} colour)`)
  }
} finally {
  rmSync(home, {recursive: true, force: true})
}
