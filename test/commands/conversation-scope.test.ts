// Outside any .jp/ workspace, each directory (a git repository's top level,
// else the cwd) keeps its own active conversation: two directories, neither
// a workspace.
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {makeSandbox, runJp, type Sandbox} from '../helpers/cli.js'

describe('conversations per directory outside a workspace', function () {
  this.timeout(90_000)
  let sb: Sandbox
  let a: string
  let b: string
  beforeEach(() => {
    sb = makeSandbox()
    a = join(sb.dir, 'a')
    b = join(sb.dir, 'b')
    mkdirSync(join(a, '.git', 'objects'), {recursive: true}) // a repository: its subdirectories share it
    mkdirSync(join(a, 'src', 'deep'), {recursive: true})
    mkdirSync(b)
  })
  afterEach(() => sb.cleanup())

  const queries = async (cwd: string): Promise<string[]> => {
    const show = await runJp(['c', 'show', '--format', 'json'], {sandbox: sb, cwd})
    return show.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'chat_request').map((e) => e.content)
  }

  it('a query in b does not continue the one started in a; a subdirectory of a repository continues its top level', async () => {
    const first = await runJp(['query', 'from a'], {sandbox: sb, cwd: a})
    expect(first.code, first.stderr).to.equal(0)
    expect(first.stderr).to.include(`jp: a conversation of its own for ${a} (outside a workspace each directory keeps its own;`)
    const inB = await runJp(['query', 'from b'], {sandbox: sb, cwd: b})
    expect(inB.code, inB.stderr).to.equal(0)
    expect(inB.stderr).to.include(`a conversation of its own for ${b}`)
    const again = await runJp(['query', 'again a'], {sandbox: sb, cwd: join(a, 'src', 'deep')})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stderr, 'the notice is said once per directory').to.not.include('of its own')
    expect(await queries(a)).to.deep.equal(['from a', 'again a'])
    expect(await queries(b)).to.deep.equal(['from b'])
  })

  it("jp c ls lists this directory's conversations; --all lists every one, this directory's first", async () => {
    await runJp(['query', 'in b'], {sandbox: sb, cwd: b})
    await runJp(['query', 'in a'], {sandbox: sb, cwd: a})
    await runJp(['query', '-n', 'in b again'], {sandbox: sb, cwd: b})
    const titles = async (args: string[], cwd: string) =>
      (await runJp(['c', 'ls', '--format', 'json', ...args], {sandbox: sb, cwd})).stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).title)
    expect(await titles([], a)).to.deep.equal(['in a'])
    expect(await titles([], b)).to.deep.equal(['in b again', 'in b'])
    expect(await titles(['--all'], a)).to.deep.equal(['in a', 'in b again', 'in b'])
    const text = await runJp(['c', 'ls', '--all'], {sandbox: sb, cwd: a})
    expect(text.stdout.split('\n')[0]).to.match(/ID\s+TITLE\s+LAST ACTIVE\s+DIRECTORY$/)
    expect(text.stdout.split('\n')[1]).to.match(new RegExp(`^\\*\\s+jp-c\\d+\\s+in a\\s+.*${a}$`))
  })
})
