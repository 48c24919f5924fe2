// `npm pack` / `npm publish` ship package.json without the `prepare` script:
// the clone's `npm install` builds through it, but in the packed package it
// would be an install-time script (npm 11: "install scripts not yet covered
// by allowScripts: jp-llm-cli (prepare)"), and the tarball already holds
// dist/. `prepack` builds and strips it, `postpack` puts package.json back.
//
//   node scripts/pack-manifest.js strip [DIR]     DIR/package.json → DIR/.package.json.orig, install scripts removed
//   node scripts/pack-manifest.js restore [DIR]   DIR/.package.json.orig → DIR/package.json
// (DIR defaults to the repository root; the test passes a copy.)
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..')
const file = join(root, 'package.json')
const saved = join(root, '.package.json.orig')

// The lifecycle scripts npm runs when a package is installed: none may ship.
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare']

const command = process.argv[2]
if (command === 'strip') {
  // A pack that failed before its postpack left the original aside: keep that one.
  if (!existsSync(saved)) writeFileSync(saved, readFileSync(file))
  const text = readFileSync(saved, 'utf8')
  const manifest = JSON.parse(text)
  for (const name of INSTALL_SCRIPTS) delete manifest.scripts?.[name]
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n')
} else if (command === 'restore') {
  if (existsSync(saved)) renameSync(saved, file)
} else {
  console.error('usage: node scripts/pack-manifest.js strip|restore [DIR]')
  process.exit(2)
}
