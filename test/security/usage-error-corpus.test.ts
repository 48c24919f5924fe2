// Issue 28: every error line is sanitized — the security suite's escape
// corpus (test/helpers/hostile.ts) run through every flag and argument
// error of every command. The cases are generated from oclif.manifest.json
// (so a new command, flag or argument is covered without editing this file):
// an unknown command at each level, an unknown flag per command, a hostile
// value for every flag that takes one, a hostile value for every argument,
// an extra argument where a command takes no more, the global flags before
// the command. Each runs the built CLI (build first) with stdio piped, as a
// redirected `2> err.txt` later read on a terminal would see it.
//
// For speed (docs/testing.md): the cases written out below, which go through
// bin/run.js's routing (global flags before the command, unknown commands
// and topics), run a real `jp` each; the cases generated from the manifest
// (a command's own flag and argument errors) are run by one child that
// loads the bundle once and runs each in turn (test/helpers/one-process.ts:
// the same stdout, stderr and exit status as a `jp` per case, compared
// case by case when this was written).
//
// What must hold for each: stdout and stderr carry no raw control character
// (only line feeds), an error is one `Error:` line (plus `See 'jp … --help'.`
// for a usage error, exit 2), and where the message quotes what was typed
// the corpus is there, made visible.
import {expect} from 'chai'
import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp, type RunResult, type Sandbox} from '../helpers/cli.js'
import {ALL, CONTROL, mark} from '../helpers/hostile.js'
import {oclifAnswers} from '../helpers/one-process.js'

interface ManifestFlag {
  type: 'boolean' | 'option'
  char?: string
  options?: string[]
}
interface ManifestCommand {
  id: string
  strict?: boolean
  args: Record<string, {required?: boolean; options?: string[]}>
  flags: Record<string, ManifestFlag>
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, ManifestCommand>}
const H = mark(ALL)
/**
 * The corpus as a command word: without `=` and `:`. oclif stops reading
 * command words at an argument holding `=` (it takes it for a value: `jp
 * conversation a=b` lists the topic), and reads `:` as its topic separator
 * (the name is quoted only up to it). Both are routing, not escaping: the
 * full corpus is run through those paths too, for raw controls.
 */
const H_WORD = mark(ALL.replace(/[=:]/g, ''))

interface Case {
  args: string[]
  /** The message must quote the corpus (it names what was typed). */
  quotes: boolean
  /** Run by a real `jp` of its own (bin/run.js's routing is part of the case), not by the shared child. */
  routed?: boolean
}

/** Values that make a command's other required arguments valid-looking, so the case reaches the part under test. */
const FILLER: Record<string, string> = {key: 'assistant.model.id', value: 'echo/default', shell: 'bash', id: 'jp-c1', provider: 'ollama'}

/** Positional arguments whose value is content, not something an error would quote (a query is sent, not checked). */
const CONTENT_ARGS = new Set(['query:query', 'config:set:value'])

function cases(): Case[] {
  const out: Case[] = [
    {args: [H], quotes: false},
    {args: [H_WORD], quotes: true},
    {args: ['conversation', H], quotes: false},
    {args: ['conversation', H_WORD], quotes: true},
    {args: ['config', H_WORD], quotes: true},
    {args: ['help', H], quotes: false},
    {args: ['help', H_WORD], quotes: true},
    {args: ['-w', H, 'conversation', 'ls'], quotes: true},
    // `ls` reads no config, so a bad --cfg is only found by a command that does.
    {args: ['-c', H, 'conversation', 'ls'], quotes: false},
    {args: ['-c', H, 'config', 'show'], quotes: true},
    // A typed key takes its value parsed: a hostile one is quoted back.
    {args: ['config', 'set', 'interrupt.escalation_cooldown_secs', H], quotes: true},
  ].map((c) => ({...c, routed: true}))
  for (const cmd of Object.values(manifest.commands)) {
    const typed = cmd.id.split(':')
    out.push({args: [...typed, `--x${H}`], quotes: true})
    const argNames = Object.keys(cmd.args)
    for (const [name, flag] of Object.entries(cmd.flags)) {
      if (flag.type !== 'option') continue
      // Some values are data, not checked (a title is stored, a workspace dir or attachment is a path that does not exist: quoted).
      out.push({args: [...typed, `--${name}`, H], quotes: flag.options !== undefined})
    }
    for (const [i, name] of argNames.entries()) {
      if (CONTENT_ARGS.has(`${cmd.id}:${name}`)) continue
      const before = argNames.slice(0, i).map((n) => FILLER[n] ?? 'x')
      out.push({args: [...typed, ...before, H], quotes: cmd.args[name].options !== undefined})
    }
    if (cmd.strict !== false) {
      const all = argNames.map((n) => FILLER[n] ?? 'x')
      out.push({args: [...typed, ...all, H], quotes: true})
    }
  }
  return out
}

