// A plugin author's TypeScript path with default settings (issue 33): a
// plugin that depends on jp's package for types only type-checks against the
// published declarations (dist/lib/*.d.ts, from the build `npm test` ran)
// under `--strict` with `skipLibCheck: false`, with NodeNext and with bundler
// resolution. The plugin lives outside jp's tree, as an installed plugin
// would: its node_modules links jp's package and @oclif/core.
import {expect} from 'chai'
import {copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import ts from 'typescript'
import {after, before, describe, it} from 'mocha'

import {ROOT} from '../helpers/cli.js'
import {typeErrorsUnder} from '../helpers/type-check.js'

const FIXTURE = join(ROOT, 'test', 'fixtures', 'typed-plugin', 'backends.mts')

describe("a plugin's types against jp's published declarations", function () {
  this.timeout(120_000)
  let dir: string
  let source: string

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-typed-plugin-'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'jp-plugin-mine', type: 'module', private: true}))
    const modules = join(dir, 'node_modules')
    mkdirSync(join(modules, '@oclif'), {recursive: true})
    mkdirSync(join(modules, '@types'), {recursive: true})
    symlinkSync(ROOT, join(modules, 'jp-llm-cli'))
    symlinkSync(join(ROOT, 'node_modules', '@oclif', 'core'), join(modules, '@oclif', 'core'))
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'))
    source = join(dir, 'backends.mts')
    copyFileSync(FIXTURE, source)
  })
  after(() => rmSync(dir, {recursive: true, force: true}))

  const base: ts.CompilerOptions = {strict: true, skipLibCheck: false, noEmit: true, target: ts.ScriptTarget.ES2022, types: ['node']}
  const NODE_NEXT = {module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext}
  /** A plugin source that misuses the hook's options: compiled beside the fixture in the NodeNext program (one program less to check). */
  const WRONG =
    "import type {Hook} from '@oclif/core'\nimport type {} from 'jp-llm-cli'\nconst hook: Hook<'jp:editor-backends'> = async function ({registry, jp}) { registry.register(1, jp.version) }\nexport default hook\n"
  let nodeNextErrors: string[] | undefined
  /** The NodeNext program's messages, fixture and wrong.mts (each file's messages are its own: both are modules). */
  const nodeNext = () => {
    if (nodeNextErrors) return nodeNextErrors
    const wrong = join(dir, 'wrong.mts')
    writeFileSync(wrong, WRONG)
    return (nodeNextErrors = typeErrorsUnder([source, wrong], {...base, ...NODE_NEXT}, dir))
  }
  const notWrong = (errors: string[]) => errors.filter((e) => !e.startsWith('wrong.mts:'))

  it('compiles with NodeNext resolution, --strict and skipLibCheck: false', () => {
    expect(notWrong(nodeNext())).to.deep.equal([])
  })

  it('compiles with bundler resolution, --strict and skipLibCheck: false', () => {
    expect(typeErrorsUnder([source], {...base, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler}, dir)).to.deep.equal([])
  })

  it('can fail: a wrong use of the hook options is reported', () => {
    expect(nodeNext().join('\n')).to.match(/wrong\.mts:3:.*not assignable/)
  })
})
