// The security suite's escape corpus: strings that would act on a terminal
// if jp printed them raw (titles, clipboard, links, clearing, C1 controls,
// BEL, BS, CR, bidi overrides and zero-width characters). Tests wrap them in « » markers to find them in the output.

const ESC = '\u001b'
const BEL = '\u0007'
const ST = `${ESC}\\`

export const HOSTILE: Record<string, string> = {
  'OSC 0 (window title)': `${ESC}]0;pwned${BEL}`,
  'OSC 8 (hyperlink)': `${ESC}]8;;http://evil.example${ST}click${ESC}]8;;${ST}`,
  'OSC 52 (clipboard)': `${ESC}]52;c;cm0gLXJmIH4=${BEL}`,
  'CSI 2J (clear screen)': `${ESC}[2J${ESC}[H`,
  'DCS': `${ESC}P1$r0m${ST}`,
  'C1 CSI': '\u009b2J',
  'C1 OSC ... C1 ST': '\u009d0;c1 title\u009c',
  'BEL': `ding${BEL}`,
  'BS': 'safe\b\b\b\bevil',
  'CR': `harmless\rEVIL`,
  // Invisible and direction-changing (SPEC §19): shown as ⟨U+XXXX⟩, not sent.
  'RLO and isolates (bidi)': 'rm \u202eevil\u2066 \u2069',
  'zero width, BOM, line separator': 'ad\u200bmin\ufeff\u2028',
}

/** Every string of the corpus, one after the other. */
export const ALL = Object.values(HOSTILE).join('')

export const mark = (s: string) => `«${s}»`

/** Any C0 or C1 control character, DEL included, or a format character (Cf) or U+2028/2029. */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u