describe('security: the escape corpus through every flag and argument error (built CLI)', function () {
  this.timeout(300_000)
  const all = cases()
  const ENV = {JP_ECHO_DELAY_MS: '0'}
  /** A sandbox for the routed cases (run one by one, in order) and one for the child's (in order too). */
  let sb: Sandbox
  let shared: Sandbox
  const answers = new Map<Case, Promise<Pick<RunResult, 'stdout' | 'stderr' | 'code'>>>()
  before(() => {
    sb = makeSandbox()
    shared = makeSandbox()
    for (const s of [sb, shared]) mkdirSync(join(s.cwd, '.jp', 'conversations'), {recursive: true})
    const generated = all.filter((c) => !c.routed)
    const inChild = oclifAnswers(generated.map((c) => c.args), {sandbox: shared, env: ENV})
    for (const [i, c] of generated.entries()) answers.set(c, inChild.then((a) => a[i]))
    // (A rejection is reported by the first case that awaits it.)
    inChild.catch(() => {})
  })
  after(() => {
    sb.cleanup()
    shared.cleanup()
  })

  it('covers every command of the manifest, each with an unknown flag, its option values and its arguments', () => {
    const ids = Object.keys(manifest.commands)
    expect(ids.length).to.be.greaterThan(10)
    for (const id of ids) expect(all.some((c) => c.args.join(' ').startsWith(id.split(':').join(' ')) && c.args.some((a) => a.startsWith('--x'))), id).to.equal(true)
    expect(all.length).to.be.greaterThan(60)
    expect(all.filter((c) => c.routed).length).to.be.greaterThan(5)
  })

  for (const c of all) {
    const shown = c.args.map((a) => a.replace(H, 'HOSTILE').replace(H_WORD, 'HOSTILE-WORD')).join(' ')
    it(`jp ${shown}${c.routed ? ' (a jp of its own)' : ''}`, async () => {
      const r = c.routed ? await runJp(c.args, {sandbox: sb, env: ENV}) : await answers.get(c)!
      const out = r.stdout + r.stderr
      // eslint-disable-next-line no-control-regex
      expect(CONTROL.test(out.replace(/\n/g, '')), JSON.stringify(out)).to.equal(false)
      if (c.quotes) {
        expect(r.stderr, 'the corpus is shown, escaped').to.include('\\u001b]0;pwned\\u0007').and.include('\\u009b2J')
      }
      // `jp conversation grep` finds nothing: exit 1 and no output, as grep does (docs/decisions.md).
      const grepNoMatch = c.args[0] === 'conversation' && c.args[1] === 'grep' && r.code === 1 && r.stdout === '' && r.stderr === ''
      if (r.code !== 0 && !grepNoMatch) {
        const lines = r.stderr.split('\n').filter((l) => l.trim() !== '')
        const errors = lines.filter((l) => l.startsWith('Error: '))
        expect(errors, r.stderr).to.have.length(1)
        if (r.code === 2) expect(lines.at(-1)).to.match(/^See 'jp( [a-z-]+)* --help'\.$/)
      }
    })
  }
})
