// Many argument lists of the built CLI answered by one child process, for
// tests that check a property of every one of a long list (every recorded
// help, every colour setting) where a process per list would spend nearly
// all its time starting Node and loading the bundle (~0.3 s of CPU each).
// Each child is a real process in the sandbox's environment (what oclif and
// supports-color read when they load is this child's), started once per
// environment:
//   - oclifAnswers: loads dist/jp.cjs once (bin/load.js, as bin/run.js
//     does) and runs its `execute` for each list in turn, capturing what it
//     writes and the exit status it sets or asks for, as
//     scripts/recorded-help.js records the help;
//   - firstAnswers: asks dist/first.cjs's answerFirst, as bin/run.js does,
//     with stdout a pipe.
// What depends on the process itself (bin/run.js's routing, exit codes,
// stdout and stderr as separate pipes, a terminal) stays with tests that
// spawn jp per case (test/helpers/cli.ts runJp); the tests using this keep
// a sample of those beside it.
import {spawn} from 'node:child_process'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {ROOT, type Sandbox} from './cli.js'

export interface Answer {
  stdout: string
  stderr: string
  /** The exit status the run would end with (0: it returned; an exit it asked for; 1 for an error that escaped). */
  code: number
}

const OCLIF_CHILD = `
import {writeSync} from 'node:fs'
import {loadBundle} from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin/load.js')).href)}
const lists = JSON.parse(process.argv[1])
const {execute} = loadBundle(${JSON.stringify(join(ROOT, 'dist/jp.cjs'))}).exports
const write = {stdout: process.stdout.write, stderr: process.stderr.write}
const exit = process.exit
const results = []
for (const args of lists) {
  const got = {stdout: '', stderr: '', code: 0}
  process.stdout.write = (chunk) => ((got.stdout += chunk), true)
  process.stderr.write = (chunk) => ((got.stderr += chunk), true)
  process.exit = (code) => {
    got.code = code ?? 0
    throw new Error('exit')
  }
  try {
    await execute({args, dir: ${JSON.stringify(ROOT)}})
    got.code = process.exitCode ?? 0
  } catch {
    if (got.code === 0) got.code = 1
  } finally {
    process.exit = exit
    process.exitCode = undefined
    Object.assign(process.stdout, {write: write.stdout})
    Object.assign(process.stderr, {write: write.stderr})
  }
  results.push(got)
}
writeSync(3, JSON.stringify(results))
`

const FIRST_CHILD = `
import {writeSync} from 'node:fs'
import {answerFirst} from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/first.cjs')).href)}
const lists = JSON.parse(process.argv[1])
const results = []
for (const argv of lists) {
  let text = ''
  const answered = await answerFirst({argv, root: ${JSON.stringify(ROOT)}, env: process.env, stdout: {isTTY: false, write: (t) => (text += t)}})
  results.push(answered ? text : null)
}
writeSync(3, JSON.stringify(results))
`

async function inChild<T>(script: string, lists: readonly string[][], opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv}): Promise<T[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(lists)], {
    cwd: opts.sandbox.cwd,
    env: {...opts.sandbox.env, ...opts.env},
    // stdout and stderr are pipes that must stay empty: output written around
    // the capture (straight to a file descriptor) would otherwise be lost,
    // and a case expecting silence would pass.
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
  })
  const read = (stream: NodeJS.ReadableStream) =>
    new Promise<string>((resolve) => {
      let text = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text))
    })
  const [stdout, stderr, output, status] = await Promise.all([
    read(child.stdio[1]!),
    read(child.stdio[2]!),
    read(child.stdio[3] as NodeJS.ReadableStream),
    new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve)),
  ])
  if (status !== 0) throw new Error(`the child answering ${lists.length} argument lists exited ${status}: ${stderr}`)
  if (stdout !== '' || stderr !== '') throw new Error(`the child answering ${lists.length} argument lists wrote around the capture: ${JSON.stringify(stdout + stderr)}`)
  const results = JSON.parse(output) as T[]
  if (results.length !== lists.length) throw new Error(`the child answered ${results.length} of ${lists.length} argument lists`)
  return results
}

/**
 * What the built CLI prints for each list (through its `execute`, bin/run.js's
 * first answer not asked), one child for all of them, in order (runs that
 * change the sandbox see what the ones before them left), or in the reverse
 * order with `reverse` (for lists that change nothing, as the recording ran
 * them forwards).
 */
export async function oclifAnswers(lists: readonly string[][], opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv; reverse?: boolean}): Promise<Answer[]> {
  if (!opts.reverse) return inChild<Answer>(OCLIF_CHILD, lists, opts)
  return (await inChild<Answer>(OCLIF_CHILD, [...lists].reverse(), opts)).reverse()
}

/** What bin/run.js's first answer (dist/first.cjs) prints for each list with stdout a pipe, or undefined where it leaves the list to oclif; one child for all. */
export async function firstAnswers(lists: readonly string[][], opts: {sandbox: Sandbox; env?: NodeJS.ProcessEnv}): Promise<(string | undefined)[]> {
  return (await inChild<string | null>(FIRST_CHILD, lists, opts)).map((r) => r ?? undefined)
}
