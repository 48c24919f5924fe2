// Runs the TypeScript compiler on test/llm/types/request-bodies.ts: jp's
// request bodies must type-check against the official SDKs' request types
// (@anthropic-ai/sdk, openai, ollama). Types are checked by tsc, not at run
// time, so this test is the compiler run itself.
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'

describe('llm: request bodies against the SDKs’ request types (compile time)', function () {
  this.timeout(120_000)

  it('tsc accepts every body jp builds as the SDK request type', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'test/llm/types/tsconfig.json')], {encoding: 'utf8'})
    expect(r.stdout + r.stderr, 'tsc output').to.equal('')
    expect(r.status).to.equal(0)
  })
})
