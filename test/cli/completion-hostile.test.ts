// Issue 42, finding 3: a completion script holds words and descriptions from
// installed plugins, which are untrusted. A linked plugin whose command ids,
// flag names, options and descriptions carry `$(...)`, backticks, quotes,
// newlines and ESC must not make a shell run anything when Tab is pressed,
// and no raw control character may reach the script (or the screen).
import {expect} from 'chai'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {requireProgram} from '../helpers/programs.js'
import {spawnPty, type PtySession} from '../helpers/pty.js'

const SHELLS = {
  bash: {debian: 'bash', args: ['--norc', '--noprofile', '-i'], setup: ["PS1='$ '", 'source SCRIPT'], list: '\t\t'},
  zsh: {debian: 'zsh', args: ['-f', '-i'], setup: ["PROMPT='$ '", 'autoload -Uz compinit && compinit -u -D', 'source SCRIPT'], list: '\t\t'},
  fish: {debian: 'fish', args: ['--no-config', '-i'], setup: ["function fish_prompt; echo -n '$ '; end", 'set -g fish_autosuggestion_enabled 0', 'source SCRIPT'], list: '\t'},
} as const

/** A plugin whose every completable text tries to run `touch MARK-n` (MARK is a path in the sandbox). */
function hostilePlugin(dir: string, mark: string): void {
  mkdirSync(dir, {recursive: true})
  const ids = [`$(touch ${mark}-1)`, `\`touch ${mark}-2\``, `x;touch ${mark}-3`, `hi'$(touch ${mark}-4)'`, `(touch ${mark}-5)`, `evil\ntouch ${mark}-6`, 'harmless']
  const esc = '\u001b]0;pwned\u0007\u001b[2J'
  const commands = ids.map(
    (id, i) => `  ${JSON.stringify(id)}: class {
    static id = ${JSON.stringify(id)}
    static summary = ${JSON.stringify(`${esc} $(touch ${mark}-s${i}) \`touch ${mark}-b${i}\` 'q" \\ end`)}
    static flags = {${JSON.stringify(`f$(touch ${mark}-f${i})`)}: {type: 'option', options: [${JSON.stringify(`$(touch ${mark}-o${i})`)}, 'ok'], summary: ${JSON.stringify(esc)}}, plain: {type: 'option', options: [${JSON.stringify(`(touch ${mark}-p${i})`)}, 'fine'], summary: 'x'}}
    static args = {}
    static async run() {}
    async run() {}
  }`,
  )
  writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'jp-plugin-hostile', version: '1.0.0', type: 'module', oclif: {commands: {strategy: 'explicit', target: './commands.js', identifier: 'COMMANDS'}}}))
  writeFileSync(join(dir, 'commands.js'), `export const COMMANDS = {\n${commands.join(',\n')}\n}\n`)
}

describe('jp completion with a hostile plugin linked (issue 42)', function () {
  this.timeout(120_000)
  let sb: Sandbox
  let mark: string
  const scripts: Record<string, string> = {}

  before(async () => {
    sb = makeSandbox()
    mark = join(sb.dir, 'RAN')
    const plugin = join(sb.dir, 'hostile')
    hostilePlugin(plugin, mark)
    const linked = await runJp(['plugins', 'link', plugin, '--no-install'], {sandbox: sb, timeoutMs: 60_000})
    expect(linked.code, linked.stderr).to.equal(0)
    for (const shell of Object.keys(SHELLS)) {
      const r = await runJp(['completion', shell], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      scripts[shell] = r.stdout
    }
    // The plugin is really there: its harmless command is completed.
    expect(scripts.bash).to.include('harmless')
  })
  after(() => sb?.cleanup())

  for (const shell of Object.keys(SHELLS) as Array<keyof typeof SHELLS>) {
    it(`the ${shell} script holds no raw control character and no hostile word`, () => {
      const script = scripts[shell]
      // eslint-disable-next-line no-control-regex
      expect(script).not.to.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
      expect(script).not.to.include(`$(touch ${mark}-1)`)
      expect(script).not.to.include(`(touch ${mark}-5)`)
      expect(script).not.to.include(`(touch ${mark}-p`)
    })

    it(`Tab in ${shell} on a terminal runs nothing from the plugin`, async function () {
      const how = SHELLS[shell]
      const file = requireProgram(this, shell, how.debian)
      const script = join(sb.dir, `jp.${shell}`)
      writeFileSync(script, scripts[shell])
      let term: PtySession | undefined
      try {
        term = await spawnPty([...how.args], {file, cwd: sb.cwd, cols: 200, rows: 50, env: {HOME: sb.home, XDG_CONFIG_HOME: join(sb.home, '.config'), XDG_DATA_HOME: join(sb.home, '.local/share'), XDG_RUNTIME_DIR: sb.dir}})
        for (const command of how.setup) term.type(command.replace('SCRIPT', script) + '\r')
        term.type("echo 'ready'\r")
        await term.waitForText(/^ready$/m, 20_000)
        await term.settle()
        term.markOutput()
        // Every word at the top, the hostile command's flags and their values.
        for (const typed of ['jp ', 'jp harmless --', 'jp harmless --plain ']) {
          term.send('\u0015')
          term.type(typed)
          term.send(how.list)
          await term.settle(400)
        }
        term.send('\u0015')
        term.type("echo 'done'\r")
        await term.waitForText(/^done$/m, 20_000)
        expect(term.screenText()).to.include('harmless')
        const seen = term.outputSinceMark()
        expect(seen).not.to.include('pwned')
        expect(seen).not.to.include('\u001b]0;')
      } finally {
        term?.dispose()
      }
      const ran = ['1', '2', '3', '4', '5', '6', ...[0, 1, 2, 3, 4, 5, 6].flatMap((i) => [`s${i}`, `b${i}`, `f${i}`, `o${i}`, `p${i}`])].filter((n) => existsSync(`${mark}-${n}`))
      expect(ran, `commands the ${shell} script ran`).to.deep.equal([])
    })
  }
})
