// Generates oclif.manifest.json from the built commands, so the CLI never has
// to import every command module just to list them (start-up cost).
//
// The file is committed (SPEC §18) and shipped; `npm run build` rewrites it.
// test/startup/manifest.test.ts fails when the committed file is not what
// this generates (a flag or a command changed and the manifest was not
// rebuilt and committed with it): oclif serves help and the command list from
// the manifest whenever its version matches, in development too.
//
//   node scripts/manifest.js          write oclif.manifest.json
//   node scripts/manifest.js --print  print what would be written
import {Plugin} from '@oclif/core'
import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The manifest text for the package at `root` (commands loaded from its build). */
export async function manifestText(dir = root) {
  const plugin = new Plugin({root: dir, type: 'core', ignoreManifest: true, errorOnManifestCreate: true})
  await plugin.load()
  return JSON.stringify(plugin.manifest, null, 2) + '\n'
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await manifestText()
  if (process.argv.includes('--print')) {
    process.stdout.write(text)
  } else {
    writeFileSync(join(root, 'oclif.manifest.json'), text)
    console.log(`oclif.manifest.json: ${Object.keys(JSON.parse(text).commands).length} commands`)
  }
}
