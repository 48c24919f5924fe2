// No dead exports (issue 41): every name a module of src/ exports is used
// beyond its declaration — in its own file, another module, a test, a bench,
// a script, bin/ (what bin/run.js asks before the CLI loads), or re-exported as the package's API (lib/index.ts,
// lib/testing.ts). A word search, not a type checker: a name mentioned only
// in a comment passes, so this catches the export nobody ever mentions again.
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {filesUnder} from '../helpers/source-files.js'

const DECLARED = /^export (?:declare )?(?:async )?(?:function\*?|const|let|class|abstract class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm

describe('exports', () => {
  it('every export of src/ is used somewhere beyond its declaration', () => {
    const files = ['src', 'test', 'bench', 'scripts', 'bin'].flatMap((d) => filesUnder(join(ROOT, d), /\.(ts|js)$/))
    const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))
    const dead: string[] = []
    for (const file of filesUnder(join(ROOT, 'src'))) {
      // The vendored inquirer core keeps its upstream exports.
      if (file.includes(`${sep}vendor${sep}`) || file.endsWith('.d.ts')) continue
      const own = texts.get(file)!
      for (const [, name] of own.matchAll(DECLARED)) {
        const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g')
        const usedHere = (own.match(word) ?? []).length > 1
        if (!usedHere && ![...texts].some(([other, text]) => other !== file && text.search(word) >= 0)) dead.push(`${relative(ROOT, file).split(sep).join('/')}: ${name}`)
      }
    }
    expect(dead.join('\n'), 'remove the export (or the code), or use it').to.equal('')
  })
})
