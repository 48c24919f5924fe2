// What `npm install jp-llm-cli` gets: the packed file list (npm pack --dry-run)
// must carry the LICENSE, the docs every shipped link points at, and the
// package's entry points, and nothing dev-only (bin/dev.js needed the dev
// dependency tsx; test doubles ship only behind the documented
// `jp-llm-cli/testing` entry).
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {dirname, join, normalize} from 'node:path'
import {pathToFileURL} from 'node:url'
import {before, describe, it} from 'mocha'

import {assertBuilt, ROOT} from '../helpers/cli.js'

interface PackedFile {
  path: string
}

describe('the published package', function () {
  this.timeout(180_000)
  let files: Set<string>
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    license: string
    bin: Record<string, string>
    exports: Record<string, string | Record<string, string>>
  }

  before(() => {
    assertBuilt()
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})
    files = new Set((JSON.parse(out) as Array<{files: PackedFile[]}>)[0].files.map((f) => f.path))
  })

  it('ships an MIT LICENSE matching package.json', () => {
    expect(pkg.license).to.equal('MIT')
    expect(files.has('LICENSE')).to.equal(true)
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).to.match(/^MIT License\n/)
    // Code vendored from @inquirer/core is bundled: its licence and the list of changes ship too.
    expect(files.has('dist/vendor/inquirer-core/LICENSE') && files.has('dist/vendor/inquirer-core/PATCHES.md')).to.equal(true)
  })

  it('ships every file a shipped Markdown link points at (README, docs/, the example plugin)', () => {
    const dead: string[] = []
    const markdown = [...files].filter((f) => f.endsWith('.md'))
    expect(markdown).to.include.members(['README.md', 'docs/plugins.md', 'docs/configuration.md'])
    for (const file of markdown) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue
        const path = normalize(join(dirname(file), target.split('#')[0])).replace(/\/$/, '')
        const shipped = files.has(path) || [...files].some((f) => f.startsWith(path + '/'))
        if (!shipped) dead.push(`${file} → ${target}`)
      }
    }
    expect(dead, 'links to files the package does not contain').to.deep.equal([])
  })

  it('ships the bin and every "exports" target, and nothing dev-only', () => {
    for (const target of Object.values(pkg.bin)) expect(files.has(normalize(target)), target).to.equal(true)
    for (const entry of Object.values(pkg.exports)) {
      for (const target of typeof entry === 'string' ? [entry] : Object.values(entry)) {
        expect(files.has(normalize(target)), target).to.equal(true)
      }
    }
    const devOnly = [...files].filter((f) => f === 'bin/dev.js' || /^(src|test|bench|scripts)\//.test(f) || /\.test\.[jt]s$/.test(f) || f.startsWith('.'))
    expect(devOnly).to.deep.equal([])
  })

  it('keeps the test doubles out of the main entry; jp-llm-cli/testing provides them', async () => {
    const main = (await import(pathToFileURL(join(ROOT, 'dist', 'lib', 'index.js')).href)) as Record<string, unknown>
    expect(Object.keys(main).filter((k) => /mock/i.test(k))).to.deep.equal([])
    const testing = (await import(pathToFileURL(join(ROOT, 'dist', 'lib', 'testing.js')).href)) as Record<string, unknown>
    expect(Object.keys(testing).sort()).to.deep.equal(['MockEditorBackend', 'MockPromptBackend'])
    expect(pkg.exports['./testing']).to.be.an('object')
    expect(readFileSync(join(ROOT, 'docs', 'plugins.md'), 'utf8')).to.include("from 'jp-llm-cli/testing'")
  })
})
