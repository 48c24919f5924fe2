// Reference programs the benches race jp against (Codex CLI, Claude Code),
// and libraries (marked + marked-terminal, against jp's renderer),
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

/** Libraries the benches race jp's own code against (the renderer against marked-terminal), pinned; marked-terminal 7.3.0 takes marked < 16. */
export const PINNED_LIBRARIES = {
  marked: {name: 'marked', version: '15.0.12'},
  markedTerminal: {name: 'marked-terminal', version: '7.3.0'},
} as const

function installedVersion(name: string): string | undefined {
  const file = join(REFERENCES, 'node_modules', ...name.split('/'), 'package.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as {version: string}).version : undefined
}

/** Installs the pinned packages missing from bench/.references (one npm run); false (with a note on stderr) when npm cannot. */
function ensureInstalled(packages: readonly {name: string; version: string}[]): boolean {
  const missing = packages.filter((p) => installedVersion(p.name) !== p.version)
  if (missing.length === 0) return true
  const specs = missing.map((p) => `${p.name}@${p.version}`)
  mkdirSync(REFERENCES, {recursive: true})
  if (!existsSync(join(REFERENCES, 'package.json'))) writeFileSync(join(REFERENCES, 'package.json'), '{"private": true}\n')
  process.stderr.write(`installing ${specs.join(' ')} into bench/.references ...\n`)
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...specs], {cwd: REFERENCES, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'})
  if (r.status === 0 && missing.every((p) => installedVersion(p.name) === p.version)) return true
  process.stderr.write(`${specs.join(' ')} could not be installed (npm exit ${r.status}): their rows are skipped\n${r.stderr ?? ''}\n`)
  return false
}

/** The installed bin of a reference, installing it first when missing; undefined (with a note on stderr) when npm cannot. */
export function reference(which: keyof typeof PINNED): string | undefined {
  const {name, bin} = PINNED[which]
  if (!ensureInstalled([PINNED[which]])) return undefined
  const file = join(REFERENCES, 'node_modules', ...name.split('/'), bin)
  return existsSync(file) ? file : undefined
}

/** bench/.references with the pinned libraries installed (a script written there imports them by name); undefined when npm cannot. */
export function referenceLibraries(which: readonly (keyof typeof PINNED_LIBRARIES)[]): string | undefined {
  return ensureInstalled(which.map((w) => PINNED_LIBRARIES[w])) ? REFERENCES : undefined
}

/** How to exec a bin: a JavaScript launcher with this node (as jp is run, so neither pays a lookup the other does not), a binary as itself. */
export function launcher(bin: string): {file: string; args: string[]} {
  const real = realpathSync(bin)
  return readFileSync(real).subarray(0, 64).toString('latin1').startsWith('#!/usr/bin/env node') ? {file: process.execPath, args: [real]} : {file: real, args: []}
}
