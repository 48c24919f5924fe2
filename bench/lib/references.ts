// Reference programs the benches race jp against (Codex CLI, Claude Code),
// installed with npm into the bench's own folder (bench/.references,
// git-ignored), pinned, once: a later run finds them there. A reference that
// cannot be installed (no registry, a platform without its binary) is
// undefined and its rows are skipped with a note, never faked.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const REFERENCES = join(dirname(fileURLToPath(import.meta.url)), '..', '.references')

/** The pinned references: npm spec and the bin file inside the package. */
export const PINNED = {
  codex: {name: '@openai/codex', version: '0.171.0', bin: 'bin/codex.js'},
  claude: {name: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'bin/claude.exe'},
} as const

/** The installed bin of a reference, installing it first when missing; undefined (with a note on stderr) when npm cannot. */
export function reference(which: keyof typeof PINNED): string | undefined {
  const {name, version, bin} = PINNED[which]
  const dir = join(REFERENCES, 'node_modules', ...name.split('/'))
  const installed = () => existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === version
  if (!installed()) {
    mkdirSync(REFERENCES, {recursive: true})
    if (!existsSync(join(REFERENCES, 'package.json'))) writeFileSync(join(REFERENCES, 'package.json'), '{"private": true}\n')
    process.stderr.write(`installing ${name}@${version} into bench/.references ...\n`)
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `${name}@${version}`], {cwd: REFERENCES, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'})
    if (r.status !== 0 || !installed()) {
      process.stderr.write(`${name}@${version} could not be installed (npm exit ${r.status}): its rows are skipped\n${r.stderr ?? ''}\n`)
      return undefined
    }
  }
  const file = join(dir, bin)
  return existsSync(file) ? file : undefined
}

/** How to exec a bin: a JavaScript launcher with this node (as jp is run, so neither pays a lookup the other does not), a binary as itself. */
export function launcher(bin: string): {file: string; args: string[]} {
  const real = realpathSync(bin)
  return readFileSync(real).subarray(0, 64).toString('latin1').startsWith('#!/usr/bin/env node') ? {file: process.execPath, args: [real]} : {file: real, args: []}
}
