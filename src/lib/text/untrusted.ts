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
// A leaf module (its one import, format-chars.ts, is a leaf too): the
// printer, the prompts, the commands and the error paths all use it.
import {FORMAT_CHARS, formatPlaceholder} from './format-chars.js'

/** C0 controls (including ESC, BEL, BS, CR), DEL and C1 controls: shown as `\uXXXX`. */
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f-\u009f]/
// The same, but line feed and tab are kept (multi-line text such as pretty JSON).
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
/**
 * With them, the format characters (bidi overrides and isolates, zero-width
 * characters, U+FEFF: text/format-chars.ts) and U+2028/2029, which make text
 * read in a different order or hide part of it (a tool argument that looks
 * harmless): shown as `⟨U+202E⟩`.
 */
const UNSAFE_ONE_LINE = new RegExp(`${CONTROL_ONE_LINE.source}|${FORMAT_CHARS.source}`, 'gu')
const UNSAFE_MULTI_LINE = new RegExp(`${CONTROL_MULTI_LINE.source}|${FORMAT_CHARS.source}`, 'gu')

/** Each UTF-16 unit as a JSON-style escape (an astral character as its surrogate pair). */
const escape = (c: string): string => {
  let out = ''
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}
const show = (c: string): string => (c.length === 1 && c.charCodeAt(0) <= 0x9f ? escape(c) : formatPlaceholder(c))

export interface UntrustedOptions {
  /** Keep `\n` and `\t` (text shown over several lines). Default: escape them, the text stays on one line. */
  multiline?: boolean
}

/** Untrusted text made safe to write to a terminal: every control character shown as `\uXXXX`, every format character as `⟨U+XXXX⟩`. */
export function sanitizeUntrusted(text: string, options: UntrustedOptions = {}): string {
  const re = options.multiline ? UNSAFE_MULTI_LINE : UNSAFE_ONE_LINE
  re.lastIndex = 0
  return re.test(text) ? text.replace(re, show) : text
}

// JSON keeps the value: format characters there are `\u` escapes too (JSON.parse gives back the same string).
const JSON_UNSAFE = UNSAFE_MULTI_LINE

/**
 * JSON of untrusted data, safe for a terminal and still valid JSON that
 * parses to the same value (raw DEL/C1 inside strings become `\u` escapes).
 */
export function untrustedJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) ?? 'null'
  JSON_UNSAFE.lastIndex = 0
  return JSON_UNSAFE.test(text) ? text.replace(JSON_UNSAFE, escape) : text
}
