// Security: a tool path or an editor path holding shell metacharacters is
// never interpreted by a shell unless the config says `shell = true` (SPEC
// §4, §5, §8), end to end through jp. With `shell = true` the program text
// is shell text (documented), but the model's arguments and the edited paths
// still never are.
import {expect} from 'chai'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, ROOT, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {startReplayServer, type ReplayServer} from '../llm/replay-server.js'
import {FAULT_FIXTURES, onlyConversation, useOpenAI, walkFiles} from '../faults/harness.js'

const ODD_TOOL = join(FAULT_FIXTURES, 'odd $(touch INJECTED) tool.sh')
const ODD_EDITOR = join(FAULT_FIXTURES, 'odd $(touch INJECTED) editor.sh')
/** TOML basic string for `s` (paths here hold no quotes or backslashes). */
const toml = (s: string) => JSON.stringify(s)

describe('security: shell metacharacters in tool and editor paths', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let server: ReplayServer | undefined

  beforeEach(() => {
    sb = makeSandbox()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    sb.cleanup()
  })

  /** Every place a stray `touch NAME` could have landed: the sandbox tree, the fixtures, the repo root. */
  function injected(name: string): string[] {
    const spots = [...walkFiles(sb.dir), join(FAULT_FIXTURES, name), join(ROOT, name), join(process.cwd(), name)]
    return spots.filter((p) => p.endsWith(`/${name}`) && existsSync(p))
  }

  const workspaceRoot = () => join(sb.env.JP_USER_DATA_DIR!, 'workspace')

  describe('a tool', () => {
    /** Runs one query whose model calls `probe` with `args`; returns the tool result jp sent back. */
    async function callProbe(command: string, args: Record<string, unknown> = {q: 'x'}): Promise<string> {
      server = await startReplayServer([{body: openaiToolCall('call_1', 'probe', args)}, {body: openaiText(['ok'])}])
      const cfg = useOpenAI(sb, server.url, `[conversation.tools.probe]\ncommand = ${command}\nrun = "unattended"\n`)
      const r = await runJp(['query', ...cfg, '--tool', 'probe', 'go'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      const second = server.requests[1].json() as {messages: Array<{role: string; content: string}>}
      const reply = second.messages.at(-1)!
      expect(reply.role).to.equal('tool')
      return reply.content
    }

    it('table command, shell = false: the odd path is exec\'d as is', async () => {
      const result = await callProbe(`{program = ${toml(ODD_TOOL)}, args = ["$(touch INJECTED_ARG)"], shell = false}`)
      expect(result).to.equal('odd tool ran with 1 args\n')
      expect(injected('INJECTED')).to.deep.equal([])
      expect(injected('INJECTED_ARG')).to.deep.equal([])
    })

    it('string command (shlex-split, no shell): a quoted odd path is one word, exec\'d as is', async () => {
      const result = await callProbe(toml(`'${ODD_TOOL}' '$(touch INJECTED_ARG)' ';touch' INJECTED_WORD`))
      expect(result).to.equal('odd tool ran with 3 args\n')
      expect(injected('INJECTED')).to.deep.equal([])
      expect(injected('INJECTED_ARG')).to.deep.equal([])
      expect(injected('INJECTED_WORD')).to.deep.equal([])
    })

    it('shell = true: the program text goes through /bin/sh, the model\'s arguments never do', async () => {
      // The args are shell-quoted and appended to the program text: they land on printf as literal words.
      const program = `touch SHELL_RAN; printf 'sum=%s arg=%s\\n' "$((2+3))"`
      const result = await callProbe(`{program = ${toml(program)}, args = ["$(touch INJECTED_ARG)"], shell = true}`, {
        q: '$(touch INJECTED_MODEL)',
        r: '`touch INJECTED_MODEL2`',
      })
      expect(result).to.equal('sum=5 arg=$(touch INJECTED_ARG)\n')
      expect(existsSync(join(workspaceRoot(), 'SHELL_RAN')), 'the shell ran the program text in the workspace root').to.equal(true)
      expect(injected('INJECTED_ARG')).to.deep.equal([])
      expect(injected('INJECTED_MODEL')).to.deep.equal([])
      expect(injected('INJECTED_MODEL2')).to.deep.equal([])
    })
  })

  describe('an editor (jp conversation edit --metadata, no terminal)', () => {
    let record: string

    async function seedConversation(): Promise<string> {
      const r = await runJp(['query', 'first question'], {sandbox: sb, env: {JP_ECHO_DELAY_MS: '0'}})
      expect(r.code, r.stderr).to.equal(0)
      return join(onlyConversation(sb), 'metadata.json')
    }

    async function editWith(cmd: string): Promise<{metadata: string; args: string[]}> {
      record = join(sb.dir, 'editor-argv.log')
      const metadata = await seedConversation()
      const file = join(sb.home, 'editor.toml')
      writeFileSync(file, `[editor]\ncmd = ${cmd}\n`)
      const r = await runJp(['conversation', 'edit', '--cfg', file, '--metadata'], {sandbox: sb, env: {PROBE_RECORD: record}})
      expect(r.code, r.stderr).to.equal(0)
      const args = readFileSync(record, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('arg='))
        .map((l) => l.slice(4))
      return {metadata, args}
    }

    it('table cmd, shell = false: the odd editor path runs as is and gets the path as one argument', async () => {
      const {metadata, args} = await editWith(`{program = ${toml(ODD_EDITOR)}, args = [], shell = false}`)
      expect(args).to.deep.equal([metadata])
      expect(JSON.parse(readFileSync(metadata, 'utf8')).title).to.equal('edited safely')
      expect(injected('INJECTED')).to.deep.equal([])
    })

    it('string cmd (shlex-split, no shell): a quoted odd editor path is one word', async () => {
      const {metadata, args} = await editWith(toml(`'${ODD_EDITOR}' '$(touch INJECTED_ARG)'`))
      expect(args).to.deep.equal(['$(touch INJECTED_ARG)', metadata])
      expect(JSON.parse(readFileSync(metadata, 'utf8')).title).to.equal('edited safely')
      expect(injected('INJECTED')).to.deep.equal([])
      expect(injected('INJECTED_ARG')).to.deep.equal([])
    })

    it('shell = true: the program text is shell text, but an edited path full of metacharacters is passed via "$@"', async () => {
      // The conversation (and so the edited path) lives under a data dir whose name is a command substitution.
      const data = join(sb.dir, 'data $(touch INJECTED_PATH) `touch INJECTED_PATH2`')
      mkdirSync(data)
      sb.env.JP_USER_DATA_DIR = data
      const mark = join(sb.dir, 'SHELL_RAN')
      const program = `touch ${JSON.stringify(mark).slice(1, -1)} && '${ODD_EDITOR}'`
      const {metadata, args} = await editWith(`{program = ${toml(program)}, args = ["two words"], shell = true}`)
      expect(metadata.startsWith(data)).to.equal(true)
      expect(existsSync(mark), 'the shell ran the program text').to.equal(true)
      expect(args).to.deep.equal(['two words', metadata])
      expect(JSON.parse(readFileSync(metadata, 'utf8')).title).to.equal('edited safely')
      expect(injected('INJECTED')).to.deep.equal([])
      expect(injected('INJECTED_PATH')).to.deep.equal([])
      expect(injected('INJECTED_PATH2')).to.deep.equal([])
    })
  })
})
