// The markdown renderer and the highlighter load only for what they render
// (SPEC §18, issue 25), seen in V8's coverage of real `jp query` runs in a
// pty against a local OpenAI-format server (the bundle's module wrappers
// that ran: test/helpers/coverage.ts):
//   - stdout a terminal, rendering on: markdown-it and the renderer load
//     before the first token (an answer with no text at all still loaded
//     them), highlight.js only for an answer with a fenced language;
//   - `style.markdown = false`, TERM=dumb, --format json, stdout a pipe:
//     neither loads;
//   - stdout a file and stderr the terminal (`jp query > file`): only
//     reasoning would be rendered, so they load at the first reasoning text,
//     not for an answer without any.
import {expect} from 'chai'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'

import {JpRun, type Redirect} from '../fixtures/e2e/interrupt-run.js'
import {startSlowServer, type SlowResponse} from '../fixtures/e2e/slow-server.js'
import {coverageIn, wrappedModules} from '../helpers/coverage.js'

const RENDERER = [/\/markdown-it\//, /^src\/lib\/markdown\//]
const HIGHLIGHTER = /\/highlight\.js\//

interface Loaded {
  renderer: boolean
  highlighter: boolean
  code: number
  stdout: string
  screen: string
}

async function loadedBy(response: SlowResponse, opts: {redirect?: Redirect; env?: NodeJS.ProcessEnv; args?: string[]} = {}): Promise<Loaded> {
  const server = await startSlowServer([response])
  const env: NodeJS.ProcessEnv = {...opts.env}
  const run = new JpRun({baseUrl: server.baseUrl, redirect: opts.redirect, args: ['-n', ...(opts.args ?? [])], env})
  try {
    // In the run's own sandbox, read when it starts.
    env.NODE_V8_COVERAGE = run.file('coverage')
    mkdirSync(env.NODE_V8_COVERAGE)
    await run.start('hi')
    const result = await run.finish()
    const {ran} = coverageIn(env.NODE_V8_COVERAGE)
    const wrapped = wrappedModules().filter((m) => ran.has(m))
    return {
      renderer: wrapped.some((m) => RENDERER.some((re) => re.test(m))),
      highlighter: wrapped.some((m) => HIGHLIGHTER.test(m)),
      code: result.code,
      stdout: result.stdout,
      screen: run.term.screenText(),
    }
  } finally {
    run.dispose()
    await server.close()
  }
}

const PROSE: SlowResponse = {text: ['# Notes\n\n', 'Some **bold** prose and `code` in a paragraph.\n'], intervalMs: 1}
const FENCED: SlowResponse = {text: ['Here:\n\n', '```js\nconst x = 1\n```\n'], intervalMs: 1}

describe('start-up: the renderer and the highlighter load only for what they render', function () {
  this.timeout(60_000)

  it('the probe works: a fenced answer on the terminal loads both', async () => {
    const r = await loadedBy(FENCED)
    expect(r.code).to.equal(0)
    expect(r.renderer).to.equal(true)
    expect(r.highlighter).to.equal(true)
    expect(r.screen).to.include('┌─ js')
  })

  it('stdout a terminal: the renderer loads before the first token (an answer without text loaded it), the highlighter not', async () => {
    const r = await loadedBy({text: [], intervalMs: 1})
    expect(r.code).to.equal(0)
    expect(r.renderer).to.equal(true)
    expect(r.highlighter).to.equal(false)
  })

  it('an answer without code on the terminal never loads the highlighter', async () => {
    const r = await loadedBy(PROSE)
    expect(r.renderer).to.equal(true)
    expect(r.highlighter).to.equal(false)
    expect(r.screen).to.include('Some bold prose')
  })

  for (const [name, opts] of [
    ['style.markdown = false', {env: {JP_CFG_STYLE_MARKDOWN: 'false'}}],
    ['TERM=dumb', {env: {TERM: 'dumb'}}],
    ['--format json', {args: ['--format', 'json']}],
    ['stdout and stderr not the terminal', {redirect: 'files'}],
  ] as [string, {redirect?: Redirect; env?: NodeJS.ProcessEnv; args?: string[]}][]) {
    it(`${name}: neither loads, even for a fenced answer`, async () => {
      const r = await loadedBy(FENCED, opts)
      expect(r.code).to.equal(0)
      expect(r.renderer).to.equal(false)
      expect(r.highlighter).to.equal(false)
    })
  }

  it('stdout a file, stderr the terminal: an answer without reasoning loads nothing; its text is the raw markdown', async () => {
    const r = await loadedBy(FENCED, {redirect: 'stdout'})
    expect(r.code).to.equal(0)
    expect(r.renderer).to.equal(false)
    expect(r.highlighter).to.equal(false)
    expect(r.stdout).to.equal('Here:\n\n```js\nconst x = 1\n```\n')
  })

  it('stdout a file, stderr the terminal: the first reasoning text loads the renderer, and the reasoning is rendered', async () => {
    const r = await loadedBy({reasoning: ['Thinking about **bold** things.\n'], text: ['plain answer\n'], intervalMs: 1}, {redirect: 'stdout'})
    expect(r.code).to.equal(0)
    expect(r.renderer).to.equal(true)
    expect(r.screen).to.include('Thinking about bold things.')
    expect(r.screen).to.not.include('**')
    expect(r.stdout).to.equal('plain answer\n')
  })
})
