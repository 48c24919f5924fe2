// Invisible and direction-changing characters in untrusted text (SPEC §19,
// "The output path"): Unicode format characters (category Cf: the bidi
// embeddings, overrides, isolates and marks U+202A–202E, U+2066–2069,
// U+200E/200F, U+061C; zero-width U+200B–200D, U+2060; U+FEFF; the soft
// hyphen; tags) and the line and paragraph separators U+2028/U+2029 (Zl, Zp).
// Written raw, they make text display other than it is (Trojan Source,
// CVE-2021-42574): a terminal shows each instead as `⟨U+202E⟩`. Only what
// is shown on a terminal changes; stored events, pipes and JSON keep them.
//
// A leaf module with no imports (the renderer has its own copy of the regex:
// markdown/ imports nothing from src/lib).

/** One format character or separator (global, unicode: astral Cf such as the tags U+E0001–E007F too). */
// Not the joiner inside an emoji sequence (👨‍👩‍👧) nor the tags of a flag (🏴 + tags): they draw one picture.
export const FORMAT_CHARS = /(?!(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic}))(?!(?<=\u{1F3F4}[\u{E0020}-\u{E007F}]*)[\u{E0020}-\u{E007F}])[\p{Cf}\u2028\u2029]/gu

/** Whether `text` holds one. */
export function hasFormatChars(text: string): boolean {
  FORMAT_CHARS.lastIndex = 0
  return FORMAT_CHARS.test(text)
}

/** The visible stand-in for one: `⟨U+202E⟩` (four hex digits at least, upper case). */
export function formatPlaceholder(c: string): string {
  return `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

const DIM = '\u001b[2m'
const UNDIM = '\u001b[22m'

/**
 * `text` with each format character as its placeholder; `dim` wraps each
 * placeholder in SGR dim (for text with no styling of its own to restore).
 */
export function showFormatChars(text: string, dim = false): string {
  if (!hasFormatChars(text)) return text
  return text.replace(FORMAT_CHARS, (c) => (dim ? DIM + formatPlaceholder(c) + UNDIM : formatPlaceholder(c)))
}
