// Programs a test runs that a machine may lack (zsh, fish, jq, git, …). On a
// machine with only Node and npm the README's `npm install && npm test` must
// pass: such a test is skipped (mocha's pending, counted in the summary) with
// one line naming the program and the Debian package that provides it. CI
// (.ci/run) installs them all and sets JP_TEST_REQUIRE_ALL=1, which turns a
// missing program into a failure instead: CI runs everything.
import {accessSync, constants, statSync} from 'node:fs'
import {delimiter, isAbsolute, join} from 'node:path'
import type {Context} from 'mocha'

/** Starts every skip line, so a log can be searched for them. */
export const MISSING_PROGRAM = 'skipped, missing program:'

/** The executable `name` on PATH (or `name` itself when absolute), or undefined. */
export function findProgram(name: string, path: string = process.env.PATH ?? ''): string | undefined {
  const candidates = isAbsolute(name) ? [name] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, name))
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK)
      if (statSync(file).isFile()) return file
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * The path of `program` on PATH. When it is missing the running test (or, in
 * a `before` hook, its whole suite) is skipped with one line naming the
 * program and `debianPackage`; under JP_TEST_REQUIRE_ALL=1 it throws.
 * Call with mocha's `this`: `before(function () { zsh = requireProgram(this, 'zsh', 'zsh') })`.
 */
export function requireProgram(ctx: Context, program: string, debianPackage: string): string {
  const found = findProgram(program)
  if (found !== undefined) return found
  // In a hook: its suite (all of which is skipped); in a test: the test.
  const runnable = ctx.test as (Mocha.Runnable & {type?: string}) | undefined
  const where = (runnable?.type === 'hook' ? runnable.parent?.fullTitle() : runnable?.fullTitle()) ?? ''
  if (process.env.JP_TEST_REQUIRE_ALL === '1') {
    throw new Error(`${program} is not on PATH (Debian package: ${debianPackage}); JP_TEST_REQUIRE_ALL=1 runs every test`)
  }
  process.stdout.write(`  ${MISSING_PROGRAM} ${program} (Debian package: ${debianPackage}) — ${where}\n`)
  ctx.skip()
}
