// What `jp --version`, `jp -v` and the VERSION section of `jp --help` print
// (SPEC §18): `jp VERSION (node VERSION, PLATFORM)`, e.g.
// `jp 0.1.0 (node 20.20.2, linux-x64)` — the program's name as typed, not the
// npm package's, and the versions without oclif's `name/` and `node-v` forms.

/** The version line for jp `version` on this Node and platform. */
export function versionLine(version: string, node = process.versions.node, platform = `${process.platform}-${process.arch}`): string {
  return `jp ${version} (node ${node}, ${platform})`
}

/**
 * Makes oclif print jp's version line: oclif shows `config.userAgent` for
 * --version/-v and in the root help. Set on every Config that shows it (the
 * init hook's, and each help's: oclif loads a fresh Config per command).
 */
export function useVersionLine(config: {version: string; userAgent: string}): void {
  // The Config interface calls the field read-only; the instance's is a plain property.
  ;(config as {userAgent: string}).userAgent = versionLine(config.version)
}
