// How rendered markdown looks: text attributes and colours, spelled as SGR
// here (the renderer is a painter of its own: docs/architecture.md), the
// markdown elements' styles and the code themes (`style.code_theme`).
// Colour can be off (NO_COLOR) while bold, italic and the layout stay.

export interface Style {
  bold?: boolean
  dim?: boolean
  italic?: boolean
  underline?: boolean
  strike?: boolean
  /** SGR foreground parameters ('36', '38;5;214'). */
  fg?: string
}

export const PLAIN: Style = Object.freeze({})

export function merge(a: Style, b: Style | undefined): Style {
  if (b === undefined || b === PLAIN) return a
  if (a === PLAIN) return b
  return {...a, ...b}
}

/** Ends every attribute and colour (also what the printer registers for the exit paths). */
export const STYLE_RESET = '\u001b[0m'
const RESET = STYLE_RESET

/** Wraps `text` in its style's SGR (nothing when plain), ending with a full reset. */
export function paint(text: string, style: Style, color: boolean): string {
  // Built without an array: this runs for every styled word.
  if (style === PLAIN) return text
  let codes = ''
  if (style.bold) codes = '1'
  if (style.dim) codes = codes === '' ? '2' : codes + ';2'
  if (style.italic) codes = codes === '' ? '3' : codes + ';3'
  if (style.underline) codes = codes === '' ? '4' : codes + ';4'
  if (style.strike) codes = codes === '' ? '9' : codes + ';9'
  if (color && style.fg) codes = codes === '' ? style.fg : codes + ';' + style.fg
  if (codes === '') return text
  return `\u001b[${codes}m${text}${RESET}`
}

/** The OSC 8 hyperlink around already painted `text` (the URL holds no control characters: see safeUrl). */
export function hyperlink(text: string, url: string): string {
  return `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`
}

/** A URL fit to be spliced into OSC 8: controls, spaces and non-ASCII percent-encoded or dropped. */
export function safeUrl(url: string): string {
  // eslint-disable-next-line no-control-regex
  return url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').replace(/[^\u0021-\u007e]/g, (c) => encodeURIComponent(c))
}

/** The styles of markdown's elements. */
export const ELEMENT = {
  heading: [{bold: true, underline: true, fg: '35'}, {bold: true, fg: '35'}, {bold: true, fg: '36'}, {bold: true}, {bold: true, italic: true}, {italic: true}] as Style[],
  headingMarker: {dim: true} as Style,
  strong: {bold: true} as Style,
  em: {italic: true} as Style,
  strike: {strike: true} as Style,
  code: {fg: '33'} as Style,
  link: {underline: true, fg: '34'} as Style,
  url: {dim: true} as Style,
  quote: {dim: true} as Style,
  marker: {fg: '36'} as Style,
  rule: {dim: true} as Style,
  tableBorder: {dim: true} as Style,
  tableHeader: {bold: true} as Style,
  codeFrame: {dim: true} as Style,
  taskDone: {fg: '32'} as Style,
  reasoning: {dim: true} as Style,
}

/** highlight.js scope (its first class word) → style, per named theme. */
export type CodeTheme = Readonly<Record<string, Style>>

const ANSI: CodeTheme = {
  keyword: {fg: '35'},
  built_in: {fg: '36'},
  type: {fg: '36'},
  literal: {fg: '33'},
  number: {fg: '33'},
  string: {fg: '32'},
  regexp: {fg: '31'},
  symbol: {fg: '33'},
  comment: {fg: '90', italic: true},
  doctag: {fg: '90', bold: true},
  meta: {fg: '90'},
  title: {fg: '34', bold: true},
  attr: {fg: '36'},
  attribute: {fg: '36'},
  property: {fg: '36'},
  variable: {fg: '31'},
  params: {},
  tag: {fg: '34'},
  name: {fg: '34'},
  section: {fg: '35', bold: true},
  addition: {fg: '32'},
  deletion: {fg: '31'},
  'selector-tag': {fg: '35'},
  'selector-class': {fg: '33'},
  'selector-id': {fg: '33'},
  'template-variable': {fg: '31'},
  subst: {},
}

function shade(theme: CodeTheme, map: Record<string, string>): CodeTheme {
  const out: Record<string, Style> = {}
  for (const [scope, style] of Object.entries(theme)) out[scope] = {...style, fg: style.fg ? (map[style.fg] ?? style.fg) : undefined}
  return out
}

/** `style.code_theme`: the names, in the order the docs list them. */
export const CODE_THEMES = {
  /** The terminal's own 16 colours: follows its palette, light or dark. */
  ansi: ANSI,
  /** 256 colours chosen for a dark background. */
  dark: shade(ANSI, {'35': '38;5;176', '36': '38;5;80', '33': '38;5;215', '32': '38;5;114', '31': '38;5;210', '34': '38;5;75', '90': '38;5;245'}),
  /** 256 colours chosen for a light background. */
  light: shade(ANSI, {'35': '38;5;90', '36': '38;5;30', '33': '38;5;130', '32': '38;5;28', '31': '38;5;124', '34': '38;5;25', '90': '38;5;242'}),
  /** No colours: keywords bold, comments italic. */
  mono: {keyword: {bold: true}, built_in: {bold: true}, title: {bold: true}, comment: {italic: true}, doctag: {italic: true}, section: {bold: true}} as CodeTheme,
} satisfies Record<string, CodeTheme>

export type CodeThemeName = keyof typeof CODE_THEMES
export const CODE_THEME_NAMES = Object.keys(CODE_THEMES) as CodeThemeName[]
