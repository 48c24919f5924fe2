// docs/configuration.md is generated from CONFIG_SCHEMA: these tests fail
// when the committed file is stale, when a schema key has no description, or
// when an example in it is not valid configuration.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {parse} from 'smol-toml'

import {
  CONFIG_DOCS_PATH,
  docCoverage,
  exampleToml,
  KEY_DOCS,
  renderConfigDocs,
  schemaRows,
} from '../../scripts/gen-config-docs.js'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {CONFIG_SCHEMA, parseConfigToml} from '../../src/lib/config/load.js'

describe('docs/configuration.md (generated)', () => {
  it('is up to date with the schema (run `npm run docs:config` when this fails)', () => {
    const committed = readFileSync(CONFIG_DOCS_PATH, 'utf8')
    expect(committed === renderConfigDocs(), 'docs/configuration.md is stale: run `npm run docs:config` and commit it').to.equal(true)
  })

  it('has a description for every schema key and none for keys the schema lacks', () => {
    const {missing, stale} = docCoverage()
    expect(missing, 'add these keys to KEY_DOCS in src/lib/config/key-docs.ts').to.deep.equal([])
    expect(stale, 'remove these keys from KEY_DOCS in src/lib/config/key-docs.ts').to.deep.equal([])
  })

  it('reports a key added to the schema without a description', () => {
    if (CONFIG_SCHEMA.kind !== 'table') throw new Error('CONFIG_SCHEMA is not a table')
    const grown = {...CONFIG_SCHEMA, fields: {...CONFIG_SCHEMA.fields, telemetry: {kind: 'table', fields: {level: {kind: 'string'}}}}} as typeof CONFIG_SCHEMA
    expect(docCoverage(grown).missing).to.deep.equal(['telemetry', 'telemetry.level'])
  })

  it('documents every key under its own heading with its type', () => {
    const doc = renderConfigDocs()
    const rows = schemaRows()
    expect(rows.length).to.be.greaterThan(40)
    for (const row of rows) {
      expect(doc, row.path).to.include(`#### \`${row.path}\`\n\n- Type: ${row.type}\n`)
    }
  })

  it('gives an example for every key that loads as valid configuration', async () => {
    for (const row of schemaRows()) {
      const text = exampleToml(row, KEY_DOCS[row.path])
      await parseConfigToml(text, `example of ${row.path}`)
    }
  })

  it('shows the built-in defaults exactly', () => {
    const doc = renderConfigDocs()
    const block = /## Defaults\n[\s\S]*?```toml\n([\s\S]*?)```/.exec(doc)
    expect(block, 'the Defaults TOML block').to.not.equal(null)
    expect(parse(block![1])).to.deep.equal(defaultConfig({}))
  })

  it('shows each leaf default next to its key', () => {
    const doc = renderConfigDocs()
    expect(doc).to.include('#### `editor.inline.edit_mode`\n\n- Type: "emacs" \\| "vi"\n- Default: `"emacs"`')
    expect(doc).to.include('#### `interrupt.escalation_cooldown_secs`\n\n- Type: number >= 0\n- Default: `2`')
    expect(doc).to.include("#### `conversation.tools.<tool>.run`\n\n- Type: \"ask\" \\| \"unattended\" \\| \"edit\" \\| \"skip\"\n- Default: `\"ask\"` (from `conversation.tools.'*'`)")
  })
})
