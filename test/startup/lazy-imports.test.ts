// `jp --help` must not pay for the prompts, the editor service, the providers
// or TOML (SPEC §2, §15): they are imported only on the path that needs them.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, makeSandbox, ROOT} from '../helpers/cli.js'

const HEAVY = [/\/execa\//, /\/tmp\/lib\//, /\/smol-toml\//, /\/@inquirer\//, /\/eventsource-parser\//, /\/node-pty\//, /\/dist\/lib\/llm\//, /\/dist\/lib\/inquire\//]

function importsOf(args: string[]): string[] {
  const sb = makeSandbox()
  try {
    const record = join(sb.dir, 'imports.txt')
    const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test/fixtures/startup/record-imports.mjs'), BIN, ...args], {
      cwd: sb.cwd,
      env: {...sb.env, RECORD_IMPORTS: record},
      encoding: 'utf8',
    })
    expect(r.status, r.stderr).to.equal(0)
    return readFileSync(record, 'utf8').trim().split('\n')
  } finally {
    sb.cleanup()
  }
}

describe('start-up: heavy modules load lazily', function () {
  this.timeout(30_000)
  for (const args of [['--help'], ['query', '--help'], ['conversation', 'ls', '--help']]) {
    it(`jp ${args.join(' ')} loads no prompt, editor, provider or TOML module`, () => {
      const urls = importsOf(args)
      // The recorder works: oclif itself was seen.
      expect(urls.some((u) => u.includes('/@oclif/core/'))).to.equal(true)
      const heavy = urls.filter((u) => HEAVY.some((re) => re.test(u)))
      expect(heavy).to.deep.equal([])
    })
  }
})
