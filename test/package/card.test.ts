// The design card's packages (SPEC §16) are the user's requirement: each is a
// dependency pinned to the card's version and imported by the code that
// ships (src/), or for the test tools, by the tests. A package dropped or
// replaced by hand-written code (as `tmp` once was) fails here.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join, relative} from 'node:path'

import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

interface Card {
  version: string
  /** Where it is listed and used: the shipped code, or the tests. */
  by: 'src' | 'test'
}

const CARD: Record<string, Card> = {
  '@oclif/core': {version: '4.14.0', by: 'src'},
  '@inquirer/prompts': {version: '8.7.5', by: 'src'},
  execa: {version: '9.6.1', by: 'src'},
  tmp: {version: '0.2.7', by: 'src'},
  'smol-toml': {version: '1.9.1', by: 'src'},
  '@oclif/test': {version: '4.2.0', by: 'test'},
  mocha: {version: '12.0.3', by: 'test'},
  chai: {version: '6.3.0', by: 'test'},
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

/** The files under `dir` that import `name` (or a subpath of it), statically or with import(). */
function importers(dir: string, name: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const re = new RegExp(`(?:from\\s+|import\\s*\\(\\s*)'${escaped}(?:/[^']*)?'`)
  return filesUnder(join(ROOT, dir)).filter((file) => re.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file))
}

describe("the design card's packages, used for real", () => {
  for (const [name, {version, by}] of Object.entries(CARD)) {
    it(`${name}@${version}: ${by === 'src' ? 'a dependency src/ imports' : 'a dev dependency the tests import'}`, () => {
      const listed = by === 'src' ? pkg.dependencies : pkg.devDependencies
      expect(listed[name], `${name} in package.json ${by === 'src' ? 'dependencies' : 'devDependencies'}`).to.equal(version)
      expect(importers(by, name), `files under ${by}/ importing ${name}`).to.not.be.empty
    })
  }
})
