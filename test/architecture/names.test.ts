// No two files of src/ share a base name across rooms unless they play the
// same role (test/helpers/duplicate-names.ts holds the roles, and
// docs/architecture.md "Names" explains each).
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ARCHITECTURE_PATH} from '../../scripts/gen-architecture.js'
import {ROOT} from '../helpers/cli.js'
import {duplicateNames, FRONTED, ROLE_NAMES} from '../helpers/duplicate-names.js'

describe('names of src/ files', () => {
  it('no two files share a base name outside the documented roles', () => {
    const found = [...duplicateNames(join(ROOT, 'src'))].map(([name, paths]) => `${name}.ts: ${paths.join(', ')} — rename after what each does, or add a role to test/helpers/duplicate-names.ts and docs/architecture.md "Names"`)
    expect(found).to.deep.equal([])
  })

  it('docs/architecture.md names every role and every command that shares its module\'s name', () => {
    const doc = readFileSync(ARCHITECTURE_PATH, 'utf8')
    const names = doc.slice(doc.indexOf('## Names'))
    expect(doc).to.include('## Names')
    const missing = [...Object.keys(ROLE_NAMES), ...Object.keys(FRONTED)].filter((n) => !names.includes(`\`${n}.ts\``))
    expect(missing, 'add them to the "Names" section of docs/architecture.md').to.deep.equal([])
  })
})
