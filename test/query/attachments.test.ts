// The shared attachment reader (query/attachments.ts): `-a` files and `@` mentions.
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {DIRECTORY_LIST_CAP, mentionAttachments, readAttachments} from '../../src/lib/query/attachments.js'

describe('attachments and mentions', () => {
  let dir: string
  let root: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-attach-'))
    root = join(dir, 'ws')
    mkdirSync(join(root, 'src', 'sub'), {recursive: true})
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1\n')
    writeFileSync(join(root, 'a b.txt'), 'spaced\n')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))
  const opts = (cwd = root) => ({cwd, root, maxBytes: 1000, home: dir})

  it('refuses a FIFO from its stat, without blocking on an open (-a and mentions)', async function () {
    try {
      execFileSync('mkfifo', [join(root, 'pipe')])
    } catch {
      this.skip() // mkfifo (coreutils) missing
    }
    const err = await readAttachments(['pipe'], {cwd: root, maxBytes: 1000}).catch((e: Error) => e)
    expect((err as Error).message).to.equal('-a pipe: is a FIFO (named pipe), not a regular file; only regular files can be attached')
    expect(await mentionAttachments('see @pipe', opts())).to.deep.equal({problem: '@pipe: is a FIFO (named pipe), not a regular file; only regular files can be attached'})
  })

  it('attaches mentioned files as typed: relative to the cwd, else the workspace root, quoted, ~/', async () => {
    writeFileSync(join(dir, 'home.md'), 'home\n')
    const got = await mentionAttachments('fix @a.ts, @src/a.ts and @"a b.txt" @~/home.md', opts(join(root, 'src')))
    expect(got).to.deep.equal([
      {path: 'a.ts', content: 'export const a = 1\n'},
      {path: 'src/a.ts', content: 'export const a = 1\n'},
      {path: 'a b.txt', content: 'spaced\n'},
      {path: '~/home.md', content: 'home\n'},
    ])
  })

  it('stops at the first mention that cannot be attached, naming it', async () => {
    expect(await mentionAttachments('@src/a.ts @nope.md', opts())).to.deep.equal({problem: '@nope.md: no such file'})
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(1001))
    expect(await mentionAttachments('@big.txt', opts())).to.deep.equal({problem: '@big.txt: 1001 bytes, more than query.attach_max_bytes (1000)'})
    writeFileSync(join(root, 'bin'), Buffer.from([1, 0, 2]))
    expect((await mentionAttachments('@bin', opts())) as {problem: string}).to.have.property('problem').that.match(/^@bin: is a binary file/)
  })

  it('a directory mention attaches its names, capped', async () => {
    for (let i = 0; i < DIRECTORY_LIST_CAP + 5; i++) writeFileSync(join(root, 'src', 'sub', `f${String(i).padStart(3, '0')}`), '')
    const [src] = (await mentionAttachments('@src', opts())) as Array<{path: string; content: string}>
    expect(src).to.deep.equal({path: 'src/', content: 'a.ts\nsub/\n'})
    const [sub] = (await mentionAttachments('@src/sub/', opts())) as Array<{path: string; content: string}>
    expect(sub.content.split('\n').slice(-2)).to.deep.equal(['… and 5 more', ''])
  })

  it('names a link out of the workspace in the label', async () => {
    writeFileSync(join(dir, 'secret.txt'), 'out\n')
    symlinkSync(join(dir, 'secret.txt'), join(root, 'link.txt'))
    const [a] = (await mentionAttachments('@link.txt', opts())) as Array<{path: string}>
    expect(a.path).to.equal(`link.txt (a link to ${join(dir, 'secret.txt')}, outside the workspace)`)
  })
})
