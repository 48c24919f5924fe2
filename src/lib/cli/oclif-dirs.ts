// Where oclif keeps what a user adds to jp, found by oclif's own rules
// (Config#dir, scopedEnvVar), without loading oclif: for the answers
// bin/run.js gives before the CLI loads (first.ts, pick-first.ts), which
// are jp's alone only while nothing there could change them.
import {existsSync, readFileSync} from 'node:fs'
import {homedir, tmpdir} from 'node:os'
import {join} from 'node:path'

/** The part of package.json's `oclif` these rules read. */
export interface OclifNames {
  bin: string
  dirname?: string
  binAliases?: string[]
}

/** oclif's data and config directories for jp (`JP_DATA_DIR`, `XDG_DATA_HOME`, `~/.local/share/jp`, …). */
export function oclifDirs(oclif: OclifNames, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): {dataDir: string; configDir: string} {
  const dirname = oclif.dirname ?? oclif.bin
  // oclif's scopedEnvVar: JP_DATA_DIR (and each bin alias's).
  const scoped = (key: string) => {
    for (const alias of [oclif.bin, ...(oclif.binAliases ?? [])]) {
      const value = env[`${alias.replaceAll('@', '').replaceAll(/[/-]/g, '_')}_${key}`.toUpperCase()]
      if (value) return value
    }
    return undefined
  }
  const windows = platform === 'win32'
  const home = env.HOME || (windows && (env.HOMEDRIVE && env.HOMEPATH ? join(env.HOMEDRIVE, env.HOMEPATH) : env.USERPROFILE)) || homedir() || tmpdir()
  // oclif's Config#dir.
  const dir = (category: 'data' | 'config') =>
    join(env[`XDG_${category.toUpperCase()}_HOME`] || (windows && env.LOCALAPPDATA) || join(home, category === 'data' ? '.local/share' : '.config'), dirname)
  return {dataDir: scoped('DATA_DIR') || dir('data'), configDir: scoped('CONFIG_DIR') || dir('config')}
}

/**
 * Whether a user or linked plugin may be installed (oclif's
 * `<data dir>/package.json`): its init and prerun hooks would run before any
 * command, and its commands could take jp's names.
 */
export function userPluginsMayRun(dataDir: string): boolean {
  return existsSync(join(dataDir, 'package.json'))
}

/**
 * Whether no user or linked plugin can run before jp's own command, read off
 * the package at `root` (false when its package.json cannot be read: the CLI
 * then decides, as it always may).
 */
export function noUserPlugins(root: string, env: NodeJS.ProcessEnv): boolean {
  try {
    const {oclif} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {oclif: OclifNames}
    return !userPluginsMayRun(oclifDirs(oclif, env).dataDir)
  } catch {
    return false
  }
}
