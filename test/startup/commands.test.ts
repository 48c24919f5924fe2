// oclif finds jp's commands through the explicit list in src/commands/index.ts
// (the bundle has no directory to glob): a command file that is not listed
// would silently not exist.
import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {pathToFileURL} from 'node:url'
import {ROOT} from '../helpers/cli.js'

const COMMANDS_DIR = join(ROOT, 'src', 'commands')

/** `src/commands/conversation/edit.ts` → `conversation:edit`. */
function commandFiles(): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(COMMANDS_DIR, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue
    const file = join(entry.parentPath, entry.name)
    const id = relative(COMMANDS_DIR, file).replace(/\.ts$/, '').split(sep).join(':')
    if (id !== 'index') files.set(id, file)
  }
  return files
}

describe('command registry', () => {
  it('lists every command file under src/commands by its id, with that file’s class', async () => {
    const files = commandFiles()
    const {COMMANDS} = (await import(pathToFileURL(join(COMMANDS_DIR, 'index.ts')).href)) as {COMMANDS: Record<string, unknown>}
    expect([...files.keys()]).to.include.members(['query', 'conversation:edit'])
    expect(Object.keys(COMMANDS).sort()).to.deep.equal([...files.keys()].sort())
    for (const [id, file] of files) {
      const mod = (await import(pathToFileURL(file).href)) as {default: unknown}
      expect(COMMANDS[id], id).to.equal(mod.default)
    }
  })

  it('the built manifest carries the same commands', async () => {
    const {COMMANDS} = (await import(pathToFileURL(join(COMMANDS_DIR, 'index.ts')).href)) as {COMMANDS: Record<string, unknown>}
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
    expect(Object.keys(manifest.commands).sort()).to.deep.equal(Object.keys(COMMANDS).sort())
  })
})
