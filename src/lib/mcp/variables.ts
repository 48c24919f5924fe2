// Secrets stay out of files: a server's header and `env` values may name
// jp's environment variables (`"$VAR"`, `"${VAR}"`, `"Bearer $VAR"`), read
// when the server starts. Every value a variable supplied is redacted from
// whatever jp prints or stores about that server. Pure.
import {redactor} from '../llm/redact.js'

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g

export type Expanded = {ok: true; values: Record<string, string>; secrets: string[]} | {ok: false; problem: string}

/** Each value with its `$VAR`s replaced; `what` names the table in the problem (`headers`, `env`). */
export function expandVariables(table: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv, what: string): Expanded {
  const values: Record<string, string> = {}
  const secrets: string[] = []
  for (const [key, raw] of Object.entries(table ?? {})) {
    let missing: string | undefined
    values[key] = raw.replace(VARIABLE, (_, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare!
      const value = env[name]
      if (value === undefined) missing ??= name
      else secrets.push(value)
      return value ?? ''
    })
    if (missing !== undefined) return {ok: false, problem: `${what}.${key} names $${missing}, which is not set`}
  }
  return {ok: true, values, secrets}
}

/** Removes every secret (and any 8-character run of it, or of its base64) from `text`. */
export function secretRedactor(secrets: readonly string[]): (text: string) => string {
  const each = secrets.filter((s) => s.length > 0).map((s) => redactor(s))
  return (text) => each.reduce((t, redact) => redact(t), text)
}

