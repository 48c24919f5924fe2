// The one sanitizer for untrusted text that jp quotes in its own output:
// conversation titles and ids, tool names and arguments, provider error
// bodies, config values and paths in messages. Such text can come from a
// model, a piped query or a cloned repository; written raw, an `ESC ] 52`
// would set the clipboard, an `ESC ] 0` the window title, a CSI clear the
// screen, a CR or BS overwrite what jp printed before it.
//
// Quoted text is made visible rather than dropped: the user should see that
// a tool argument holds an escape sequence before allowing the call. Each
// dangerous character becomes a JSON-style `\uXXXX` escape, so the same
// function also makes JSON safe without changing what it parses to
// (JSON.stringify escapes C0 but leaves DEL and C1 — U+009B CSI, U+009D OSC,
// U+009C ST — raw). Model prose streamed as the answer is a different job
// (printer/sanitize.ts: a stateful filter that keeps colour, SPEC §11).
//
// A leaf module with no imports: the printer, the prompts, the commands and
// the error paths all use it.

/**
 * C0 controls (including ESC, BEL, BS, CR), DEL, C1 controls, and the
 * Unicode bidirectional overrides/isolates that can make text read in a
 * different order than it is (a tool argument that looks harmless).
 */
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
// The same, but line feed and tab are kept (multi-line text such as pretty JSON).
const UNSAFE_MULTI_LINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

export interface UntrustedOptions {
  /** Keep `\n` and `\t` (text shown over several lines). Default: escape them, the text stays on one line. */
  multiline?: boolean
}

/** Untrusted text made safe to write to a terminal: every control character shown as `\uXXXX`. */
export function sanitizeUntrusted(text: string, options: UntrustedOptions = {}): string {
  const re = options.multiline ? UNSAFE_MULTI_LINE : UNSAFE_ONE_LINE
  re.lastIndex = 0
  return re.test(text) ? text.replace(re, escape) : text
}

/**
 * JSON of untrusted data, safe for a terminal and still valid JSON that
 * parses to the same value (raw DEL/C1 inside strings become `\u` escapes).
 */
export function untrustedJson(value: unknown, space?: number): string {
  return sanitizeUntrusted(JSON.stringify(value, null, space) ?? 'null', {multiline: true})
}
