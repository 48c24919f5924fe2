// An unknown key or a wrong type in a config file stops every jp command
// that loads the configuration, before it does anything, with the one line
// naming the file, line and key (issue 33: `[editor] foo = 1` in the user
// config let `conversation ls`, `conversation show` and `trust --list` run
// silently). The commands that do not load it are the ones
// docs/configuration.md names.
//
// For speed (docs/testing.md): with each bad file, the first command runs as a
// `jp` of its own and the rest in one child that loads the bundle once
// (test/helpers/one-process.ts).
import {expect} from 'chai'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'

import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {writeConversation} from '../helpers/conversations.js'
import {oclifAnswers} from '../helpers/one-process.js'

describe('a bad config file stops every command that loads the configuration', function () {
  this.timeout(120_000)
  let sb: Sandbox
  let userFile: string
  before(async () => {
    sb = makeSandbox({JP_ECHO_DELAY_MS: '0'})
    expect((await runJp(['init', '--yes'], {sandbox: sb})).code).to.equal(0)
    writeConversation(sb.cwd, 'jp-c300', {title: 'Here'}, [])
    writeFileSync(join(sb.cwd, '.jp', 'active_conversation'), 'jp-c300')
    userFile = join(sb.env.XDG_CONFIG_HOME!, 'jp', 'config.toml')
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'jp'), {recursive: true})
  })
  after(() => sb.cleanup())

  const COMMANDS = [
    ['conversation', 'ls'],
    ['conversation', 'show'],
    ['conversation', 'show', 'jp-c300'],
    ['conversation', 'path'],
    ['conversation', 'use', 'jp-c300'],
    ['conversation', 'rm', 'jp-c300'],
    ['conversation', 'edit'],
    ['conversation', 'code', '--list'],
    ['trust', '--list'],
    ['trust'],
    ['query', 'hello'],
    ['config', 'get', 'style.markdown'],
    ['config', 'show'],
    ['mcp', 'ls'],
    ['mcp', 'tools', 'fx'],
  ]
  for (const [content, problem] of [
    ['[editor]\nfoo = 1\n', ':2:1: editor.foo: unknown key (expected one of: cmd, envs, backend, inline)'],
    ['[style]\nmarkdown = "yes"\n', ':2:1: style.markdown: expected boolean, got "yes"'],
  ]) {
    it(`${JSON.stringify(content)}: each command fails with the one line and changes nothing`, async () => {
      writeFileSync(userFile, content)
      const [first, ...rest] = COMMANDS
      const runs = [await runJp(first, {sandbox: sb}), ...(await oclifAnswers(rest, {sandbox: sb}))]
      for (const [i, args] of COMMANDS.entries()) {
        const r = runs[i]
        expect(r.code, args.join(' ')).to.equal(1)
        expect(r.stdout, args.join(' ')).to.equal('')
        expect(r.stderr, args.join(' ')).to.equal(`Error: ${userFile}${problem}\n`)
      }
      // `rm` and `use` did nothing: the conversation is still there and active.
      writeFileSync(userFile, '')
      const ls = await runJp(['conversation', 'ls', '--format', 'json'], {sandbox: sb})
      expect(JSON.parse(ls.stdout.trim())).to.include({id: 'jp-c300', active: true})
    })
  }

  it('the commands that do not load it are the ones docs/configuration.md names, and they run', async () => {
    writeFileSync(userFile, '[editor]\nfoo = 1\n')
    const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8')
    for (const name of ['jp init', 'jp config set', 'jp completion']) expect(doc).to.include('`' + name + '`')
    expect((await runJp(['completion', 'bash'], {sandbox: sb})).code).to.equal(0)
    expect((await runJp(['init', 'other', '--yes'], {sandbox: sb})).code).to.equal(0)
    // config set checks the file it writes: it can repair a wrong value in it.
    writeFileSync(userFile, '[style]\nmarkdown = "yes"\n')
    const set = await runJp(['config', 'set', '--user', 'style.markdown', 'false'], {sandbox: sb})
    expect(set.code, set.stderr).to.equal(0)
    expect((await runJp(['conversation', 'ls'], {sandbox: sb})).code).to.equal(0)
  })
})
