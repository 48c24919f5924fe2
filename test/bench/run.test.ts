// `npm run bench` runs every bench under bench/ (issue 40): bench/run.ts finds
// them itself, so a new bench cannot be left out of the table. Cheap: asks
// run.ts for its list (--list runs nothing) and reads the directory.
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench')
/** A bench prints its rows as one BENCH_ROWS line, through bench/lib/report.ts. */
const PRINTS_ROWS = /\brunIfMain\(import\.meta\.url\b|\bemitRows\(/

describe('npm run bench', () => {
  const listed = execFileSync(process.execPath, ['--import', 'tsx', join(BENCH, 'run.ts'), '--list'], {encoding: 'utf8'})
    .split('\n')
    .filter(Boolean)
  const files = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && f !== 'run.ts')

  const printsRows = (f: string) => PRINTS_ROWS.test(readFileSync(join(BENCH, f), 'utf8'))

  it('runs every bench file under bench/ that prints rows', () => {
    expect(files.filter((f) => printsRows(f) && !listed.includes(f))).to.deep.equal([])
  })

  it('runs no file that prints no BENCH_ROWS line (a bench whose figures would be lost; helpers go on the exclusion list)', () => {
    expect(listed).to.not.be.empty
    expect(listed.filter((f) => !printsRows(f))).to.deep.equal([])
  })
})
