// Format characters in rendered text (SPEC §19, "The output path"): the bidi
// controls, zero-width characters, U+FEFF and the rest of Unicode category
// Cf, and U+2028/U+2029, are shown as a dim `⟨U+202E⟩`, never sent raw. It
// runs on the renderer's output, after markdown-it decoded the entities that
// make them (`&#x202e;`), and so covers every element — prose, headings,
// lists, tables, code — at once. The wrapper counts each as its
// placeholder's cells (wrap.ts `cells`), so lines still fit.
//
// markdown/ imports nothing from src/lib: text/format-chars.ts holds the
// same regex for the printer's plain path.

/** One format character or separator (a `u` regex: astral Cf such as the tags U+E0001–E007F too). */
// Not the joiner inside an emoji sequence (👨‍👩‍👧) nor the tags of a flag (🏴 + tags): they draw one picture.
export const FORMAT_CHARS = /(?!(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic}))(?!(?<=\u{1F3F4}[\u{E0020}-\u{E007F}]*)[\u{E0020}-\u{E007F}])[\p{Cf}\u2028\u2029]/u
// Our own SGR (style.ts paints `CSI params m text CSI 0 m`), or a format character.
// eslint-disable-next-line no-control-regex
const SGR_OR_FORMAT = new RegExp(`\u001b\\[([0-9;]*)m|${FORMAT_CHARS.source}`, 'gu')

/** `⟨U+202E⟩` for U+202E. */
export function placeholder(c: string): string {
  return `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

/**
 * Rendered output with each format character as its dim placeholder, ended
 * by a full reset as everything the renderer paints is (no style runs on
 * past a line's end); the style painted around it is set again after it.
 * A painted word is never split between two outputs, so each output starts
 * unstyled and the result is the same whatever the chunking.
 */
export function showFormatChars(out: string): string {
  if (!FORMAT_CHARS.test(out)) return out
  let active = ''
  return out.replace(SGR_OR_FORMAT, (m: string, params: string | undefined) => {
    if (params !== undefined) {
      active = params === '' || params === '0' ? '' : params
      return m
    }
    return `\u001b[2m${placeholder(m)}\u001b[0m${active === '' ? '' : `\u001b[${active}m`}`
  })
}
