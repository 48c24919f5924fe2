// Every path that writes untrusted text to the terminal — conversation titles
// and ids, tool names and arguments, tool output, provider error bodies,
// config values in messages — fed the hostile strings (OSC 0/8/52, CSI 2J,
// DCS, C1 CSI/OSC/ST, BEL, BS, CR). The hostile text is wrapped in « »
// markers; every marked span that reaches the terminal (or a stream a
// terminal would show) must be present and hold no control character.
// The command paths run the built CLI (build first).
import {expect} from 'chai'
import fc from 'fast-check'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Writable} from 'node:stream'
import {BIN, ROOT, makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'
import {openaiText, openaiToolCall} from '../helpers/openai-stream.js'
import {spawnPty, type PtySession} from '../helpers/pty.js'
import {startReplayServer, type ReplayServer, type ScriptedResponse} from '../llm/replay-server.js'
import {MockPromptBackend} from '../../src/lib/inquire/mock.js'
import {Printer} from '../../src/lib/printer/printer.js'
import {ToolPrompter} from '../../src/lib/tool/prompter.js'
import {sanitizeUntrusted, untrustedJson} from '../../src/lib/text/untrusted.js'
import {ALL, CONTROL, HOSTILE, mark} from '../helpers/hostile.js'

/** The marked spans in `output`; fails unless there is at least one and none holds a control character. */
function expectSafeSpans(output: string, what: string): string[] {
  const spans = [...output.matchAll(/«([^«»]*)»/g)].map((m) => m[1])
  expect(spans.length, `${what}: no marked span reached the output:\n${JSON.stringify(output)}`).to.be.greaterThan(0)
  for (const span of spans) expect(CONTROL.test(span), `${what}: raw control in ${JSON.stringify(span)}`).to.equal(false)
  return spans
}

describe('untrusted text on the terminal: the one sanitizer', () => {
  for (const [name, hostile] of Object.entries(HOSTILE)) {
    it(`sanitizeUntrusted shows ${name} instead of sending it`, () => {
      const out = sanitizeUntrusted(mark(hostile))
      expectSafeSpans(out, name)
      expect(out).to.match(/\\u00|⟨U\+/) // made visible, not silently dropped
      expect(sanitizeUntrusted(out)).to.equal(out) // idempotent
    })
  }

  it('keeps line feeds and tabs only when asked (multi-line text), never CR', () => {
    expect(sanitizeUntrusted('a\nb\tc\rd')).to.equal('a\\u000ab\\u0009c\\u000dd')
    expect(sanitizeUntrusted('a\nb\tc\rd', {multiline: true})).to.equal('a\nb\tc\\u000dd')
    expect(sanitizeUntrusted('plain text, é 🙂')).to.equal('plain text, é 🙂')
  })

  it('makes bidi overrides visible (a tool argument cannot read in another order)', () => {
    expect(sanitizeUntrusted('rm \u202eevil')).to.equal('rm ⟨U+202E⟩evil')
    expect(sanitizeUntrusted('a\u200bb\ufeffc\u2028d\u{e0041}')).to.equal('a⟨U+200B⟩b⟨U+FEFF⟩c⟨U+2028⟩d⟨U+E0041⟩')
  })

  it('untrustedJson keeps the value of format characters (JSON escapes), none raw', () => {
    const value = {t: 'rm \u202eevil \u200b\ufeff\u2028\u{e0041}'}
    const text = untrustedJson(value)
    expect(JSON.parse(text)).to.deep.equal(value)
    expect(CONTROL.test(text), text).to.equal(false)
  })

  it('untrustedJson is still JSON of the same value, with no raw control (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({unit: 'binary', maxLength: 40}), (value, s) => {
        for (const v of [value, {s, nested: [s, value]}]) {
          for (const space of [undefined, 2]) {
            const text = untrustedJson(v, space)
            expect(JSON.parse(text)).to.deep.equal(JSON.parse(JSON.stringify(v)))
            expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text), JSON.stringify(text)).to.equal(false)
          }
        }
      }),
      {numRuns: 500},
    )
  })
})

