// `jp completion bash|zsh|fish` (issue 26 finding 4): the script jp prints,
// loaded into the real shell in a pseudo-terminal, and Tab pressed as a user
// would. What the line reads afterwards is what the shell completed.
import {expect} from 'chai'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {after, before, describe, it} from 'mocha'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {requireProgram} from '../helpers/programs.js'
import {spawnPty, type PtySession} from '../helpers/pty.js'

const keys = {tab: '\t', ctrlU: '\u0015'}

interface ShellSetup {
  /** The shell's Debian package (the program is the shell's name, looked up on PATH). */
  debian: string
  args: string[]
  /** Lines typed first: the prompt `$ `, then loading the script at SCRIPT. */
  setup: string[]
  /** What lists the candidates (bash and zsh: a second Tab; fish: the first one). */
  list: string
}

const SHELLS: Record<'bash' | 'zsh' | 'fish', ShellSetup> = {
  bash: {debian: 'bash', args: ['--norc', '--noprofile', '-i'], setup: ["PS1='$ '", 'source SCRIPT'], list: keys.tab + keys.tab},
  zsh: {debian: 'zsh', args: ['-f', '-i'], setup: ["PROMPT='$ '", 'autoload -Uz compinit && compinit -u -D', 'source SCRIPT'], list: keys.tab + keys.tab},
  fish: {
    debian: 'fish',
    args: ['--no-config', '-i'],
    setup: ["function fish_prompt; echo -n '$ '; end", 'set -g fish_autosuggestion_enabled 0', 'source SCRIPT'],
    list: keys.tab,
  },
}

for (const [shell, how] of Object.entries(SHELLS) as Array<[keyof typeof SHELLS, ShellSetup]>) {
  describe(`jp completion ${shell}, in ${shell} on a terminal`, function () {
    this.timeout(60_000)
    let sb: Sandbox
    let term: PtySession

    /** The row the cursor is on, up to the cursor. */
    const line = () => term.screen()[term.cursor().y].slice(0, term.cursor().x)

    async function complete(typed: string, expected: string): Promise<void> {
      term.send(keys.ctrlU)
      term.type(typed)
      await term.waitFor(() => line() === `$ ${typed}`, `the typed line ${typed}`)
      term.send(keys.tab)
      await term.waitFor(() => line() === `$ ${expected}`, `${JSON.stringify(typed)} + Tab → ${JSON.stringify(expected)}`)
    }

    async function candidates(typed: string, words: string[]): Promise<void> {
      term.send(keys.ctrlU)
      term.type(typed)
      await term.waitFor(() => line() === `$ ${typed}`, `the typed line ${typed}`)
      term.send(how.list)
      await term.waitFor(() => words.every((w) => term.screenText().includes(w)), `${words.join(', ')} listed after ${JSON.stringify(typed)}`)
    }

    before(async function () {
      const file = requireProgram(this, shell, how.debian)
      sb = makeSandbox()
      const printed = await runJp(['completion', shell], {sandbox: sb})
      expect(printed.code, printed.stderr).to.equal(0)
      expect(printed.stderr).to.equal('')
      const script = join(sb.dir, `jp.${shell}`)
      writeFileSync(script, printed.stdout)
      term = await spawnPty(how.args, {file, cwd: sb.cwd, cols: 120, rows: 40, env: {HOME: sb.home, XDG_CONFIG_HOME: join(sb.home, '.config'), XDG_DATA_HOME: join(sb.home, '.local/share'), XDG_RUNTIME_DIR: sb.dir}})
      for (const command of how.setup) term.type(command.replace('SCRIPT', script) + '\r')
      term.type("echo 'ready'\r")
      await term.waitForText(/^ready$/m, 20_000)
      await term.settle()
    })
    after(() => {
      term?.dispose()
      sb?.cleanup()
    })

    it('completes a command word and a topic’s subcommand', async () => {
      await complete('jp conv', 'jp conversation ')
      await complete('jp conversation l', 'jp conversation ls ')
      await complete('jp c sh', 'jp c show ')
      await complete('jp comp', 'jp completion ')
    })

    it('lists the subcommands of a topic', async () => {
      await candidates('jp conversation ', ['edit', 'path', 'show', 'use'])
    })

    it('completes a flag, and the values of a flag with options', async () => {
      await complete('jp query --form', 'jp query --format ') // (--for is also --fork's start)
      await complete('jp conversation edit --ti', 'jp conversation edit --title ')
      await candidates('jp query --format ', ['auto', 'json', 'text'])
      await complete('jp query --format j', 'jp query --format json ')
    })

    it('completes the shell argument of jp completion', async () => {
      await complete('jp completion fi', 'jp completion fish ')
    })

    it('knows jp models: its PROVIDER argument and --timeout', async () => {
      await complete('jp mode', 'jp models ')
      await complete('jp models oll', 'jp models ollama ')
      await complete('jp models --time', 'jp models --timeout ')
    })

    it('skips a flag’s value when finding the command, also before it (jp -w DIR conversation …)', async () => {
      await complete('jp query --format json --ne', 'jp query --format json --new ')
      await complete('jp -w /tmp conv', 'jp -w /tmp conversation ')
      await complete('jp conversation edit --no-p', 'jp conversation edit --no-pin ')
    })
  })
}
