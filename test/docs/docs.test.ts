// The user docs against the code: the README's quick start, links between
// the docs, every TOML snippet, the flags and commands the README names, and
// the messages the docs quote. A rename in the code fails here until the
// docs follow.
import {expect} from 'chai'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import Query from '../../src/commands/query.js'
import {parseConfigToml} from '../../src/lib/config/load.js'
import {STREAMING_MENU, TOOL_MENU} from '../../src/lib/interrupt/handler.js'
import {editorNotice} from '../../src/lib/compose/inline.js'
import {
  noTerminalResponse,
  RESULT_SKIPPED_BY_CONFIG,
  RESULT_SKIPPED_BY_USER,
  RUN_SKIPPED_BY_CONFIG,
} from '../../src/lib/tool/coordinator.js'
import {PERMISSION_OPTIONS, RESULT_OPTIONS, SKIP_REASON_PLACEHOLDER, SKIP_REASON_PROMPT} from '../../src/lib/tool/prompter.js'
import {CANCELLED_NOTICE, EMPTY_QUERY_NOTICE} from '../../src/lib/query/compose-step.js'
import {CUT_MARKER} from '../../src/lib/query/document.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const read = (rel: string) => readFileSync(join(root, rel), 'utf8')
const docFiles = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-')
}

function anchors(markdown: string): Set<string> {
  const out = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced
    const m = !fenced && /^#{1,6} (.*)$/.exec(line)
    if (m) out.add(slug(m[1]))
  }
  return out
}

describe('README and docs', () => {
  it('keeps the quick start to exactly the two lines CI reads', () => {
    const readme = read('README.md')
    const section = /## Quick start\n([\s\S]*?)\n## /.exec(readme)
    expect(section, 'a "## Quick start" section').to.not.equal(null)
    const code = section![1].split('\n').filter((l) => l.startsWith('    '))
    expect(code.map((l) => l.trim())).to.deep.equal(['npm install && ./bin/run.js query "hello"', 'npm install && npm test'])
  })

  it('has relative links that point at existing files and headings', () => {
    const broken: string[] = []
    for (const file of docFiles) {
      const text = read(file)
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]
        if (/^[a-z]+:/.test(target)) continue
        const [path, anchor] = target.split('#')
        const abs = path === '' ? join(root, file) : resolve(join(root, dirname(file)), path)
        if (!existsSync(abs)) {
          broken.push(`${file}: ${target} (no such file)`)
          continue
        }
        if (anchor && abs.endsWith('.md') && !anchors(readFileSync(abs, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${target} (no such heading)`)
        }
      }
    }
    expect(broken).to.deep.equal([])
  })

  it('has only valid configuration in its TOML snippets', async () => {
    let count = 0
    for (const file of docFiles.filter((f) => f !== 'docs/configuration.md')) {
      for (const m of read(file).matchAll(/```toml\n([\s\S]*?)```/g)) {
        count++
        await parseConfigToml(m[1], `${file} snippet ${count}`)
      }
    }
    expect(count).to.be.greaterThan(10)
  })

  it('documents every jp query flag in the README', () => {
    const readme = read('README.md')
    for (const [name, flag] of Object.entries(Query.flags)) {
      expect(readme, `--${name}`).to.include(`--${name}`)
      const char = (flag as {char?: string}).char
      if (char) expect(readme, `-${char}`).to.match(new RegExp(`-${char}[/ ,]`))
    }
  })

  it('names every conversation command in the README', () => {
    const readme = read('README.md')
    const commands = readdirSync(join(root, 'src/commands/conversation')).map((f) => f.replace(/\.ts$/, ''))
    expect(commands).to.include('edit')
    for (const c of commands) expect(readme).to.include(`jp conversation ${c}`)
  })

  it('lists the menu keys the code offers', () => {
    const flow = read('docs/reply-flow.md')
    const tools = read('docs/tools.md')
    expect(flow).to.include(`Interrupted [${[...STREAMING_MENU.map((o) => o.key), '?'].join(',')}]`)
    expect(flow).to.include(`Interrupted [${[...TOOL_MENU.map((o) => o.key), '?'].join(',')}]`)
    for (const o of [...STREAMING_MENU, ...TOOL_MENU]) expect(flow).to.include(`| \`${o.key}\` |`)
    expect(tools).to.include(`Run local tool greet? [${[...PERMISSION_OPTIONS.map((o) => o.key), '?'].join(',')}]`)
    expect(tools).to.include(`Deliver greet result to assistant? [${[...RESULT_OPTIONS.map((o) => o.key), '?'].join(',')}]`)
    for (const o of PERMISSION_OPTIONS) expect(tools).to.include(`| \`${o.key}\` |`)
  })

  it('quotes the messages exactly as the code prints them', () => {
    const tools = read('docs/tools.md')
    const flow = read('docs/reply-flow.md')
    for (const text of [noTerminalResponse('NAME'), RUN_SKIPPED_BY_CONFIG, RESULT_SKIPPED_BY_USER, RESULT_SKIPPED_BY_CONFIG, SKIP_REASON_PLACEHOLDER, SKIP_REASON_PROMPT]) {
      expect(tools).to.include(text)
    }
    for (const then of ['Keeping your text.', 'Continuing with the inline editor.', 'Returning to the menu.']) {
      expect(flow).to.include(editorNotice('<reason>', then).replace('<reason>', then === 'Keeping your text.' ? '<error>' : '<reason>'))
    }
    for (const text of [EMPTY_QUERY_NOTICE, CANCELLED_NOTICE, CUT_MARKER]) expect(flow).to.include(text)
  })
})