describe('untrusted text on the terminal: each writing path', function () {
  this.timeout(60_000)

  describe('in-process sinks', () => {
    /** A stream that keeps what was written (a terminal or not, as the test says). */
    class Sink extends Writable {
      data = ''
      constructor(readonly isTTY: boolean) {
        super({decodeStrings: false})
      }
      override _write(chunk: string, _encoding: BufferEncoding, cb: () => void): void {
        this.data += chunk
        cb()
      }
    }

    for (const tty of [true, false]) {
      it(`printer chrome, notice, warn, error (tool headers, provider errors) and NDJSON events, stderr ${tty ? 'a terminal' : 'redirected'}`, async () => {
        const stdout = new Sink(tty)
        const stderr = new Sink(tty)
        const printer = new Printer({stdout, stderr, stdoutIsTTY: tty, stderrIsTTY: tty, openPromptWriter: () => undefined})
        for (const hostile of Object.values(HOSTILE)) {
          printer.chrome(`⚙ tool ${mark(hostile)}`)
          printer.notice(mark(hostile))
          printer.warn(mark(hostile))
          printer.error(`Error: ${mark(hostile)}`)
        }
        await printer.flush()
        const spans = expectSafeSpans(stderr.data, 'stderr')
        expect(spans).to.have.length(Object.keys(HOSTILE).length * 4)

        const json = new Sink(tty)
        const jsonPrinter = new Printer({stdout: json, stderr: new Sink(tty), format: 'json', stdoutIsTTY: tty, openPromptWriter: () => undefined})
        jsonPrinter.event({type: 'tool_call', id: 'c1', name: mark(ALL), arguments: {x: mark(ALL)}})
        jsonPrinter.error(mark(ALL))
        await jsonPrinter.flush()
        for (const line of json.data.trimEnd().split('\n')) {
          expect(CONTROL.test(line), line).to.equal(false)
          expect(JSON.stringify(JSON.parse(line))).to.include(JSON.stringify(mark(ALL)).slice(1, -1))
        }
      })
    }

    for (const [name, hostile] of Object.entries(HOSTILE)) {
      it(`the permission menu's p prints ${name} in the arguments visibly, and the JSON still means the same`, async () => {
        const printed: string[] = []
        const backend = new MockPromptBackend().withSelectResponses(['p', 'n'])
        const prompter = new ToolPrompter({backend, editor: undefined, editMode: 'emacs', notice: () => {}, print: (t) => printed.push(t)})
        const args = {path: mark(hostile), list: [mark(hostile)]}
        const result = await prompter.promptPermission(mark(hostile), args, 'ask')
        expect(result.type).to.equal('skip')
        expect(printed).to.have.length(1)
        expect(expectSafeSpans(printed[0], name)).to.have.length(2)
        expect(JSON.parse(printed[0])).to.deep.equal(args)
      })
    }
  })

  describe('commands (built CLI)', () => {
    let sb: Sandbox
    let server: ReplayServer | undefined
    let term: PtySession | undefined
    beforeEach(() => (sb = makeSandbox()))
    afterEach(async () => {
      term?.dispose()
      term = undefined
      await server?.close()
      server = undefined
      sb.cleanup()
    })

    function conversation(id: string, title: string, events: unknown[] = []): void {
      const dir = join(sb.cwd, '.jp', 'conversations', id)
      mkdirSync(dir, {recursive: true})
      writeFileSync(join(dir, 'metadata.json'), JSON.stringify({title, created_at: '2024-01-01T00:00:00Z'}))
      writeFileSync(join(dir, 'events.json'), JSON.stringify(events))
      writeFileSync(join(dir, 'base_config.json'), '{}')
    }

    function userConfig(text: string): void {
      mkdirSync(join(sb.home, '.config', 'jp'), {recursive: true})
      writeFileSync(join(sb.home, '.config', 'jp', 'config.toml'), text)
    }

    async function serve(responses: ScriptedResponse[]): Promise<string> {
      server = await startReplayServer(responses)
      return `[assistant.model]\nid = "llamacpp/e2e"\n[providers.llm.llamacpp]\nbase_url = "${server.url}/v1"\n`
    }

    it('jp conversation ls: titles (text and --format json)', async () => {
      conversation('jp-c1', mark(ALL))
      const r = await runJp(['conversation', 'ls'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      expectSafeSpans(r.stdout, 'ls')
      expect(r.stdout).to.include('\\u001b]52;c;') // shown, not hidden
      const j = await runJp(['conversation', 'ls', '--format', 'json'], {sandbox: sb})
      expect(j.code, j.stderr).to.equal(0)
      expect(CONTROL.test(j.stdout.trimEnd()), j.stdout).to.equal(false)
      expect(JSON.parse(j.stdout).title).to.equal(mark(ALL))
    })

    it('jp conversation show --format json: stored tool names and arguments', async () => {
      conversation('jp-c1', 't', [{timestamp: '2024-01-01T00:00:00Z', type: 'tool_call_request', id: 'c', name: mark(ALL), arguments: {a: mark(ALL)}}])
      const r = await runJp(['conversation', 'show', 'jp-c1', '--format', 'json'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      expect(CONTROL.test(r.stdout.trimEnd()), r.stdout).to.equal(false)
      expect(JSON.parse(r.stdout).name).to.equal(mark(ALL))
    })

    it('conversation ids echoed in errors (show, use, rm, query --id)', async () => {
      mkdirSync(join(sb.cwd, '.jp', 'conversations'), {recursive: true})
      for (const args of [['conversation', 'show'], ['conversation', 'use'], ['conversation', 'rm'], ['query', 'hi', '--id']]) {
        const r = await runJp([...args, mark(ALL)], {sandbox: sb})
        expect(r.code, args.join(' ')).to.equal(1)
        expectSafeSpans(r.stderr, args.join(' '))
        expect(r.stderr.trimEnd().split('\n'), r.stderr).to.have.length(1)
      }
    })

    it("oclif's own errors quoting the command line (an unknown flag, an unexpected argument)", async () => {
      for (const args of [['query', `--x${mark(ALL)}`], ['conversation', 'ls', mark(ALL)]]) {
        const r = await runJp(args, {sandbox: sb})
        expect(r.code, args.join(' ')).to.equal(2)
        // oclif wraps long messages itself ("\n ›   "): that line break is its own, not the input's.
        expectSafeSpans(r.stderr.replace(/\n ›\s+/g, ''), args.join(' '))
      }
    })

    it('config values echoed in error messages (a user config file, --cfg)', async () => {
      const tomlString = JSON.stringify(mark(ALL)) // TOML basic strings take JSON's escapes
      userConfig(`[editor.inline]\nedit_mode = ${tomlString}\n`)
      const r = await runJp(['query', '-E', 'hi'], {sandbox: sb})
      expect(r.code).to.equal(1)
      expectSafeSpans(r.stderr, 'config file')
      userConfig('')
      const c = await runJp(['query', '-E', '-c', `editor.inline.edit_mode=${mark(ALL)}`, 'hi'], {sandbox: sb})
      expect(c.code).to.equal(1)
      expectSafeSpans(c.stderr, '--cfg')
    })

    it('a provider error body', async () => {
      userConfig(await serve([{status: 400, headers: {'content-type': 'application/json'}, body: JSON.stringify({error: {type: 'invalid_request_error', message: mark(ALL)}})}]))
      const r = await runJp(['query', 'hi'], {sandbox: sb})
      expect(r.code).to.equal(1)
      expectSafeSpans(r.stderr, 'provider error')
    })

    it('tool headers and tool output summaries (an unattended tool, no terminal)', async () => {
      const tool = join(ROOT, 'test/fixtures/tools/hostile-output.sh')
      userConfig(
        (await serve([{body: openaiToolCall('call_1', 'echo', {text: mark(ALL)})}, {body: openaiText(['done'])}])) +
          `[conversation.tools.echo]\ncommand = "${tool}"\nrun = "unattended"\n[conversation.tools.echo.parameters.text]\ntype = "string"\n`,
      )
      const r = await runJp(['query', 'hi'], {sandbox: sb})
      expect(r.code, r.stderr).to.equal(0)
      const spans = expectSafeSpans(r.stderr, 'tool chrome')
      expect(spans.some((s) => s.includes('\\u001b]52;c;')), 'the ⚙ header').to.equal(true)
      expect(spans.some((s) => s.includes('\\u001b]0;tool title')), 'the ✓ summary of the output').to.equal(true)
    })

    it('in a terminal: conversation show, the permission question (tool name) and p (arguments)', async () => {
      conversation('jp-c1', mark(ALL), [{timestamp: '2024-01-01T00:00:00Z', type: 'chat_request', content: mark(ALL)}])
      term = await spawnPty([BIN, 'conversation', 'show', 'jp-c1'], {cwd: sb.cwd, env: sb.env})
      expect((await term.waitForExit()).exitCode, term.screenText()).to.equal(0)
      expect(expectSafeSpans(term.output(), 'show on a terminal')).to.have.length(2)
      term.dispose()

      const tool = join(ROOT, 'test/fixtures/tools/echo-args.sh')
      const name = `rec${mark('\u009b2J\u009d0;t\u009c')}`
      userConfig(
        (await serve([{body: openaiToolCall('call_1', name, {text: mark(ALL)})}, {body: openaiText(['done'])}])) +
          `[conversation.tools.${JSON.stringify(name)}]\ncommand = "${tool}"\n`,
      )
      term = await spawnPty([BIN, 'query', '-n', 'go'], {cwd: sb.cwd, env: sb.env, cols: 200, rows: 50})
      await term.waitForText('[y,Y,n,N,p,r,e,?]')
      term.send('p')
      const t = term
      await t.waitFor(() => t.screenText().split('[y,Y,n,N,p,r,e,?]').length > 2, 'the question asked again after p')
      term.send('n')
      expect((await term.waitForExit()).exitCode, term.screenText()).to.equal(0)
      const spans = expectSafeSpans(term.output(), 'permission menu')
      expect(spans.join('\n')).to.include('\\u001b]52;c;') // the arguments are shown, escaped
      expect(spans.join('\n')).to.include('\\u009b2J') // and the tool name
    })
  })
})
