// The vendored, patched @inquirer/core (src/lib/inquire/vendor/inquirer-core):
// the pin to the installed package, and the behaviour of the two patched
// seams (keys from KeyDecoder, incremental painting) as a prompt author sees
// them through createPrompt and inquirer's hooks.
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {PassThrough, Writable} from 'node:stream'
import {expect} from 'chai'
import type {Key} from '../../../src/lib/inquire/keys.js'
import {
  AbortPromptError,
  createPrompt,
  makeTheme,
  useEffect,
  useKeypress,
  usePrefix,
  useState,
} from '../../../src/lib/inquire/vendor/inquirer-core/index.js'
import {ROOT} from '../../helpers/pty.js'

const VENDOR = join(ROOT, 'src/lib/inquire/vendor/inquirer-core')
const require = createRequire(import.meta.url)
const INSTALLED = dirname(require.resolve('@inquirer/core/package.json'))

interface Upstream {
  package: string
  version: string
  files: Record<string, {upstream: string; sha256: string}>
}
const upstream = JSON.parse(readFileSync(join(VENDOR, 'upstream.json'), 'utf8')) as Upstream

class Screen extends Writable {
  text = ''
  writes: string[] = []
  columns = 80
  rows = 24
  _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += String(chunk)
    this.writes.push(String(chunk))
    done()
  }
}

/** A small prompt on the patched core: keys are recorded, Enter submits them, Ctrl+C is a key too. */
const recorder = createPrompt<{keys: string[]; cleanedUp: boolean}, {message: string; log: string[]}>((config, done) => {
  const [keys, setKeys] = useState<string[]>([])
  const [status, setStatus] = useState<'idle' | 'done'>('idle')
  const prefix = usePrefix({status, theme: makeTheme({prefix: {idle: '?', done: '!'}})})
  useEffect(() => {
    config.log.push('effect')
    return () => config.log.push('cleanup')
  }, [])
  useKeypress((key: Key) => {
    if (key.name === 'enter' && !key.shift && !key.meta) {
      setStatus('done')
      done({keys, cleanedUp: false})
      return
    }
    setKeys([...keys, key.name === 'char' || key.name === 'paste' ? `${key.name}:${key.text}` : `${key.ctrl ? 'C-' : ''}${key.meta ? 'M-' : ''}${key.shift ? 'S-' : ''}${key.name}`])
  })
  return `${prefix} ${config.message} ${keys.filter((k) => k.startsWith('char:')).map((k) => k.slice(5)).join('')}`
})

