// The shipped bundle and its V8 code cache (bin/load.js): the cache made by
// the build is accepted, a cache that does not belong to the bundle text is
// never used, and import() still works in code restored from the cache (on
// Node 20 it would throw ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
import {expect} from 'chai'
import {createHash} from 'node:crypto'
import {execFileSync} from 'node:child_process'
import {copyFileSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {makeSandbox, ROOT, runJp} from '../helpers/cli.js'

const LOAD = pathToFileURL(join(ROOT, 'bin/load.js')).href
/** What package.json's oclif section names in the bundle: the commands, the help class, the hooks; bin/run.js's execute; the code cache run's warmCodeCache. */
const BUNDLE_EXPORTS = ['COMMANDS', 'JpHelp', 'commandNotFoundHook', 'execute', 'initHook', 'localPluginHook', 'warmCodeCache']

/** Loads `file` through bin/load.js in a fresh node; returns what loadBundle reported. */
function load(file: string): {cacheRejected: boolean | null; exports: string[]} {
  const script = `
    import {loadBundle} from ${JSON.stringify(LOAD)}
    const r = loadBundle(${JSON.stringify(file)})
    console.log(JSON.stringify({cacheRejected: r.cacheRejected ?? null, exports: Object.keys(r.exports).sort()}))`
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'}))
}

describe('bundle: dist/jp.cjs and its code cache', function () {
  this.timeout(60_000)

  it('the cache the build wrote is accepted for the shipped bundle', () => {
    expect(load(join(ROOT, 'dist/jp.cjs'))).to.deep.equal({cacheRejected: false, exports: BUNDLE_EXPORTS})
  })

  /** The shipped bundle with one character of a string changed (same length, which is all V8 itself would check), ending with `idLine`. */
  function otherBundle(idLine: (body: string) => string): string {
    const text = readFileSync(join(ROOT, 'dist/jp.cjs'), 'utf8')
    const body = text.slice(0, text.lastIndexOf('//# jp-build-id '))
    const at = body.indexOf('Could not find')
    expect(at).to.be.greaterThan(0)
    const changed = body.slice(0, at) + 'W' + body.slice(at + 1)
    return changed + idLine(changed)
  }

  for (const [what, idLine] of [
    // Another build: its own id, at the same length.
    ['a cache made for another build is not used, even at the same length', (body: string) => `//# jp-build-id ${createHash('sha1').update(body).digest('hex')}\n`],
    ['a bundle without a build id is compiled without the cache', () => '//# no id\n'],
  ] as const) {
    it(what, () => {
      const sb = makeSandbox()
      try {
        const file = join(sb.dir, 'jp.cjs')
        writeFileSync(file, otherBundle(idLine))
        copyFileSync(join(ROOT, 'dist/jp.cjs.cache'), `${file}.cache`)
        expect(load(file)).to.deep.equal({cacheRejected: null, exports: BUNDLE_EXPORTS})
      } finally {
        sb.cleanup()
      }
    })
  }

  it('the build id is the SHA-1 of the text before it (the cache check without hashing at start-up)', () => {
    const text = readFileSync(join(ROOT, 'dist/jp.cjs'), 'utf8')
    const at = text.lastIndexOf('//# jp-build-id ')
    expect(text.slice(at)).to.equal(`//# jp-build-id ${createHash('sha1').update(text.slice(0, at - 1)).digest('hex')}\n`)
  })

  it('loads an ES-module plugin hook through import() from the cached bundle', async () => {
    const sb = makeSandbox({OCLIF_DISABLE_LINKED_ESM_WARNING: '1'})
    try {
      const plugin = join(sb.dir, 'jp-plugin-hello')
      mkdirSync(plugin)
      writeFileSync(join(plugin, 'package.json'), JSON.stringify({name: 'jp-plugin-hello', version: '1.0.0', type: 'module', oclif: {hooks: {init: './hook.js'}}}))
      writeFileSync(join(plugin, 'hook.js'), "export default async function () { process.stderr.write('hello from an ESM hook\\n') }\n")
      const linked = await runJp(['plugins', 'link', plugin, '--no-install'], {sandbox: sb})
      expect(linked.code, linked.stderr).to.equal(0)
      const r = await runJp(['conversation', 'ls'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stderr).to.include('hello from an ESM hook')
      expect(r.stderr).to.not.include('ERR_VM_DYNAMIC_IMPORT')
    } finally {
      sb.cleanup()
    }
  })
})

// oclif sorts every plugin's commands by id with localeCompare at each
// start-up; the first localeCompare in a process builds ICU's collator (8-15
// ms). The build compares ids of [a-z:] by code unit instead
// (scripts/build.js, commandSortWithoutCollator): the same order, checked here.
describe('bundle: oclif\'s command sort without ICU\'s collator', function () {
  this.timeout(60_000)

  it('for ids of lowercase letters and `:`, the code-unit order is localeCompare\'s (every pair of words of up to 2 characters, every 3-character word against those, id-like words)', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz:'.split('')
    const upTo = (n: number): string[] => (n === 0 ? [''] : upTo(n - 1).flatMap((w) => (w.length === n - 1 ? [w, ...alphabet.map((c) => w + c)] : [w])))
    const short = [...upTo(2), 'config', 'config:get', 'conversation:edit', 'c:e', 'c:edit', 'plugins', 'plugins:install', 'plugins:add', 'q', 'query']
    const three = upTo(3).filter((w) => w.length === 3)
    const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)
    const wrong: string[] = []
    let compared = 0
    for (const a of [...short, ...three]) {
      for (const b of short) {
        if ((a < b ? -1 : a > b ? 1 : 0) !== sign(a.localeCompare(b))) wrong.push(`${a} vs ${b}`)
        compared++
      }
    }
    expect(wrong).to.deep.equal([])
    expect(compared).to.be.greaterThan(10_000_000)
  })

  it('a start-up through oclif (jp query --help at 120 columns, jp conversation ls) calls no localeCompare, and lists the commands in oclif\'s order', async () => {
    const sb = makeSandbox()
    try {
      const probe = join(sb.dir, 'probe.cjs')
      writeFileSync(
        probe,
        "const compare = String.prototype.localeCompare; let calls = 0\nString.prototype.localeCompare = function (...a) { calls++; return compare.apply(this, a) }\nprocess.on('exit', () => require('fs').writeSync(2, 'LOCALE_COMPARE ' + calls + '\\n'))\n",
      )
      for (const args of [['query', '--help'], ['conversation', 'ls']]) {
        const r = await runJp(args, {sandbox: sb, env: {OCLIF_COLUMNS: '120', NODE_OPTIONS: `--require ${probe}`}})
        expect(r.code, r.stderr).to.equal(0)
        expect(r.stderr, `jp ${args.join(' ')}`).to.match(/^LOCALE_COMPARE 0$/m)
      }
      // And the topic help still lists its commands in localeCompare's order.
      const help = await runJp(['conversation', '--help'], {sandbox: sb, env: {OCLIF_COLUMNS: '120'}})
      const listed = [...help.stdout.matchAll(/^ {2}(conversation \w+)/gm)].map((m) => m[1])
      expect(listed).to.have.length.greaterThan(4)
      expect(listed).to.deep.equal([...listed].sort((a, b) => a.localeCompare(b)))
    } finally {
      sb.cleanup()
    }
  })
})
