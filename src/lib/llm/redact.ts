// Keeping the API key out of what jp prints (issue 28, finding 14).
// Providers echo a rejected key in their error bodies — whole, cut down
// ("sk-proj-Zq8m…G0aS"), or base64-encoded as the Authorization header
// they received. Everything a provider says that jp shows passes
// `redactor(key)`: any run of 8 or more characters of the key, and any
// such run of its base64 (standard and URL alphabets, at each of the three
// byte alignments, so the key is found inside a longer encoded value such
// as `Bearer <key>` or `user:<key>`), becomes `[redacted key]`. Pure.

export const REDACTED = '[redacted key]'

/** Fragments shorter than this are too common to be the key's. */
const MIN_RUN = 8

/**
 * The key's base64 as it appears inside any longer base64 text: for each
 * alignment, the characters that depend on key bytes only.
 */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8')
  const out: string[] = []
  for (const shift of [0, 1, 2]) {
    const n = shift + bytes.length
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    // The first group holds padding bytes (shift > 0); the last partial group depends on what follows.
    const core = encoded.slice(shift === 0 ? 0 : 4, 4 * Math.floor(n / 3))
    if (core.length >= MIN_RUN) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return out
}

/** A function that replaces every trace of `key` in a text; the identity when there is no key. */
export function redactor(key: string | undefined): (text: string) => string {
  if (!key) return (text) => text
  const forms = [key, ...base64Cores(key)]
  // Every MIN_RUN-character piece of every form: where a run can start.
  const starts = new Set<string>()
  for (const form of forms) for (let i = 0; i + MIN_RUN <= form.length; i++) starts.add(form.slice(i, i + MIN_RUN))
  const isPiece = (s: string) => forms.some((f) => f.includes(s))
  return (text) => {
    if (text.includes(key)) text = text.split(key).join(REDACTED)
    if (key.length < MIN_RUN || starts.size === 0) return text
    let out = ''
    let i = 0
    while (i < text.length) {
      if (i + MIN_RUN <= text.length && starts.has(text.slice(i, i + MIN_RUN))) {
        let end = i + MIN_RUN
        while (end < text.length && isPiece(text.slice(i, end + 1))) end++
        out += REDACTED
        i = end
      } else {
        out += text[i]
        i++
      }
    }
    return out
  }
}