describe('vendored @inquirer/core', () => {
  describe('pin', () => {
    it('the installed @inquirer/core is the version the vendored files come from', () => {
      const installed = JSON.parse(readFileSync(join(INSTALLED, 'package.json'), 'utf8')) as {version: string}
      expect(upstream.package).to.equal('@inquirer/core')
      expect(installed.version, 'installed @inquirer/core changed: re-vendor (see PATCHES.md)').to.equal(upstream.version)
    })

    it('every upstream file a vendored file comes from is byte-identical to the installed one', () => {
      for (const [ours, {upstream: file, sha256}] of Object.entries(upstream.files)) {
        const actual = createHash('sha256').update(readFileSync(join(INSTALLED, file))).digest('hex')
        expect(actual, `${file} (vendored as ${ours}) changed upstream`).to.equal(sha256)
      }
    })

    it('every vendored source file is accounted for, and the licence is upstream’s', () => {
      const sources = readdirSync(VENDOR).filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      expect(sources.sort()).to.deep.equal(Object.keys(upstream.files).sort())
      expect(readFileSync(join(VENDOR, 'LICENSE'), 'utf8')).to.equal(readFileSync(join(INSTALLED, 'LICENSE'), 'utf8'))
      const patches = readFileSync(join(VENDOR, 'PATCHES.md'), 'utf8')
      for (const file of sources) expect(patches, `PATCHES.md mentions ${file}`).to.contain(file)
    })

    it('package.json pins every @inquirer package src/ imports as an exact runtime dependency', () => {
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {dependencies: Record<string, string>}
      const used = new Set<string>()
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, {withFileTypes: true})) {
          const path = join(dir, entry.name)
          if (entry.isDirectory()) walk(path)
          else if (entry.name.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/from '(@inquirer\/[a-z-]+)'|import\('(@inquirer\/[a-z-]+)'\)/g)) used.add(m[1] ?? m[2])
        }
      }
      walk(join(ROOT, 'src'))
      expect([...used]).to.include.members(['@inquirer/core', '@inquirer/prompts', '@inquirer/figures'])
      for (const name of used) expect(pkg.dependencies[name], `${name} in dependencies`).to.match(/^\d+\.\d+\.\d+$/)
    })
  })

  describe('createPrompt on the patched seams', () => {
    function streams() {
      const input = new PassThrough()
      const output = new Screen()
      return {input, output}
    }

    it('hands keypress handlers the project decoder’s keys: kitty CSI-u, a paste as one key, Alt, a split sequence', async () => {
      const {input, output} = streams()
      const log: string[] = []
      const answer = recorder({message: 'Keys:', log}, {input, output, env: {TERM: 'xterm'}})
      input.write('a\x1b[13;2u\x1b[200~x\ny\x1b[201~\x1bb\x1b[')
      input.write('A\r')
      const result = await answer
      expect(result.keys).to.deep.equal(['char:a', 'S-enter', 'paste:x\ny', 'M-b', 'up'])
    })

    /** An in-memory input that says it is a terminal (upstream treats those differently). */
    function ttyLike(input: PassThrough): PassThrough {
      return Object.assign(input, {isTTY: true, isRaw: false, setRawMode: () => input})
    }

    it('keeps keys that were waiting in a terminal input before the prompt started (upstream drops them)', async () => {
      const {input, output} = streams()
      ttyLike(input).write('early\r')
      const result = await recorder({message: 'Keys:', log: []}, {input, output, env: {TERM: 'xterm'}})
      expect(result.keys.join('')).to.equal('char:echar:achar:rchar:lchar:y')

      // The same situation with the stock package: the typed-ahead answer is lost.
      const {default: stockInput} = await import('@inquirer/input')
      const stock = streams()
      ttyLike(stock.input).write('early\r')
      const answer = stockInput({message: 'Keys:'}, {input: stock.input, output: stock.output})
      await new Promise((r) => setTimeout(r, 50))
      stock.input.write('\r')
      expect(await answer).to.equal('')
    })

    it('paints incrementally: one character typed at the end writes that character only', async () => {
      const {input, output} = streams()
      const answer = recorder({message: 'Keys:', log: []}, {input, output, env: {TERM: 'xterm'}})
      await new Promise((r) => setImmediate(r))
      // The line is erased first: keys typed before raw mode were echoed there.
      expect(output.text).to.equal('\r\x1b[2K? Keys: ')
      for (const ch of 'abc') {
        const before = output.writes.length
        input.write(ch)
        await new Promise((r) => setImmediate(r))
        expect(output.writes.slice(before)).to.deep.equal([ch])
      }
      input.write('\r')
      await answer
      // The final render (status done) repaints the changed prefix only, then leaves the line.
      expect(output.text.endsWith('\r\n')).to.equal(true)
    })

    it('runs effects after the first render and their cleanups when the prompt settles', async () => {
      const {input, output} = streams()
      const log: string[] = []
      const answer = recorder({message: 'Keys:', log}, {input, output, env: {TERM: 'xterm'}})
      expect(log).to.deep.equal(['effect'])
      input.write('\r')
      await answer
      expect(log).to.deep.equal(['effect', 'cleanup'])
    })

    it('an abort rejects with AbortPromptError, runs the cleanups and stops reading keys', async () => {
      const {input, output} = streams()
      const log: string[] = []
      const controller = new AbortController()
      const answer = recorder({message: 'Keys:', log}, {input, output, env: {TERM: 'xterm'}, signal: controller.signal})
      controller.abort()
      const error = await answer.catch((e: unknown) => e)
      expect(error).to.be.instanceOf(AbortPromptError)
      expect(log).to.deep.equal(['effect', 'cleanup'])
      expect(input.listenerCount('data')).to.equal(0)
    })

    it('a signal aborted before the prompt opens rejects with AbortPromptError too (not a cancel), and opens nothing', async () => {
      const {input, output} = streams()
      const log: string[] = []
      const error = await recorder({message: 'Keys:', log}, {input, output, env: {TERM: 'xterm'}, signal: AbortSignal.abort()}).catch((e: unknown) => e)
      expect(error).to.be.instanceOf(AbortPromptError)
      expect(log).to.deep.equal([])
      expect(output.text).to.equal('')
    })

    it('Ctrl+C is a key the prompt sees (not an exit)', async () => {
      const {input, output} = streams()
      const answer = recorder({message: 'Keys:', log: []}, {input, output, env: {TERM: 'xterm'}})
      input.write('\x03\x1b[99;5u\r')
      expect((await answer).keys).to.deep.equal(['C-c', 'C-c'])
    })

    it('TERM=dumb: appends without any escape sequence', async () => {
      const {input, output} = streams()
      const answer = recorder({message: 'Keys:', log: []}, {input, output, env: {TERM: 'dumb'}})
      input.write('hi\r')
      await answer
      expect(output.text).to.not.contain('\x1b')
      expect(output.text.startsWith('? Keys: hi')).to.equal(true)
    })
  })
})
