// Generates oclif.manifest.json from the built commands, so the CLI never has
// to import every command module just to list them (start-up cost).
import {Plugin} from '@oclif/core'
import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const plugin = new Plugin({root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true})
await plugin.load()
const manifest = plugin.manifest
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
console.log(`oclif.manifest.json: ${Object.keys(manifest.commands).length} commands`)
