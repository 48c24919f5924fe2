// The environment a local tool runs with (issue 28): secrets stay out. A
// tool's output goes to the model and into the conversation files, which
// repositories commit, so a tool that prints its environment must not print
// your keys. Modelled on Codex CLI's `shell_environment_policy`:
//
//   1. inherit: "all" of jp's environment (default), "core" (the basics a
//      program needs: CORE_VARIABLES) or "none";
//   2. drop the secrets: every provider's `api_key_env`, every name
//      matching SECRET_PATTERNS (case-insensitive) and every value that is a
//      URL with a password, unless `keep` names it;
//   3. `keep` patterns pass a variable from jp's environment whatever steps
//      1–2 said; `drop` patterns remove one whatever `keep` said.
//
// Patterns are globs over names (`*` any run, `?` one character), matched
// case-insensitively as Codex does. Pure: no I/O.

export type EnvInherit = 'all' | 'core' | 'none'

/** `conversation.tools.NAME.env`. */
export interface ToolEnvPolicy {
  inherit?: EnvInherit
  keep?: string[]
  drop?: string[]
}

/** What `inherit = "core"` passes: Codex's core set, plus locale, terminal and time zone. */
export const CORE_VARIABLES: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LC_*', 'TERM', 'TZ']

/**
 * Names dropped by default. Codex drops the first three; the rest carry a
 * credential under another word: a password or passphrase, an agent socket
 * that signs for you (`SSH_AUTH_SOCK`, `GPG_AGENT_INFO`), a file of
 * credentials (`GOOGLE_APPLICATION_CREDENTIALS`, `KUBECONFIG`), npm's `_auth`,
 * and the whole of AWS's session but its region and profile (AWS_EXCEPTIONS).
 */
export const SECRET_PATTERNS: readonly string[] = [
  '*KEY*', '*SECRET*', '*TOKEN*', '*PASSWORD*', '*PASSPHRASE*', '*CREDENTIAL*', '*_AUTH*',
  'SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'KUBECONFIG', 'AWS_*',
]

/** AWS variables that name where and as whom, not a secret: kept although `AWS_*` is dropped. */
const AWS_EXCEPTIONS: readonly string[] = ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_DEFAULT_PROFILE', 'AWS_CONFIG_FILE']

/** `scheme://user:password@host`: a URL (DATABASE_URL, a DSN, a proxy) that carries its password. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]*@/i

/** Whether a variable's value carries a credential whatever its name. */
export function valueCarriesCredential(value: string): boolean {
  return URL_WITH_PASSWORD.test(value)
}

/** Variables jp sets for the tool itself; never inherited from jp's own environment. */
const JP_TOOL_VARIABLES = ['JP_TOOL_NAME', 'JP_TOOL_ARGUMENTS', 'JP_TOOL_ARGUMENTS_FILE']

function globRegex(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${body}$`, 'i')
}

/** A matcher for a list of glob patterns (empty list: matches nothing). */
export function nameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const res = patterns.map(globRegex)
  return (name) => res.some((re) => re.test(name))
}

/**
 * The tool's environment from `base` (jp's own), `policy` and the variables
 * that hold provider keys (every provider's `api_key_env`).
 */
export function toolEnvironment(base: NodeJS.ProcessEnv, policy: ToolEnvPolicy | undefined, providerKeyVars: readonly string[]): NodeJS.ProcessEnv {
  const inherit = policy?.inherit ?? 'all'
  const isCore = nameMatcher(CORE_VARIABLES)
  const secretName = nameMatcher(SECRET_PATTERNS)
  const awsException = nameMatcher(AWS_EXCEPTIONS)
  const isSecret = (name: string, value: string): boolean => (secretName(name) && !awsException(name)) || valueCarriesCredential(value)
  const providerKeys = new Set(providerKeyVars.map((n) => n.toUpperCase()))
  const keep = nameMatcher(policy?.keep ?? [])
  const drop = nameMatcher(policy?.drop ?? [])
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || JP_TOOL_VARIABLES.includes(name)) continue
    const inherited = inherit === 'all' || (inherit === 'core' && isCore(name))
    const secret = isSecret(name, value) || providerKeys.has(name.toUpperCase())
    const pass = keep(name) || (inherited && !secret)
    if (pass && !drop(name)) out[name] = value
  }
  return out
}
